"""Fixtures for pbm's service tests: a config, an App on SQLite and on PostgreSQL, fakes."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import Config, parse_config
from pbm.daemon import Daemon
from pbm.db import migrate
from pbm.db.session import make_db_engine, transaction
from pbm.testing import RecordingSender

GM = "gm@example.test"
GM_SECRET = "gm-secret-horse-battery"
SECRET_KEY = "test-secret-key-0123456789abcdef"


def config_data(db_url: str, tmp_path: Path, **sections: dict[str, Any]) -> dict[str, Any]:
    """A complete config as TOML data; ``sections`` override whole tables."""
    data: dict[str, Any] = {
        "server": {"address": "pbm@example.test"},
        "database": {"url": db_url},
        "gm": {"address": GM, "secret": GM_SECRET},
        "security": {"secret_key": SECRET_KEY},  # the default (cheap) argon2 cost
        "smtp_listener": {"host": "127.0.0.1", "port": 0},
        "maildir": {"path": str(tmp_path / "outbox")},
        "scheduler": {"digest_hour": 23},
        "rate_limit": {"per_hour": 20},
        # The zine's PDF costs a Typst compile a stage; tests/zine covers it, the season
        # tests check that each stage's issue reaches its players.
        "zine": {"pdf": False},
    }
    data.update(sections)
    return data


@contextmanager
def a_writer_holds(app: App, seconds: float = 3.0) -> Iterator[None]:
    """Another transaction writes a row and stays open for ``seconds``, then rolls back: on
    SQLite it holds the write lock (BEGIN IMMEDIATE) as a pass handling a long mail does."""
    from pbm.db.models import InboundMail

    taken = threading.Event()

    def hold() -> None:
        with app.sessions() as s:
            s.add(
                InboundMail(
                    key="<held@example.test>",
                    door="smtp",
                    raw=b"x",
                    status="ignored",
                    received_at=app.clock.now(),
                    attempts=0,
                )
            )
            s.flush()
            taken.set()
            time.sleep(seconds)
            s.rollback()

    worker = threading.Thread(target=hold)
    worker.start()
    assert taken.wait(10)
    try:
        yield
    finally:
        worker.join(seconds + 30)


@contextmanager
def a_full_disk(app: App, spare_pages: int) -> Iterator[None]:
    """SQLite's disk (an App's database) fills after ``spare_pages`` more pages: each new
    connection gets a ``max_page_count``, so a write past it fails as a full disk does
    (SQLITE_FULL), for real. The pool is emptied on entry and on exit."""
    from sqlalchemy import event

    with app.db_engine.connect() as c:
        pages = int(c.exec_driver_sql("PRAGMA page_count").scalar() or 0)
    app.db_engine.dispose()

    def small_disk(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.execute(f"PRAGMA max_page_count={pages + spare_pages}")

    event.listen(app.db_engine, "connect", small_disk)
    try:
        yield
    finally:
        event.remove(app.db_engine, "connect", small_disk)
        app.db_engine.dispose()


def toml_text(data: dict[str, Any]) -> str:
    """``data`` (tables of scalars, as from :func:`config_data`) as TOML text."""
    lines: list[str] = []
    for section, values in data.items():
        lines.append(f"[{section}]")
        # JSON's strings, numbers and booleans are TOML's too.
        lines += [f"{key} = {json.dumps(value)}" for key, value in values.items()]
    return "\n".join(lines) + "\n"


def make_config(db_url: str, tmp_path: Path, **sections: dict[str, Any]) -> Config:
    """A parsed config for tests."""
    return parse_config(config_data(db_url, tmp_path, **sections), env={})


def fresh_pg_database(pg_url: str, template: str | None = None) -> str:
    """A new database on the session's PostgreSQL (empty, or a copy of ``template``)."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        copy = f' TEMPLATE "{template}"' if template else ""
        c.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    admin.dispose()
    return pg_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="session")
def pg_migrated_template(pg_url: str) -> str:
    """The name of a PostgreSQL database migrated to head, to copy per test (fast)."""
    url = fresh_pg_database(pg_url)
    db_engine = make_db_engine(url)
    migrate.upgrade(db_engine)
    db_engine.dispose()
    return url.rsplit("/", 1)[1]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: SQLite in tmp_path, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/pbm.sqlite3"
    return fresh_pg_database(request.getfixturevalue("pg_url"))


@pytest.fixture(scope="session")
def sqlite_migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once for the session, for each test to copy: a test's
    App then starts on the schema without running every migration again."""
    path = tmp_path_factory.mktemp("template") / "pbm.sqlite3"
    db_engine = make_db_engine(f"sqlite:///{path}")
    migrate.upgrade(db_engine)
    db_engine.dispose()
    return path


def migrated_sqlite(template: Path, target: Path) -> str:
    """The URL of ``target``, a copy of the migrated ``template`` (by SQLite's backup, so
    its write-ahead log comes along)."""
    src, dst = sqlite3.connect(template), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    return f"sqlite:///{target}"


@pytest.fixture(params=["sqlite", "postgresql"])
def app_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database for an App: a copy of the migrated SQLite or PostgreSQL one."""
    if request.param == "sqlite":
        template = request.getfixturevalue("sqlite_migrated_template")
        return migrated_sqlite(template, tmp_path / "pbm.sqlite3")
    template = request.getfixturevalue("pg_migrated_template")
    return fresh_pg_database(request.getfixturevalue("pg_url"), template)


@pytest.fixture
def clock() -> FixedClock:
    """A clock standing at 2026-01-01 09:00 UTC."""
    return FixedClock(datetime(2026, 1, 1, 9, 0, tzinfo=UTC))


@pytest.fixture
def config(app_db_url: str, tmp_path: Path) -> Config:
    """The test config on the parametrised database."""
    return make_config(app_db_url, tmp_path)


@pytest.fixture
def app(config: Config, clock: FixedClock) -> Iterator[App]:
    """An App on a copy of the migrated schema (no migration to run: it is at head)."""
    a = App.from_config(config, clock)
    yield a
    a.close()


@pytest.fixture
def sender() -> RecordingSender:
    """A sender that records what it sends."""
    return RecordingSender()


@pytest.fixture
def daemon(app: App, sender: RecordingSender) -> Daemon:
    """A daemon with no mailbox (mail comes by ``store``)."""
    return Daemon(app, sender)


@pytest.fixture
def demo(app: App, clock: FixedClock) -> str:
    """A 4-team t20 competition DEMO with a fixed seed; returns its code."""
    from pbm.games.flungo.competitions import create_competition

    with transaction(app.sessions) as s:
        create_competition(
            s,
            clock,
            code="DEMO",
            name="Demo Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
            seed="demo-seed",
        )
    return "DEMO"
