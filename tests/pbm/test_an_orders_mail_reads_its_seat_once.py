"""An orders mail reads what it needs of its seat (the seat and its player, the standing
orders, whether a flag is open, the competition's stages) in one statement on SQLite, where
the transaction holds the write lock before it reads; on PostgreSQL the standing orders are
read after the seat's lock, so a version another mail of the seat just stored is seen. A
flag is closed by a statement only when one is open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from pbm.daemon import Daemon
from pbm.testing import RecordingSender
from tests.pbm.helpers import join, say


@contextmanager
def statements(daemon: Daemon) -> Iterator[list[str]]:
    """The SQL the block runs, one line each."""
    seen: list[str] = []

    def log(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(daemon.app.db_engine, "before_cursor_execute", log)
    try:
        yield seen
    finally:
        event.remove(daemon.app.db_engine, "before_cursor_execute", log)


def test_the_seat_is_read_once_and_no_flag_is_closed_unasked(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The second orders mail of a seat is answered with version 2 (its read saw the first
    mail's version); on SQLite the seat, its orders, its flags and the stages came in the
    one SELECT of the seat, and no UPDATE of flags ran, none being open."""
    secret = join(daemon, sender, "player1@example.test")
    [first] = say(daemon, sender, f"SECRET {secret}\ntoss: bat\n")
    assert "Orders received (version 1)" in str(first["Subject"])
    with statements(daemon) as seen:
        [second] = say(daemon, sender, f"SECRET {secret}\ntoss: bowl\nif we win the toss, bat\n")
    assert "Orders received (version 2)" in str(second["Subject"])
    seat_reads = [s for s in seen if s.startswith("SELECT") and "FROM seats" in s]
    orders_reads = [s for s in seen if s.startswith("SELECT") and "FROM orders_versions" in s]
    # the stage open and the one done before (the scheduler's own pass reads turns too)
    stage_reads = [s for s in seen if s.startswith("SELECT") and "turns.position DESC" in s]
    if daemon.app.db_engine.dialect.name == "sqlite":
        [seat] = seat_reads
        assert "orders_versions" in seat and "flags" in seat and "turns" in seat
        assert orders_reads == [seat] and stage_reads == [seat]
        assert not any(s.startswith("UPDATE flags") for s in seen)
    else:
        [seat] = [s for s in seat_reads if "FOR NO KEY UPDATE" in s]
        [standing] = [s for s in orders_reads if s != seat]
        assert seen.index(standing) > seen.index(seat)  # after the lock, not joined to it
