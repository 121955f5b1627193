"""PostgreSQL's pool pings a connection at checkout only when it sat idle: a burst of
transactions pays no ``SELECT 1`` each, and a connection the server dropped while it idled
is still replaced before a transaction sees it (pbm.db.session._ping_when_idle)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, text

from pbm.db import session as db_session
from pbm.db.session import make_db_engine


@pytest.fixture
def pg_engine(pg_url: str) -> Iterator[Engine]:
    db_engine = make_db_engine(pg_url, pool_size=1, max_overflow=0)
    yield db_engine
    db_engine.dispose()


def _count_pings(db_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    pings = [0]
    real = db_engine.dialect.do_ping

    def counted(dbapi_conn: Any) -> bool:
        pings[0] += 1
        return real(dbapi_conn)

    monkeypatch.setattr(db_engine.dialect, "do_ping", counted)
    return pings


def _backend(db_engine: Engine) -> int:
    with db_engine.connect() as c:
        return int(c.execute(text("SELECT pg_backend_pid()")).scalar_one())


def test_a_burst_of_transactions_sends_no_ping(
    pg_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty transactions in a row on one pooled connection ping it not once."""
    pings = _count_pings(pg_engine, monkeypatch)
    for _ in range(50):
        with pg_engine.begin() as c:
            c.execute(text("SELECT 1"))
    assert pings[0] == 0


def test_a_connection_dropped_while_idle_is_replaced_unseen(
    pg_engine: Engine, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server kills the pooled connection while it idles past the threshold: the next
    transaction is pinged, finds it gone, and runs on a fresh backend without an error."""
    monkeypatch.setattr(db_session, "PG_PING_IDLE", 0.05)
    pings = _count_pings(pg_engine, monkeypatch)
    before = _backend(pg_engine)
    admin = make_db_engine(pg_url)
    with admin.begin() as c:
        assert c.execute(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": before}).scalar()
    admin.dispose()
    time.sleep(0.1)
    after = _backend(pg_engine)
    assert after != before
    assert pings[0] >= 1


def test_a_connection_back_a_moment_ago_is_not_pinged(
    pg_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the threshold no ping is sent; past it, one is (the same connection, kept)."""
    monkeypatch.setattr(db_session, "PG_PING_IDLE", 0.2)
    pings = _count_pings(pg_engine, monkeypatch)
    first = _backend(pg_engine)
    assert _backend(pg_engine) == first
    assert pings[0] == 0
    time.sleep(0.3)
    assert _backend(pg_engine) == first
    assert pings[0] == 1
