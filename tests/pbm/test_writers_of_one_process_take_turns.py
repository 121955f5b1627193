"""On SQLite the threads of one process take the write lock in turn (``pbm.db.turns``): a
thread that writes back to back cannot keep another waiting, a rolled-back transaction gives
its turn on at once, and a transaction that waits at most ``LOCK_WAIT_MS`` (a door) still
waits no longer."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from pbm.db.session import LOCK_WAIT_MS, is_busy, make_db_engine


@pytest.fixture
def db_engine(tmp_path: Path) -> Iterator[Engine]:
    db_engine = make_db_engine(f"sqlite:///{tmp_path}/turns.sqlite3")
    with db_engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (n INTEGER)")
    yield db_engine
    db_engine.dispose()


def _write(db_engine: Engine, hold: float = 0.0) -> None:
    with db_engine.begin() as conn:
        conn.execute(text("INSERT INTO t (n) VALUES (1)"))
        time.sleep(hold)


def test_a_thread_writing_back_to_back_does_not_starve_another(db_engine: Engine) -> None:
    """One thread commits a transaction every few milliseconds for three seconds, beginning
    the next at once; another thread's one write waits for one of them, not for all."""
    stop = threading.Event()

    def busy() -> None:
        end = time.monotonic() + 3.0
        while not stop.is_set() and time.monotonic() < end:
            _write(db_engine, hold=0.004)

    writer = threading.Thread(target=busy)
    writer.start()
    try:
        time.sleep(0.2)
        began = time.monotonic()
        _write(db_engine)
        waited = time.monotonic() - began
    finally:
        stop.set()
        writer.join(10)
    assert waited < 0.5


def test_a_rolled_back_transaction_gives_its_turn_on(db_engine: Engine) -> None:
    """A transaction that fails rolls back and the next writer goes at once, though the
    failing thread goes on (without a transaction) for a while."""
    failed = threading.Event()

    def fail_then_linger() -> None:
        try:
            with db_engine.begin() as conn:
                conn.execute(text("INSERT INTO t (n) VALUES (1)"))
                raise ValueError("the handler's bug")
        except ValueError:
            failed.set()
        time.sleep(2.0)

    other = threading.Thread(target=fail_then_linger)
    other.start()
    assert failed.wait(10)
    began = time.monotonic()
    _write(db_engine)
    assert time.monotonic() - began < 0.5
    other.join(10)


def test_a_short_lock_wait_still_ends_in_its_time(db_engine: Engine) -> None:
    """While another thread holds a long write transaction, a writer that waits at most
    300 ms (as the doors do, then spool) is told the database is locked after about that
    long: its wait for the turn and SQLite's own wait are not added up (that would be 0.6 s)."""
    held = threading.Event()

    def hold() -> None:
        with db_engine.begin() as conn:
            conn.execute(text("INSERT INTO t (n) VALUES (1)"))
            held.set()
            time.sleep(2.0)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    door = db_engine.execution_options(**{LOCK_WAIT_MS: 300})
    began = time.monotonic()
    with pytest.raises(OperationalError) as caught:
        _write(door)
    waited = time.monotonic() - began
    holder.join(10)
    assert is_busy(caught.value)
    assert 0.25 < waited < 0.55
    _write(door)  # once free, the door's next write goes through at once
