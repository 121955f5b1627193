"""The intake's hot path: claims of the next pending mail, the rate counter's upsert, and the
cached competition codes (on SQLite and PostgreSQL alike)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import StatementError

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.types import NaiveDatetimeError
from pbm.db.models import InboundMail, MailStatus, RateCounter
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.inbound.ratelimit import count_mail, count_mails
from pbm.testing import make_eml


def test_process_next_takes_the_oldest_pending_within_its_bounds(app: App) -> None:
    """process_next handles the oldest pending mail above ``after`` and at most ``upto``,
    returns its id and status, skips mail already handled, and returns None when none is left
    in the bounds."""
    ids = [st.id for st in app.inbound.store_many([make_eml("HELP\n") for _ in range(4)], "imap")]
    assert app.inbound.process(ids[1]) == MailStatus.APPLIED
    assert app.inbound.process_next(upto=ids[0]) == (ids[0], MailStatus.APPLIED)
    assert app.inbound.process_next(upto=ids[1]) is None  # ids[1] was handled already
    assert app.inbound.process_next(after=ids[2]) == (ids[3], MailStatus.APPLIED)
    assert app.inbound.process_next() == (ids[2], MailStatus.APPLIED)
    assert app.inbound.process_next() is None
    with transaction(app.sessions) as s:
        assert set(s.scalars(select(InboundMail.status))) == {MailStatus.APPLIED}


def test_the_rate_counter_counts_per_sender_per_hour(app: App) -> None:
    """count_mail's upsert counts 1, 2, 3 for one sender in one hour, starts again at 1 for
    another sender and for the next hour, and keeps one row per sender and hour."""
    now = datetime(2026, 1, 1, 9, 10, tzinfo=UTC)
    with transaction(app.sessions) as s:
        assert [count_mail(s, "a@example.test", now) for _ in range(3)] == [1, 2, 3]
        assert count_mail(s, "b@example.test", now) == 1
        assert count_mail(s, "a@example.test", now + timedelta(hours=1)) == 1
    with transaction(app.sessions) as s:
        assert count_mail(s, "a@example.test", now + timedelta(minutes=40)) == 4
        rows = sorted(s.execute(select(RateCounter.sender, RateCounter.count)).all())
    assert rows == [("a@example.test", 1), ("a@example.test", 4), ("b@example.test", 1)]


def test_a_competition_created_since_the_codes_were_read_is_routed(
    app: App, clock: FixedClock
) -> None:
    """The competition codes are read once per process; a code created afterwards (as by
    another process) is not called unknown: the JOIN for it takes a seat."""
    assert app.inbound.process(app.inbound.store(make_eml("HELP\n"), "smtp").id) is not None
    with transaction(app.sessions) as s:
        create_competition(
            s,
            clock,
            code="LATE",
            name="Late Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2026, 2, 1, tzinfo=UTC),
        )
    late = app.inbound.store(make_eml("JOIN\n", subject="[LATE] join"), "smtp")
    assert app.inbound.process(late.id) == MailStatus.APPLIED
    with transaction(app.sessions) as s:
        mail = s.get(InboundMail, late.id)
        assert mail is not None and mail.note == "joined seat 1" and mail.competition_id


def test_a_naming_mail_checks_its_secret_with_argon2_once(app: App, demo: str) -> None:
    """The rate limit and the handler both check a seat mail's secret: argon2 verifies it
    once per message, and the mail is applied; a second mail is checked again (once)."""
    from argon2 import PasswordHasher

    from pbm.db.models import Seat

    class Counting(PasswordHasher):
        calls = 0

        def verify(self, hash: str | bytes, password: str | bytes) -> bool:
            Counting.calls += 1
            return super().verify(hash, password)

    join = app.inbound.store(make_eml("JOIN\n", subject=f"[{demo}] join"), "smtp")
    assert app.inbound.process(join.id) == MailStatus.APPLIED
    with transaction(app.sessions) as s:
        seat = s.scalars(select(Seat)).one()
        secret = app.box.derive(seat.id, seat.secret_version)
    real = app.box._hasher
    app.box._hasher = Counting(
        time_cost=real.time_cost, memory_cost=real.memory_cost, parallelism=real.parallelism
    )
    for team in ("Owls", "Larks"):
        body = f"SECRET {secret}\nTEAM NAME {team}\n"
        mail = app.inbound.store(make_eml(body, subject=f"[{demo}] names"), "smtp")
        before = Counting.calls
        assert app.inbound.process(mail.id) == MailStatus.APPLIED
        assert Counting.calls - before == 1


def test_an_unproven_mail_is_counted_in_both_buckets_by_one_statement(app: App) -> None:
    """count_mails counts the address's and the domain's bucket in ONE statement (an upsert
    of two rows) and says each one's count, whatever order the rows come back in; the counts
    go on from there, per bucket, as count_mail's do."""
    now = datetime(2026, 1, 1, 9, 10, tzinfo=UTC)
    buckets = ["?a@club.test", "?@club.test"]
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(statement)

    with transaction(app.sessions) as s:
        assert count_mail(s, "?@club.test", now) == 1  # the domain had one mail already
        event.listen(app.db_engine, "before_cursor_execute", seen)
        try:
            assert count_mails(s, buckets, now) == {"?a@club.test": 1, "?@club.test": 2}
            assert count_mails(s, buckets[::-1], now) == {"?a@club.test": 2, "?@club.test": 3}
        finally:
            event.remove(app.db_engine, "before_cursor_execute", seen)
    assert len(statements) == 2 and all("rate_counters" in st for st in statements)


def test_the_one_statement_upsert_refuses_a_naive_window(app: App) -> None:
    """The two rows' window goes through the column's aware-UTC type like any write of it:
    a naive time is refused, not stored as some zone's wall time."""
    with pytest.raises(StatementError) as err, transaction(app.sessions) as s:
        count_mails(s, ["?a@club.test", "?@club.test"], datetime(2026, 1, 1, 9, 10))
    assert isinstance(err.value.orig, NaiveDatetimeError)


def test_a_join_reads_its_seat_and_the_seats_taken_in_one_statement(app: App, demo: str) -> None:
    """A JOIN from a new address takes the next seat, and one from an address that has a
    seat is told so, each reading the address's seat and the seats taken in one query (it
    finds a row whether or not the address has a player)."""
    from pbm.db.models import Seat

    first = app.inbound.store(make_eml("JOIN\n", subject=f"[{demo}] join"), "smtp")
    assert app.inbound.process(first.id) == MailStatus.APPLIED
    other = make_eml("JOIN\n", subject=f"[{demo}] join", sender="other@example.test")
    second = app.inbound.store(other, "smtp")
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(statement)

    event.listen(app.db_engine, "before_cursor_execute", seen)
    try:
        assert app.inbound.process(second.id) == MailStatus.APPLIED
    finally:
        event.remove(app.db_engine, "before_cursor_execute", seen)
    again = app.inbound.store(make_eml("JOIN\n", subject=f"[{demo}] join again"), "smtp")
    assert app.inbound.process(again.id) == MailStatus.REJECTED
    with transaction(app.sessions) as s:
        assert sorted(s.scalars(select(Seat.number))) == [1, 2]
        assert s.get(InboundMail, again.id).note == "join already"  # type: ignore[union-attr]
    counting = [st for st in statements if "count(*)" in st]
    assert len(counting) == 1 and "players" in counting[0]
