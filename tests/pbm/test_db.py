"""The database: migrations build the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from pbm.cli import main
from pbm.db import migrate
from pbm.db.session import SQLITE_MMAP_BYTES, make_db_engine


def test_migrations_match_models(db_url: str) -> None:
    """After ``upgrade head`` on an empty database, ``alembic check`` finds no difference."""
    db_engine = make_db_engine(db_url)
    migrate.upgrade(db_engine)
    migrate.check(db_engine)
    db_engine.dispose()


def test_db_check_fails_on_an_unmigrated_database(tmp_path: Path) -> None:
    """``pbm db check`` on a database never upgraded says so and names the fix (EX_NOINPUT:
    there is no file yet), instead of calling the empty schema a drift."""
    url = f"sqlite:///{tmp_path}/empty.sqlite3"
    result = CliRunner().invoke(main, ["db", "check", "--url", url])
    assert result.exit_code == os.EX_NOINPUT
    assert "run `pbm db upgrade`" in result.output


def test_db_upgrade_then_check_by_cli(db_url: str) -> None:
    """``pbm db upgrade`` then ``pbm db check`` succeed on an empty database."""
    runner = CliRunner()
    assert runner.invoke(main, ["db", "upgrade", "--url", db_url]).exit_code == 0
    result = runner.invoke(main, ["db", "check", "--url", db_url])
    assert result.exit_code == 0, result.output
    assert "agree" in result.output


def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    """SQLite connections use WAL, a busy timeout and enforced foreign keys."""
    db_engine = make_db_engine(f"sqlite:///{tmp_path}/w.sqlite3")
    with db_engine.connect() as c:
        assert c.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert c.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert int(c.execute(text("PRAGMA busy_timeout")).scalar() or 0) >= 1000
    db_engine.dispose()


def test_a_sqlite_file_is_read_through_a_memory_map(tmp_path: Path) -> None:
    """A SQLite file's connections map it (``mmap_size``): the small columns read after a
    competition's megabyte of overflow pages are not copied in by ``read()`` page by page."""
    db_engine = make_db_engine(f"sqlite:///{tmp_path}/m.sqlite3")
    with db_engine.connect() as c:
        assert c.execute(text("PRAGMA mmap_size")).scalar() == SQLITE_MMAP_BYTES
    db_engine.dispose()


@pytest.mark.parametrize("url", ["postgresql://u:p@h/db", "postgresql+psycopg://u:p@h/db"])
def test_postgres_urls_use_psycopg3(url: str) -> None:
    """A plain postgresql:// URL is served by psycopg 3."""
    db_engine = make_db_engine(url)
    assert db_engine.dialect.driver == "psycopg"


def test_serve_refuses_an_unmigrated_database(tmp_path: Path) -> None:
    """``pbm serve`` on a database that was never upgraded says to run ``pbm db upgrade``."""
    from tests.pbm.conftest import config_data, toml_text

    data = config_data(f"sqlite:///{tmp_path}/new.sqlite3", tmp_path)
    path = tmp_path / "c.toml"
    path.write_text(toml_text(data))
    result = CliRunner().invoke(main, ["serve", "--config", str(path)])
    assert result.exit_code == os.EX_NOINPUT
    assert "pbm db upgrade" in result.output


def test_a_sender_is_looked_up_by_the_lower_case_address_index(db_url: str) -> None:
    """HELP's "does this sender play" compares ``lower(players.address)``: the migrations
    build an index on that expression, and SQLite's plan uses it rather than scanning."""
    from sqlalchemy import func, inspect, select

    from pbm.db.models import Player, Seat

    db_engine = make_db_engine(db_url)
    migrate.upgrade(db_engine)
    with db_engine.connect() as c:
        if db_engine.dialect.name == "sqlite":
            query = (
                select(Seat.id)
                .join(Player, Player.id == Seat.player_id)
                .where(func.lower(Player.address) == "ann@example.test")
            )
            sql = str(query.compile(db_engine, compile_kwargs={"literal_binds": True}))
            plan = " ".join(str(row[-1]) for row in c.execute(text("EXPLAIN QUERY PLAN " + sql)))
            assert "ix_players_address_lower" in plan, plan
        else:
            names = {i["name"] for i in inspect(c).get_indexes("players")}
            assert "ix_players_address_lower" in names
    db_engine.dispose()
