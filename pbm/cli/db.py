"""``pbm db upgrade``, ``pbm db check``, ``pbm db backup`` and ``pbm db restore``."""

from __future__ import annotations

import os
from pathlib import Path

import click
from sqlalchemy.exc import SQLAlchemyError

from pbm.app import App
from pbm.cli._common import config_option, load
from pbm.cli._edge import Failure
from pbm.core.config import Config
from pbm.core.errors import PbmError
from pbm.db import migrate
from pbm.db.session import make_db_engine
from pbm.inbound.spool import import_all, spool_state
from pbm.ops.status import backup as backup_db
from pbm.ops.status import restore as restore_db
from pbm.ops.status import sqlite_path

__all__ = ["COMMANDS"]


@click.group("db")
def db() -> None:
    """The database: apply migrations, check they match the models, back up, restore."""


@db.command("upgrade")
@click.option("--url", help="Database URL (instead of the config's database.url).")
@config_option
def upgrade(url: str | None, config_path: Path | None) -> None:
    """Create or migrate the database schema to the latest version."""
    db_url = url or load(config_path, logs=False).database.url
    _make_directory(db_url)
    db_engine = make_db_engine(db_url)
    try:
        migrate.upgrade(db_engine)
    finally:
        db_engine.dispose()
    click.echo("database is up to date")


def _make_directory(url: str) -> None:
    """Create a SQLite database's directory (owner only), or say why it cannot be."""
    path = sqlite_path(url)
    if path is None:
        return
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise Failure(
            f"cannot create {path.parent} for the database: {exc.strerror or exc} "
            "(fix database.url, or create the directory for pbm's user)",
            os.EX_CANTCREAT,
        ) from exc
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise Failure(
            f"cannot create the database in {path.parent}: not writable by this user "
            "(fix database.url, or give pbm's user the directory)",
            os.EX_CANTCREAT,
        )


@db.command("check")
@click.option("--url", help="Database URL (instead of the config's database.url).")
@config_option
def check(url: str | None, config_path: Path | None) -> None:
    """Fail if the models and the migrations differ (a migration is missing)."""
    db_url = url or load(config_path, logs=False).database.url
    db_engine = make_db_engine(db_url)
    try:
        migrate.check(db_engine)
    except migrate.DriftError as exc:
        raise click.ClickException(f"models and migrations differ: {exc}") from exc
    finally:
        db_engine.dispose()
    click.echo("models and migrations agree")


@db.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@config_option
def backup(file: Path, config_path: Path | None) -> None:
    """Copy the SQLite database to FILE (online: safe while pbm runs), after storing the mail
    the doors spooled while a pass held the database, so that FILE holds every mail accepted
    before the backup began. For PostgreSQL, prints the pg_dump command to use instead."""
    config = load(config_path, logs=False)
    try:
        imported = _import_spool(config)
        size = backup_db(config.database.url, file)
    except (PbmError, SQLAlchemyError) as exc:
        raise click.ClickException(str(exc)) from exc
    if imported:
        click.echo(f"stored {imported} spooled mails first")
    click.echo(f"backed up to {file} ({size} bytes)")


def _import_spool(config: Config) -> int:
    """Store what the spool holds now (as the next pass would), under the write lock."""
    spool_dir = config.database.spool_dir
    db_file = sqlite_path(config.database.url)
    if spool_dir is None or db_file is None or not spool_state(spool_dir).count:
        return 0
    if not db_file.exists():
        return 0  # backup_db says there is no database
    app = App.from_config(config)
    try:
        assert app.spool is not None
        return import_all(app.spool, app.inbound)
    finally:
        app.close()


@db.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@config_option
def restore(file: Path, config_path: Path | None) -> None:
    """Copy the backup FILE over the SQLite database. Refused while pbm serves it, or if FILE
    is not a pbm database. Run `pbm db upgrade` after restoring an older backup."""
    config = load(config_path, logs=False)
    try:
        restore_db(config.database.url, file)
    except PbmError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"restored from {file}")


COMMANDS = [db]
