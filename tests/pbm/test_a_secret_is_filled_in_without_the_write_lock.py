"""While an old key is configured (a rotation), the secret a reply waits for is filled in from
its seat's stored hash as the reply is sent: a read, which takes no write turn, so a send is
not held up by a pass's transaction on SQLite (nor, there, made to fail by it)."""

from __future__ import annotations

import threading
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import text

from pbm.app import App
from pbm.core.config import Config
from pbm.daemon import Daemon
from pbm.db.session import transaction
from pbm.outbound.outbox import Claimed
from pbm.testing import RecordingSender, body_of, make_eml
from tests.pbm.conftest import SECRET_KEY, make_config
from tests.pbm.helpers import SECRET_RE

#: An upper bound only: every wait ends as soon as its condition holds.
PATIENCE = 30.0

pytestmark = pytest.mark.parametrize("app_db_url", ["sqlite"], indirect=True)


@pytest.fixture
def config(app_db_url: str, tmp_path: Path) -> Config:
    """The test config with a new key, the old one still in ``old_secret_keys``."""
    security = {
        "secret_key": "the-new-secret-key-fedcba9876543210",
        "old_secret_keys": [SECRET_KEY],
    }
    return make_config(app_db_url, tmp_path, security=security)


def test_a_reply_s_secret_is_filled_in_while_a_pass_holds_the_write_lock(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """A JOIN's reply is claimed; a pass's transaction then holds the write lock until the
    relay has the reply. The secret is filled in meanwhile (its hash read without a write
    turn), the reply goes with it, and is recorded sent once the lock is free."""
    app.inbound.store(make_eml("JOIN\n", sender="p0@example.test", subject="[DEMO] join"), "smtp")
    assert app.inbound.process_next(0) is not None
    d = Daemon(app, sender)
    (row_id,) = d.outbox.due_ids()
    claimed = d.outbox.claim(row_id)
    assert isinstance(claimed, Claimed)
    locked, release = threading.Event(), threading.Event()

    def long_pass() -> None:
        with transaction(app.sessions) as s:
            s.execute(text("UPDATE competitions SET name = name"))
            locked.set()
            release.wait(PATIENCE)

    def relay(_message: EmailMessage) -> None:
        release.set()  # the pass commits once the reply is on its way

    holder = threading.Thread(target=long_pass)
    holder.start()
    try:
        assert locked.wait(PATIENCE)
        sender.on_send = relay
        assert d.outbox.deliver(claimed) == "sent"
    finally:
        release.set()
        holder.join(PATIENCE)
    [reply] = sender.sent
    assert SECRET_RE.search(body_of(reply)), body_of(reply)
