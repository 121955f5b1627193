"""The intake's hot path: claims of the next pending mail, the rate counter's upsert, and the
cached competition codes (on SQLite and PostgreSQL alike)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.db.models import InboundMail, MailStatus, RateCounter
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.inbound.ratelimit import count_mail
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
