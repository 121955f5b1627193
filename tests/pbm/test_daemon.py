"""The daemon loop: one pass per call, mailboxes marked after commit, warm stop, signals."""

from __future__ import annotations

import gc
import signal
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.errors import ImapError
from pbm.daemon import Daemon, _warm_up
from pbm.db.models import InboundMail
from pbm.db.session import transaction
from pbm.mail.ports import FetchedMessage
from pbm.scheduler import next_wake
from pbm.testing import FakeMailbox, RecordingSender, make_eml


def test_run_once_handles_mailbox_and_marks_after_commit(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """Mail fetched from a mailbox is handled, answered, then moved to processed."""
    mb = FakeMailbox()
    mb.deliver(make_eml("JOIN\n", subject="[DEMO] join"))
    seen: list[str] = []

    def mark(uid: str) -> None:
        with transaction(app.sessions) as s:
            seen.append(s.scalars(select(InboundMail.status)).one())
        FakeMailbox.mark_processed(mb, uid)

    mb.mark_processed = mark  # type: ignore[method-assign]
    stats = Daemon(app, sender, [mb]).run_once()
    assert (stats.fetched, stats.processed, stats.sent) == (1, 1, 1)
    assert seen == ["applied"]  # committed before the server was told
    assert mb.inbox == {} and len(mb.processed) == 1


def test_message_refetched_after_failed_mark_is_a_no_op(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """If marking fails, the message comes again next pass and changes nothing."""
    mb = FakeMailbox()
    mb.deliver(make_eml("JOIN\n", subject="[DEMO] join"))
    calls = []

    def flaky(uid: str) -> None:
        calls.append(uid)
        if len(calls) == 1:
            raise ImapError("connection lost", transient=True)
        FakeMailbox.mark_processed(mb, uid)

    mb.mark_processed = flaky  # type: ignore[method-assign]
    d = Daemon(app, sender, [mb])
    assert d.run_once().errors == 1
    d.run_once()
    assert len(sender.sent) == 1 and mb.inbox == {}


def test_fetch_error_is_logged_not_fatal(app: App, sender: RecordingSender) -> None:
    """A mailbox that fails to fetch counts an error and the pass goes on."""
    mb = FakeMailbox()

    def broken() -> list[object]:
        raise ImapError("down", transient=True)

    mb.fetch_new = broken  # type: ignore[assignment,method-assign]
    assert Daemon(app, sender, [mb]).run_once().errors == 1


def test_idle_pass_is_not_busy(app: App, sender: RecordingSender) -> None:
    """A pass with nothing to do reports not busy, so the loop waits."""
    assert not Daemon(app, sender).run_once().busy


def test_run_loop_wakes_on_store_and_stops_warm(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """The loop handles mail stored by a listener while it waits, and request_stop ends it."""
    d = Daemon(app, sender, max_wait=30)
    t = threading.Thread(target=d.run)
    t.start()
    d.store(make_eml("JOIN\n", subject="[DEMO] join"), "p@example.test", ["pbm@example.test"])
    done = threading.Event()
    sender.on_send = lambda _m: done.set()
    assert done.wait(20) or sender.sent
    d.request_stop()
    t.join(20)
    assert not t.is_alive()
    assert len(sender.sent) == 1


def test_loop_waits_on_mailbox_and_closes_it(app: App, sender: RecordingSender, demo: str) -> None:
    """With a mailbox the loop waits on it (IDLE), handles new mail, and closes it on stop."""
    mb = FakeMailbox()
    d = Daemon(app, sender, [mb], max_wait=30)
    t = threading.Thread(target=d.run)
    t.start()
    done = threading.Event()
    sender.on_send = lambda _m: done.set()
    mb.deliver(make_eml("JOIN\n", subject="[DEMO] join"))
    assert done.wait(20)
    d.request_stop()
    t.join(20)
    assert not t.is_alive() and mb.closed


class CallsMailbox(FakeMailbox):
    """A FakeMailbox that notes each fetch and each wait, in order; ``on_wait`` is called at
    each wait."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.on_wait = lambda: None

    def fetch_new(self) -> list[FetchedMessage]:
        self.calls.append("fetch")
        return super().fetch_new()

    def wait(self, timeout: float) -> bool:
        self.calls.append("wait")
        self.on_wait()
        return super().wait(timeout)


def test_a_pass_that_only_handled_mail_is_followed_by_a_wait(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """After a pass that handled the mailbox's mail (and answered it) with nothing else due,
    the loop waits on the mailbox (whose wait returns at once for newer mail) instead of an
    empty pass: the pass's own second fetch found nothing, a third would find nothing too."""
    mb = CallsMailbox()
    mb.deliver(make_eml("JOIN\n", subject="[DEMO] join"))
    d = Daemon(app, sender, [mb], max_wait=30)
    mb.on_wait = d.request_stop  # its wake ends the wait at once
    d.run()
    assert len(sender.sent) == 1
    assert mb.calls == ["fetch", "fetch", "wait"]


@pytest.mark.parametrize("ahead", [10.0, 3 * 3600.0])
def test_the_wait_after_a_mail_only_pass_ends_by_the_next_deadline(
    app: App, sender: RecordingSender, demo: str, clock: FixedClock, ahead: float
) -> None:
    """A pass that only handled mail is followed by a wait on the mailbox, but never past the
    scheduler's next wake: with the next deadline 10 s (or three hours) away, the wait's
    timeout is at most that, so a turn still falls due on time while mail flows."""
    with transaction(app.sessions) as s:
        wake = next_wake(s, app.config, clock.now(), app.games)
    clock.set(wake - timedelta(seconds=ahead))
    timeouts: list[float] = []

    class Timed(CallsMailbox):
        def wait(self, timeout: float) -> bool:
            timeouts.append(timeout)
            return super().wait(timeout)

    mb = Timed()
    mb.deliver(make_eml("JOIN\n", subject="[DEMO] join"))
    d = Daemon(app, sender, [mb], max_wait=6 * 3600)
    mb.on_wait = d.request_stop
    d.run()
    assert len(sender.sent) == 1 and mb.calls[-1] == "wait"
    assert timeouts and 0 < timeouts[0] <= ahead


def test_first_signal_is_warm_second_is_immediate(app: App, sender: RecordingSender) -> None:
    """The first SIGTERM requests a warm stop (from a thread, soon); the second raises
    SystemExit at once."""
    d = Daemon(app, sender)
    d._on_signal(signal.SIGTERM, None)
    deadline = time.monotonic() + 5
    while not d.stopping and time.monotonic() < deadline:
        time.sleep(0.01)
    assert d.stopping
    with pytest.raises(SystemExit):
        d._on_signal(signal.SIGTERM, None)


def test_warm_stop_finishes_current_message_only(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """A stop requested while a message is handled lets it finish (and be answered), no more."""
    mb = FakeMailbox()
    for i in range(3):
        mb.deliver(make_eml("JOIN\n", sender=f"p{i}@example.test", subject="[DEMO] join"))
    d = Daemon(app, sender, [mb])
    original = app.inbound._process

    def process_then_stop(*args: Any, **kw: Any) -> tuple[int, str] | None:
        d.request_stop()
        return original(*args, **kw)

    # the one message's handling, however the pass batches its commits
    app.inbound._process = process_then_stop  # type: ignore[method-assign,assignment]
    stats = d.run_once()
    assert stats.processed == 1 and len(sender.sent) == 1 and len(mb.inbox) == 2


def test_the_warm_up_freezes_what_the_process_keeps() -> None:
    """After the warm-up (the parser loaded, an order read), what is loaded is moved out of
    the cyclic collector's generations, so full collections in a burst skip it."""
    gc.unfreeze()
    try:
        _warm_up()
        assert gc.get_freeze_count() > 10_000  # the parser's tables alone are more
    finally:
        gc.unfreeze()


def test_the_warm_up_builds_the_command_table_before_the_first_mail() -> None:
    """The mail commands' table (which imports every handler's module) is built by the
    warm-up, so the first mail of a burst does not wait for it."""
    from pbm.inbound.commands import fallbacks, registry

    registry.cache_clear()
    fallbacks.cache_clear()
    gc.unfreeze()
    try:
        _warm_up()
        assert registry.cache_info().currsize == 1 and fallbacks.cache_info().currsize == 1
        assert "JOIN" in registry() and "flungo" in fallbacks()
    finally:
        gc.unfreeze()


def test_the_warm_up_compiles_every_mail_template() -> None:
    """Every mail template (each kind's, and the layouts and pieces they extend and include)
    is compiled by the warm-up: the first answer of a kind does not wait for its compile."""
    from pbm.outbound.render import environment

    env = environment()
    assert env.cache is not None
    env.cache.clear()
    gc.unfreeze()
    try:
        _warm_up()
    finally:
        gc.unfreeze()
    cached = {key[1] for key in env.cache}
    wanted = set(env.list_templates(filter_func=lambda name: name.startswith("email/")))
    assert {"email/join/body.html", "email/_base.html", "email/naming/body.txt"} <= wanted
    assert wanted <= cached
