"""Several workers on one PostgreSQL: each mail handled once, each reply queued and sent once.

Each worker is a thread with its own :class:`~pbm.app.App` (its own engine and connection
pool), as separate ``pbm serve`` processes would be; they start together on a barrier.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, MailStatus, OutboxMessage, Seat
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.testing import RecordingSender, make_eml
from tests.pbm.conftest import fresh_pg_database, make_config

CLOCK = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


def _apps(url: str, tmp_path: Path, n: int) -> list[App]:
    config = make_config(url, tmp_path, rate_limit={"per_hour": 1000})
    first = App.from_config(config, FixedClock(CLOCK), upgrade=True)
    return [first] + [App.from_config(config, FixedClock(CLOCK)) for _ in range(n - 1)]


def _together(workers: list[Callable[[], None]]) -> None:
    """Run the callables at once in threads; re-raise the first error."""
    barrier = threading.Barrier(len(workers))
    errors: list[BaseException] = []

    def run(fn: Callable[[], None]) -> None:
        barrier.wait()
        try:
            fn()
        except BaseException as exc:  # reported to the test below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(fn,)) for fn in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors


@pytest.mark.parametrize("workers", [2, 4])
def test_a_burst_is_drained_by_several_workers_once(
    pg_url: str, tmp_path: Path, workers: int
) -> None:
    """A burst of JOINs and stray mails stored at once, drained by several daemons' passes:
    every mail handled exactly once (none left, none shunted), one reply queued per mail and
    sent once, the seats numbered 1..N with no duplicate, and the work spread."""
    apps = _apps(fresh_pg_database(pg_url), tmp_path, workers)
    joins, strays = 30, 20
    with transaction(apps[0].sessions) as s:
        create_competition(
            s,
            apps[0].clock,
            code="BIG",
            name="Big Cup",
            fmt="t20",
            teams=joins,
            naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
            seed="big",
        )
    raws = [
        make_eml("JOIN\n", sender=f"p{i}@example.test", subject="[BIG] join") for i in range(joins)
    ]
    raws += [make_eml("HELP\n", sender=f"h{i}@example.test", subject="help") for i in range(strays)]
    stored = apps[0].inbound.store_many(raws, "imap")
    assert all(st.created for st in stored)
    senders = [RecordingSender() for _ in apps]
    daemons = [Daemon(a, snd) for a, snd in zip(apps, senders, strict=True)]
    done: Counter[int] = Counter()

    def drain(i: int) -> Callable[[], None]:
        def go() -> None:
            while daemons[i].run_once().busy:
                done[i] += 1

        return go

    _together([drain(i) for i in range(workers)])
    with transaction(apps[0].sessions) as s:
        statuses = Counter(s.scalars(select(InboundMail.status)))
        per_mail = Counter(s.scalars(select(OutboxMessage.inbound_id)))
        outbox = Counter(s.scalars(select(OutboxMessage.status)))
        numbers = sorted(s.scalars(select(Seat.number)))
        players = s.scalar(select(func.count(func.distinct(Seat.player_id))))
    assert statuses[MailStatus.RECEIVED] == 0 and statuses[MailStatus.SHUNTED] == 0, statuses
    assert sum(statuses.values()) == joins + strays
    assert sorted(per_mail) == sorted(st.id for st in stored)  # a reply for each mail...
    assert set(per_mail.values()) == {1}  # ...and only one
    assert outbox == {"sent": joins + strays}
    sent_ids = [str(m["Message-ID"]) for snd in senders for m in snd.sent]
    assert len(sent_ids) == len(set(sent_ids)) == joins + strays  # each row sent once
    assert numbers == list(range(1, joins + 1)) and players == joins
    assert sum(1 for snd in senders if snd.sent) >= 2, [len(snd.sent) for snd in senders]
    for a in apps:
        a.close()


def test_an_outbox_is_drained_by_several_workers_once(pg_url: str, tmp_path: Path) -> None:
    """Pending outbox rows flushed by three workers at once: each row sent exactly once,
    all marked sent, and more than one worker sent some."""
    apps = _apps(fresh_pg_database(pg_url), tmp_path, 3)
    from pbm.outbound.replies import queue_mail

    with transaction(apps[0].sessions) as s:
        for i in range(60):
            queue_mail(
                s,
                apps[0].config,
                apps[0].clock,
                kind="gm-alert",
                to=f"r{i}@example.test",
                ctx={"mail_id": i, "sender": "x", "subject": "s", "error": "e"},
                reply_to=None,
            )
    senders = [RecordingSender() for _ in apps]
    outboxes = [a.outbox(snd) for a, snd in zip(apps, senders, strict=True)]
    _together([lambda o=o: (o.flush(), None)[1] for o in outboxes])
    with transaction(apps[0].sessions) as s:
        assert Counter(s.scalars(select(OutboxMessage.status))) == {"sent": 60}
    recipients = [str(m["To"]) for snd in senders for m in snd.sent]
    assert len(recipients) == len(set(recipients)) == 60
    assert sum(1 for snd in senders if snd.sent) >= 2, [len(snd.sent) for snd in senders]
    for a in apps:
        a.close()


def test_a_dead_workers_claim_is_skipped_then_taken_over(pg_url: str, tmp_path: Path) -> None:
    """A mail claimed by a worker that hangs mid-transaction is skipped at once by another
    (not waited for); once that worker dies (its backend ends), the next pass handles the mail,
    once, with one reply."""
    from sqlalchemy import text

    [app] = _apps(fresh_pg_database(pg_url), tmp_path, 1)
    stored = app.inbound.store(make_eml("HELP\n", subject="help"), "smtp")
    hung = app.db_engine.connect()
    hung.execute(text("SELECT id FROM inbound_mail WHERE id = :i FOR UPDATE"), {"i": stored.id})
    pid = hung.execute(text("SELECT pg_backend_pid()")).scalar_one()
    t = time.perf_counter()
    assert app.inbound.process(stored.id) is None  # skipped: another worker holds it
    assert time.perf_counter() - t < 5
    with app.db_engine.connect() as admin:  # the worker dies: PostgreSQL ends its backend
        # With a timeout it returns once the backend is gone, not when it was only signalled.
        admin.execute(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": pid})
    hung.invalidate()
    assert app.inbound.process(stored.id) == MailStatus.APPLIED
    assert app.inbound.process(stored.id) is None  # handled: never twice
    with transaction(app.sessions) as s:
        assert list(s.scalars(select(OutboxMessage.inbound_id))) == [stored.id]
    app.close()


def _one_competition_joined(app: App, seats: int) -> list[tuple[str, str]]:
    """A competition BIG with ``seats`` players joined; (address, secret) of each seat."""
    with transaction(app.sessions) as s:
        create_competition(
            s,
            app.clock,
            code="BIG",
            name="Big Cup",
            fmt="t20",
            teams=seats,
            naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
            seed="big",
        )
    joins = [
        make_eml("JOIN\n", sender=f"p{i}@example.test", subject="[BIG] join") for i in range(seats)
    ]
    for st in app.inbound.store_many(joins, "imap"):
        assert app.inbound.process(st.id) == MailStatus.APPLIED
    with transaction(app.sessions) as s:
        rows = s.execute(select(Seat.id, Seat.secret_version).order_by(Seat.number)).all()
    return [
        (f"p{i}@example.test", app.box.derive(seat_id, version))
        for i, (seat_id, version) in enumerate(rows)
    ]


def _naming(address: str, secret: str, team: str) -> bytes:
    return make_eml(f"SECRET {secret}\nTEAM NAME {team}\n", sender=address, subject="[BIG] names")


def test_one_competitions_naming_is_drained_by_two_workers(pg_url: str, tmp_path: Path) -> None:
    """Naming mail of one competition (seat mail takes the competition's lock shared) drained
    by two workers claiming with process_next: every mail applied once with one reply, each
    seat's naming versions numbered 1..k with no gap or duplicate (two mails from some seats),
    and both workers handled some."""
    from pbm.db.models import NamingVersion

    apps = _apps(fresh_pg_database(pg_url), tmp_path, 2)
    seats = _one_competition_joined(apps[0], 12)
    raws = [_naming(a, sec, f"Team {i}") for i, (a, sec) in enumerate(seats)]
    raws += [_naming(a, sec, f"Again {i}") for i, (a, sec) in enumerate(seats[:4])]
    stored = apps[0].inbound.store_many(raws, "imap")
    done: Counter[int] = Counter()

    def drain(i: int) -> Callable[[], None]:
        def go() -> None:
            after = 0
            while (got := apps[i].inbound.process_next(after)) is not None:
                assert got[1] == MailStatus.APPLIED, got
                after = got[0]
                done[i] += 1

        return go

    _together([drain(0), drain(1)])
    assert sum(done.values()) == len(raws) and min(done.values()) >= 1, done
    with transaction(apps[0].sessions) as s:
        ids = {st.id for st in stored}
        statuses = Counter(s.scalars(select(InboundMail.status).where(InboundMail.id.in_(ids))))
        replies = Counter(
            s.scalars(select(OutboxMessage.inbound_id).where(OutboxMessage.inbound_id.in_(ids)))
        )
        versions: dict[int, list[int]] = {}
        for seat_id, version in s.execute(
            select(NamingVersion.seat_id, NamingVersion.version).order_by(NamingVersion.version)
        ):
            versions.setdefault(seat_id, []).append(version)
        current = dict(s.execute(select(Seat.id, Seat.naming_version)).all())
    assert statuses == {MailStatus.APPLIED: len(raws)}, statuses
    assert set(replies) == ids and set(replies.values()) == {1}
    assert sorted(len(v) for v in versions.values()) == [1] * 8 + [2] * 4
    assert all(v == list(range(1, len(v) + 1)) for v in versions.values()), versions
    assert all(current[seat] == v[-1] for seat, v in versions.items())
    for a in apps:
        a.close()


def test_seat_mail_shares_the_competition_but_waits_for_a_turn_step(
    pg_url: str, tmp_path: Path
) -> None:
    """While another seat's mail holds the competition's row shared, a naming mail is handled
    at once; while a turn step holds it (FOR UPDATE), the mail waits and is handled after."""
    from sqlalchemy import text

    [app] = _apps(fresh_pg_database(pg_url), tmp_path, 1)
    (a1, s1), (a2, s2) = _one_competition_joined(app, 2)
    first = app.inbound.store(_naming(a1, s1, "Shared"), "smtp")
    second = app.inbound.store(_naming(a2, s2, "Waited"), "smtp")
    lock = "SELECT id FROM competitions WHERE code = 'BIG' FOR "
    with app.db_engine.connect() as other:
        other.execute(text(lock + "SHARE"))
        shared: list[MailStatus | None] = []
        worker = threading.Thread(target=lambda: shared.append(app.inbound.process(first.id)))
        worker.start()
        worker.join(10)
        done_while_shared = not worker.is_alive()
        other.rollback()  # frees a worker that waited (it must not have)
        worker.join(30)
        assert done_while_shared and shared == [MailStatus.APPLIED]
        other.execute(text(lock + "UPDATE"))
        result: list[MailStatus | None] = []
        worker = threading.Thread(target=lambda: result.append(app.inbound.process(second.id)))
        worker.start()
        worker.join(1.0)
        assert worker.is_alive() and not result  # waiting for the step's lock
        other.rollback()
        worker.join(30)
    assert result == [MailStatus.APPLIED]
    app.close()
