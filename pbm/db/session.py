"""The database engine and sessions.

SQLite (the default) runs in WAL mode with a busy timeout and foreign keys on, and every
transaction starts with ``BEGIN IMMEDIATE``: the SMTP listener's thread and the daemon write
concurrently, and a deferred transaction that reads then writes would fail at once with
``SQLITE_BUSY`` instead of waiting. PostgreSQL is chosen by URL and uses psycopg 3, with
a ping at checkout for a connection that sat idle (one the server dropped, e.g. across a
restart, is replaced) and a bounded connect.

:func:`transaction` is the edge where a lost database becomes
:class:`~pbm.core.errors.DatabaseUnavailable`: the connection dropped mid-transaction
(``pg_terminate_backend``, a restart) or the server does not answer. The unit of work rolled
back; callers retry it later instead of treating it as the work's own failure.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.errors import ConfigError, DatabaseUnavailable
from pbm.db.kept import Kept
from pbm.db.turns import WriteTurns

__all__ = [
    "LOCK_WAIT_MS",
    "READ_ONLY",
    "SKIP_LOCKED",
    "batch",
    "is_busy",
    "is_db_outage",
    "is_postgres",
    "make_db_engine",
    "make_session_factory",
    "transaction",
]

SQLITE_BUSY_TIMEOUT_MS = 15_000
#: How much of a SQLite file its connections read through a memory map, not ``read()``: a
#: competition's row holds its state and season (over a megabyte for a 64-team league) in
#: overflow pages, and reading the small columns after them walks that chain, page by page
#: into a page cache that does not keep them between mails; mapped, the walk costs a fifth
#: (bench/RESULTS.md, "The hot path without ORM objects"). Address space, not memory.
SQLITE_MMAP_BYTES = 256 * 1024 * 1024
#: An engine's execution option (SQLite): how long a transaction waits for the write lock, in
#: milliseconds, instead of ``SQLITE_BUSY_TIMEOUT_MS``. The doors that must answer at once take
#: it short (``db_engine.execution_options(**{LOCK_WAIT_MS: 250})``) and spool what cannot wait.
LOCK_WAIT_MS = "pbm_lock_wait_ms"
#: An engine's execution option (SQLite): its transactions only read, so they begin deferred
#: and never wait for the write lock (in WAL mode a reader does not wait for a writer): the
#: CLI's readiness check and ``pbm status`` answer while a pass holds the lock.
READ_ONLY = "pbm_read_only"
#: Seconds to wait for PostgreSQL to accept a connection: a host that drops packets must not
#: hold the daemon for the kernel's TCP timeout (minutes).
PG_CONNECT_TIMEOUT = 10
#: Seconds a pooled PostgreSQL connection may sit idle and still be handed out unpinged.
PG_PING_IDLE = 1.0
_IDLE_SINCE = "pbm_idle_since"


def _normalise(url: str) -> str:
    # "postgresql://" would pick psycopg2, which pbm does not install.
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def _require_psycopg() -> None:
    # The driver is an extra (most installations run on SQLite): say how to get it, rather
    # than let SQLAlchemy's ModuleNotFoundError reach the operator as a traceback.
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise ConfigError(
            "database.url",
            "PostgreSQL needs its driver, which is an extra: pip install 'pbm[postgres]'",
        ) from None


def make_db_engine(url: str, **kwargs: Any) -> Engine:
    """An SQLAlchemy engine for ``url`` with pbm's pragmas (SQLite) or psycopg (PostgreSQL)."""
    url = _normalise(url)
    if url.startswith("sqlite"):
        db_engine = create_engine(url, connect_args={"timeout": 15}, **kwargs)
        # This process's writers queue for SQLite's lock in turn (pbm.db.turns); option
        # engines share the pool, hence the turns.
        turns = WriteTurns()

        @event.listens_for(db_engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # Autocommit at the driver level, so BEGIN below is ours and pragmas run outside
            # any transaction (journal_mode cannot change inside one).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            if ":memory:" not in url and url not in ("sqlite://", "sqlite:///"):
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA mmap_size={SQLITE_MMAP_BYTES}")
            cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()
            _record.info[LOCK_WAIT_MS] = SQLITE_BUSY_TIMEOUT_MS

        @event.listens_for(db_engine, "begin")
        def _on_begin(conn: Any) -> None:
            # A pooled connection keeps its busy timeout: set it only when this engine (or an
            # option engine sharing its pool) wants another one.
            wait = conn.get_execution_options().get(LOCK_WAIT_MS, SQLITE_BUSY_TIMEOUT_MS)
            if conn.info.get(LOCK_WAIT_MS) != wait:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={int(wait)}")
                conn.info[LOCK_WAIT_MS] = wait
            if conn.get_execution_options().get(READ_ONLY, False):
                conn.exec_driver_sql("BEGIN")
                return
            dbapi = conn.connection.dbapi_connection
            if not turns.take(dbapi, wait / 1000):
                # No turn within the wait: the lock is this process's other writer's, so
                # SQLite's own wait would only wait as long again.
                conn.exec_driver_sql("PRAGMA busy_timeout=0")
                conn.info[LOCK_WAIT_MS] = 0
            try:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            except BaseException:
                turns.give_back(dbapi)
                raise

        @event.listens_for(db_engine, "commit")
        @event.listens_for(db_engine, "rollback")
        def _on_end(conn: Any) -> None:
            # Just before the COMMIT or ROLLBACK: the next writer's BEGIN IMMEDIATE may find
            # it still running, and SQLite's busy handler waits for it (a millisecond).
            if not conn.invalidated:  # else the pool's "invalidate" gives it back
                turns.give_back(conn.connection.dbapi_connection)

        @event.listens_for(db_engine.pool, "checkin")
        @event.listens_for(db_engine.pool, "invalidate")
        def _on_gone(dbapi_conn: Any, *_args: Any) -> None:
            turns.give_back(dbapi_conn)  # a transaction that ended without either

        return db_engine
    if url.startswith("postgresql"):
        _require_psycopg()
    connect_args = {"connect_timeout": PG_CONNECT_TIMEOUT, **kwargs.pop("connect_args", {})}
    db_engine = create_engine(url, connect_args=connect_args, **kwargs)
    _ping_when_idle(db_engine)
    return db_engine


def _ping_when_idle(db_engine: Engine) -> None:
    """``pool_pre_ping``, but only for a connection that sat in the pool ``PG_PING_IDLE``
    seconds or more: a restart or a killed backend drops idle connections, while one handed
    back a moment ago is as likely dropped as one in use, which the outage path already
    covers (:class:`DatabaseUnavailable`, the unit retried). A burst of mails, a transaction
    each, then pays no ``SELECT 1`` round trip a mail."""
    dialect = db_engine.dialect

    @event.listens_for(db_engine.pool, "checkin")
    def _back(_dbapi_conn: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(db_engine.pool, "checkout")
    def _out(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since < PG_PING_IDLE:
            return  # new (just connected), or back a moment ago
        try:
            dialect.do_ping(dbapi_conn)
        except dialect.loaded_dbapi.Error as exc:
            if dialect.is_disconnect(exc, dbapi_conn, None):
                # The pool replaces it with a fresh connection (and retries the checkout).
                raise DisconnectionError(_first_line_of(exc)) from exc
            raise


def make_session_factory(db_engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded objects usable after commit, and share one
    :class:`~pbm.db.kept.Kept` (what is derived from stored rows lives as long as the
    factory, and no longer: never across databases)."""
    return sessionmaker(db_engine, expire_on_commit=False, info={"kept": Kept()})


@contextmanager
def transaction(
    factory: sessionmaker[Session], within: Connection | None = None
) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any exception.

    ``within`` a :func:`batch`'s connection, the unit joins the batch's transaction: its
    commit only flushes (durable when the batch commits), and its rollback rolls back the
    whole batch. A lost database raises :class:`~pbm.core.errors.DatabaseUnavailable` (see
    the module doc)."""
    kw: dict[str, Any] = {}
    if within is not None:
        kw = {"bind": within, "join_transaction_mode": "rollback_only"}
    with _outage(factory), factory(**kw) as session, session.begin():
        yield session


@contextmanager
def batch(factory: sessionmaker[Session]) -> Iterator[Connection]:
    """One transaction on one connection of ``factory``'s engine, shared by the units of
    work run ``within`` it (:func:`transaction`): committed once at the end, so many units
    pay one commit, and rolled back whole on any exception (in a unit or here).

    Not a savepoint a unit: SQLAlchemy's SAVEPOINT and RELEASE around a session cost more
    than the BEGIN and COMMIT they would save (bench/RESULTS.md, "A pass's mails, one
    commit"); the caller that must keep one unit's failure apart does it again alone."""
    bind = factory.kw.get("bind")
    assert isinstance(bind, Engine), "a batch needs a session factory bound to an engine"
    with _outage(factory), bind.connect() as conn, conn.begin():
        yield conn


@contextmanager
def _outage(factory: sessionmaker[Session]) -> Iterator[None]:
    try:
        yield
    except DBAPIError as exc:
        bind = factory.kw.get("bind")
        dialect = bind.dialect.name if isinstance(bind, Engine) else ""
        if is_db_outage(exc, dialect):
            raise DatabaseUnavailable(_first_line(exc)) from exc
        raise


def is_db_outage(exc: BaseException, dialect: str = "postgresql") -> bool:
    """Whether ``exc`` means the database went away (not that the statement was wrong).

    SQLAlchemy flags a dropped connection as ``connection_invalidated``; on PostgreSQL every
    OperationalError or InterfaceError is the server or the link (refused, restarting,
    terminated), never the statement. SQLite's OperationalError can be a wrong statement,
    so there only an invalidated connection counts."""
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    return dialect == "postgresql" and isinstance(exc, OperationalError | InterfaceError)


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's "database is locked": the write lock was not free within the
    connection's busy timeout (another transaction holds it), not a fault of the statement."""
    if not isinstance(exc, OperationalError):
        return False
    code = getattr(exc.orig, "sqlite_errorcode", None)
    if code is not None:
        return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "database is locked" in str(exc.orig)


def _first_line(exc: DBAPIError) -> str:
    return _first_line_of(exc.orig if exc.orig is not None else exc)


def _first_line_of(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


#: A claim shared by several workers: ``FOR UPDATE SKIP LOCKED``, a row lock that another
#: worker skips rather than waits for (PostgreSQL). SQLite has one writer at a time
#: (``BEGIN IMMEDIATE``) and SQLAlchemy emits no FOR UPDATE there.
SKIP_LOCKED: dict[str, Any] = {"skip_locked": True}


def is_postgres(session: Session) -> bool:
    """Whether the session talks to PostgreSQL."""
    return session.get_bind().dialect.name == "postgresql"
