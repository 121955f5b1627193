"""``pbm db upgrade``, ``pbm db check``, ``pbm db backup`` and ``pbm db restore``."""

from __future__ import annotations

import os
from pathlib import Path

import click

from pbm.cli._common import config_option, load
from pbm.cli._edge import Failure
from pbm.core.errors import PbmError
from pbm.db import migrate
from pbm.db.session import make_db_engine
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
    """Copy the SQLite database to FILE (online: safe while pbm runs). For PostgreSQL,
    prints the pg_dump command to use instead."""
    config = load(config_path, logs=False)
    try:
        size = backup_db(config.database.url, file)
    except PbmError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"backed up to {file} ({size} bytes)")


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
