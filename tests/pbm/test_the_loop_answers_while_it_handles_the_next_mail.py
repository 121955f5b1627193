"""While the daemon's loop runs, a reply is sent by the courier's thread as its mail commits:
the pass goes on to the next mail meanwhile, instead of waiting for the relay
(``pbm.outbound.courier``). A lone pass still sends before it returns."""

from __future__ import annotations

import threading
from email.message import EmailMessage
from typing import Any

import pytest

from pbm.app import App
from pbm.daemon import Daemon
from pbm.db.models import MailStatus
from pbm.outbound.outbox import Claimed
from pbm.testing import FakeMailbox, RecordingSender, make_eml


def _two_joins(mb: FakeMailbox) -> None:
    for i in range(2):
        mb.deliver(make_eml("JOIN\n", sender=f"p{i}@example.test", subject="[DEMO] join"))


def _counting_handled(app: App) -> threading.Semaphore:
    """A semaphore released as each message's handling ends, however the pass batches the
    commits of a fetch's mail."""
    handled = threading.Semaphore(0)
    original = app.inbound._process

    def process(*args: Any, **kw: Any) -> tuple[int, MailStatus] | None:
        done = original(*args, **kw)
        handled.release()
        return done

    app.inbound._process = process  # type: ignore[method-assign]
    return handled


def test_the_first_reply_is_sent_while_the_second_mail_is_handled(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """Two mails fetched together: the relay takes the first reply only once the second mail
    has been handled and committed, which can happen only if the send is not made on the
    pass's thread between the two."""
    mb = FakeMailbox()
    _two_joins(mb)
    app.inbound.batch_mails = 1  # a commit each (the batch of two would commit both at once)
    handled = _counting_handled(app)
    second_first: list[bool] = []
    all_sent = threading.Event()

    def on_send(_message: EmailMessage) -> None:
        if not second_first:  # the first reply: held by the relay until mail two is handled
            handled.acquire(timeout=10)
            second_first.append(handled.acquire(timeout=5))
        if len(sender.sent) == 2:
            all_sent.set()

    sender.on_send = on_send
    d = Daemon(app, sender, [mb], max_wait=30)
    loop = threading.Thread(target=d.run)
    loop.start()
    try:
        assert all_sent.wait(30)
    finally:
        d.request_stop()
        loop.join(30)
    assert not loop.is_alive()
    assert second_first == [True]


def test_a_lone_pass_sends_before_it_returns(app: App, sender: RecordingSender, demo: str) -> None:
    """``run_once`` outside the loop (cron's ``pbm run --once``) has no courier thread: the
    replies are sent within the pass, and it reports them."""
    mb = FakeMailbox()
    _two_joins(mb)
    stats = Daemon(app, sender, [mb]).run_once()
    assert (stats.processed, stats.sent) == (2, 2) and len(sender.sent) == 2


class Broken(RecordingSender):
    """A sender with a bug: every send raises an error nobody foresaw."""

    def send(self, message: EmailMessage, envelope: object = None) -> None:
        raise RuntimeError("a bug in the sender")


def test_an_error_nobody_foresaw_in_a_send_stops_the_loop(app: App, demo: str) -> None:
    """A send that raises something other than a mail or database error ends ``run`` with
    that error, as it did when the pass sent on its own thread (the service manager
    restarts the daemon; the reply stays pending in the outbox)."""
    mb = FakeMailbox()
    _two_joins(mb)
    d = Daemon(app, Broken(), [mb], max_wait=30)
    raised: list[BaseException] = []

    def run() -> None:
        try:
            d.run()
        except BaseException as exc:  # what ended it, whatever it is
            raised.append(exc)

    loop = threading.Thread(target=run)
    loop.start()
    loop.join(30)
    if loop.is_alive():
        d.request_stop()
        loop.join(30)
        pytest.fail("the loop went on after its courier failed")
    assert len(raised) == 1 and isinstance(raised[0], RuntimeError)


def test_an_answer_claimed_and_given_back_unsent_is_due_at_once(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """A reply the pass claimed for the courier is no longer due (its send lease runs); given
    back unsent (a stop before the courier sent it) it is due again at once, not when the
    lease ends, and the next flush sends it."""
    d = Daemon(app, sender)
    app.inbound.store(make_eml("JOIN\n", subject="[DEMO] join"), "smtp")
    assert app.inbound.process_next(0) is not None
    (row_id,) = d.outbox.due_ids(answers_only=True)
    claimed = d.outbox.claim(row_id)
    assert isinstance(claimed, Claimed)
    assert d.outbox.due_ids() == []
    d.outbox.release(claimed)
    assert d.outbox.due_ids() == [row_id]
    assert d.outbox.flush() == (1, 0) and len(sender.sent) == 1


def test_hostile_mail_answered_by_the_courier_thread_reaches_only_its_sender(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """The courier's thread sends the stored bytes as a lone pass does: a JOIN whose Subject
    smuggles CR/LF and a Bcc in an encoded-word, with a Cc and Bcc of its own and a huge
    body, is answered once, to its sender alone, with no header line the sender wrote; a
    forged bounce (null reverse-path's MAILER-DAEMON) beside it is never answered."""
    mb = FakeMailbox()
    smuggled = "=?utf-8?q?=5BDEMO=5D_join=0D=0ABcc=3A_victim=40example=2Etest?="
    mb.deliver(
        make_eml(
            "JOIN\n" + "x" * 200_000 + "\n",
            sender="p9@example.test",
            subject=smuggled,
            headers={"Cc": "third@example.test", "Bcc": "victim@example.test"},
        )
    )
    mb.deliver(
        make_eml(
            "Delivery failed\n",
            sender="MAILER-DAEMON@example.test",
            subject="Undelivered Mail Returned to Sender",
            headers={"Auto-Submitted": "auto-replied"},
        )
    )
    sent = threading.Event()
    sender.on_send = lambda _m: sent.set()
    handled = _counting_handled(app)
    d = Daemon(app, sender, [mb], max_wait=30)
    loop = threading.Thread(target=d.run)
    loop.start()
    try:
        assert handled.acquire(timeout=30) and handled.acquire(timeout=30)  # both mails
        assert sent.wait(30)
    finally:
        d.request_stop()
        loop.join(30)
    assert not loop.is_alive()
    assert len(sender.sent) == 1
    [envelope] = [e for e in sender.envelopes if e is not None]
    assert envelope.rcpt_to == ("p9@example.test",)
    [reply] = sender.sent
    assert reply["To"] == "p9@example.test"
    assert reply["Cc"] is None and reply["Bcc"] is None
    raw = reply.as_bytes()
    assert b"victim@example.test" not in raw and b"third@example.test" not in raw
    assert all(b"\r" not in line for line in raw.split(b"\n")[:40])
