"""Spooled mail (answered 250 already) that a pass's import had no time for is imported by
the passes that follow at once, even when the pass also fetched the mailbox's mail (a pass
that only handled the mailbox's mail waits on the mailbox, up to a tick)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.inbound import spool as spool_module
from pbm.inbound.pipeline import Arrival
from pbm.testing import FakeMailbox, RecordingSender, make_eml
from tests.pbm.conftest import config_data

AT = datetime(2026, 1, 1, 8, tzinfo=UTC)


def test_the_loop_imports_what_the_spool_still_holds_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six spooled mails, an import of one two-file batch a pass (its time spent at once),
    and one mail in the mailbox: the loop (a tick of 60 s) has imported and answered all six
    within 20 s, instead of waiting on the mailbox after its first pass."""
    data = config_data(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path)
    app = App.from_config(
        parse_config(data, env={}), FixedClock(datetime(2026, 1, 1, 9, tzinfo=UTC)), upgrade=True
    )
    spool = app.spool
    assert spool is not None
    for n in range(6):
        raw = make_eml("HELP\n", sender=f"p{n}@example.test", message_id=f"<s{n}@example.test>")
        spool.put(Arrival(raw, "smtp", f"p{n}@example.test", ("pbm@example.test",), AT))
    monkeypatch.setattr(spool_module, "IMPORT_BATCH", 2)
    monkeypatch.setattr(spool_module, "IMPORT_PASS_SECONDS", 0.0)
    mailbox = FakeMailbox()
    mailbox.deliver(make_eml("HELP\n", sender="imap@example.test", message_id="<i@example.test>"))
    sender = RecordingSender()
    daemon = Daemon(app, sender, [mailbox], max_wait=60.0)
    loop = threading.Thread(target=daemon.run, daemon=True)
    loop.start()
    try:
        deadline = time.monotonic() + 20.0
        while (spool.files() or len(sender.sent) < 7) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert spool.files() == []
        assert all(sender.to(f"p{n}@example.test") for n in range(6))
    finally:
        daemon.request_stop()
        loop.join(30.0)
        app.close()
    assert not loop.is_alive()
