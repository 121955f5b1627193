"""``pbm db upgrade`` and ``pbm db check``."""

from __future__ import annotations

from pathlib import Path

import click

from pbm.cli._common import config_option, load
from pbm.db import migrate
from pbm.db.session import make_db_engine

__all__ = ["COMMANDS"]


@click.group("db")
def db() -> None:
    """The database: apply migrations, check they match the models."""


@db.command("upgrade")
@click.option("--url", help="Database URL (instead of the config's database.url).")
@config_option
def upgrade(url: str | None, config_path: Path | None) -> None:
    """Create or migrate the database schema to the latest version."""
    db_url = url or load(config_path, logs=False).database.url
    db_engine = make_db_engine(db_url)
    try:
        migrate.upgrade(db_engine)
    finally:
        db_engine.dispose()
    click.echo("database is up to date")


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


COMMANDS = [db]
