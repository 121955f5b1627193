"""A courier that falls behind (a slow relay, a backlog) never sends a reply twice: it holds at
most ``HAND_ROWS`` answers at a time, so the next mails' answers stay due for its own flush
or another worker, and an answer whose lease ran out while it waited in its queue, and was
claimed again meanwhile, is not sent by that stale claim (V3 finding 1), nor freed by its
give-back while the new claim sends it (V4 finding 2)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from email.message import EmailMessage

from sqlalchemy import select, update

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import OutboxMessage
from pbm.db.session import transaction
from pbm.outbound.courier import HAND_ROWS
from pbm.outbound.outbox import Claimed
from pbm.testing import RecordingSender, make_eml
from tests.integration.pbm_proc import wait_until

#: An upper bound only: every wait ends as soon as its condition holds.
PATIENCE = 30.0


def _join(app: App, n: int) -> None:
    """Player ``n``'s JOIN, stored and handled: its answer is queued in the outbox."""
    app.inbound.store(
        make_eml("JOIN\n", sender=f"p{n}@example.test", subject="[DEMO] join"), "smtp"
    )
    assert app.inbound.process_next(0) is not None


def _statuses(app: App) -> list[str]:
    with transaction(app.sessions) as s:
        return [str(x) for x in s.scalars(select(OutboxMessage.status).order_by(OutboxMessage.id))]


@contextmanager
def _courier_held_up(d: Daemon, sender: RecordingSender) -> Iterator[threading.Event]:
    """The courier's thread, held by a slow relay in its send of a bulk mail (player 0's
    reply, made a digest here so that no pass claims it) until the event given is set."""
    app = d.app
    _join(app, 0)
    with transaction(app.sessions) as s:
        s.execute(
            update(OutboxMessage)
            .where(OutboxMessage.to_addr == "p0@example.test")
            .values(kind="digest")
        )
    in_send, gate = threading.Event(), threading.Event()

    def slow_relay(_message: EmailMessage) -> None:
        if not in_send.is_set():
            in_send.set()
            gate.wait(PATIENCE)

    sender.on_send = slow_relay
    d.courier.start()
    try:
        assert in_send.wait(PATIENCE)
        yield gate
    finally:
        gate.set()
        d.courier.stop(PATIENCE)


def test_an_answer_whose_lease_ran_out_in_the_courier_queue_is_sent_once(
    app: App, sender: RecordingSender, clock: FixedClock, demo: str
) -> None:
    """Two answers are handed to a courier held up by a slow send; they wait in its queue
    past their send lease, and the next mail's pass claims them again and hands them over a
    second time. The relay then goes on: each player gets one reply, and every row is sent."""
    d = Daemon(app, sender)
    with _courier_held_up(d, sender) as gate:
        _join(app, 1)
        _join(app, 2)
        d.courier.answers()  # the two answers, handed over
        clock.advance(timedelta(seconds=app.config.outbox.send_lease_seconds + 1))
        d.courier.answers()  # the next mail committed: its pass claims the two again
        gate.set()
        assert wait_until(lambda: _statuses(app) == ["sent"] * 3, PATIENCE)
    assert [len(sender.to(f"p{n}@example.test")) for n in range(3)] == [1, 1, 1]
    assert len(sender.sent) == 3


def test_a_courier_behind_leaves_the_next_answers_due(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """While the courier is held up, a pass hands it at most ``HAND_ROWS`` answers: the next
    mail's answer stays pending and due (another worker, or the courier's own flush, may
    take it), instead of waiting out its lease in the queue. Each reply then goes once."""
    d = Daemon(app, sender)
    players = range(1, HAND_ROWS + 2)
    with _courier_held_up(d, sender) as gate:
        for n in players:
            _join(app, n)
        d.courier.answers()
        (last,) = d.outbox.due_ids(answers_only=True)
        _join(app, HAND_ROWS + 2)
        d.courier.answers()  # the queue is full: nothing more is claimed
        with transaction(app.sessions) as s:
            later = s.scalar(
                select(OutboxMessage.id).where(
                    OutboxMessage.to_addr == f"p{HAND_ROWS + 2}@example.test"
                )
            )
        assert d.outbox.due_ids(answers_only=True) == [last, later]
        gate.set()
        assert wait_until(lambda: _statuses(app) == ["sent"] * (HAND_ROWS + 3), PATIENCE)
    assert all(len(sender.to(f"p{n}@example.test")) == 1 for n in range(HAND_ROWS + 3))
    assert len(sender.sent) == HAND_ROWS + 3


def test_what_a_dead_courier_was_handed_is_given_back_at_its_stop(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """Two answers wait in the courier's queue; the send of the first raises an error nobody
    foresaw, which ends the courier's thread. Its stop (the daemon leaving) gives the second
    back, due at once for the next start, instead of leaving it to wait out its lease; the
    first, whose send may have gone, keeps its lease."""
    d = Daemon(app, sender)

    def broken_relay(_message: EmailMessage) -> None:
        raise RuntimeError("a bug in the sender")

    with _courier_held_up(d, sender) as gate:
        _join(app, 1)
        _join(app, 2)
        d.courier.answers()
        assert d.outbox.due_ids(answers_only=True) == []
        sender.on_send = broken_relay
        gate.set()
        assert wait_until(lambda: d.courier.failure is not None, PATIENCE)
        assert isinstance(d.courier.failure, RuntimeError)
        d.courier.stop(PATIENCE)
        with transaction(app.sessions) as s:
            second = s.scalar(
                select(OutboxMessage.id).where(OutboxMessage.to_addr == "p2@example.test")
            )
        assert d.outbox.due_ids(answers_only=True) == [second]


def test_a_stale_claim_given_back_leaves_the_row_to_the_worker_sending_it(
    app: App, sender: RecordingSender, clock: FixedClock, demo: str
) -> None:
    """A claim waits in a courier's queue past its lease; another worker claims the row and
    is sending it when the first courier gives its stale claim back (its stop, or its relay
    down). The give-back leaves the row alone: a third claim finds nothing to take, and the
    player gets one reply."""
    d = Daemon(app, sender)
    _join(app, 1)
    with transaction(app.sessions) as s:
        (row,) = s.scalars(select(OutboxMessage.id))
    waiting = d.outbox.claim(row)
    assert isinstance(waiting, Claimed)
    clock.advance(timedelta(seconds=app.config.outbox.send_lease_seconds + 1))
    sending = d.outbox.claim(row)
    assert isinstance(sending, Claimed)
    d.outbox.release(waiting)
    assert d.outbox.due_ids(answers_only=True) == []
    assert d.outbox.claim(row) == "skipped"
    assert d.outbox.deliver(sending) == "sent"
    assert len(sender.to("p1@example.test")) == 1
