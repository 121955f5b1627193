"""The database engine and sessions.

SQLite (the default) runs in WAL mode with a busy timeout and foreign keys on, and every
transaction starts with ``BEGIN IMMEDIATE``: the SMTP listener's thread and the daemon write
concurrently, and a deferred transaction that reads then writes would fail at once with
``SQLITE_BUSY`` instead of waiting. PostgreSQL is chosen by URL and uses psycopg 3.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["SKIP_LOCKED", "is_postgres", "make_db_engine", "make_session_factory", "transaction"]

SQLITE_BUSY_TIMEOUT_MS = 15_000


def _normalise(url: str) -> str:
    # "postgresql://" would pick psycopg2, which pbm does not install.
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def make_db_engine(url: str, **kwargs: Any) -> Engine:
    """An SQLAlchemy engine for ``url`` with pbm's pragmas (SQLite) or psycopg (PostgreSQL)."""
    url = _normalise(url)
    if url.startswith("sqlite"):
        db_engine = create_engine(url, connect_args={"timeout": 15}, **kwargs)

        @event.listens_for(db_engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # Autocommit at the driver level, so BEGIN below is ours and pragmas run outside
            # any transaction (journal_mode cannot change inside one).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            if ":memory:" not in url and url not in ("sqlite://", "sqlite:///"):
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        @event.listens_for(db_engine, "begin")
        def _on_begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return db_engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


def make_session_factory(db_engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded objects usable after commit."""
    return sessionmaker(db_engine, expire_on_commit=False)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any exception."""
    with factory() as session, session.begin():
        yield session


#: A claim shared by several workers: ``FOR UPDATE SKIP LOCKED``, a row lock that another
#: worker skips rather than waits for (PostgreSQL). SQLite has one writer at a time
#: (``BEGIN IMMEDIATE``) and SQLAlchemy emits no FOR UPDATE there.
SKIP_LOCKED: dict[str, Any] = {"skip_locked": True}


def is_postgres(session: Session) -> bool:
    """Whether the session talks to PostgreSQL."""
    return session.get_bind().dialect.name == "postgresql"
