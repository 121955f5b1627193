"""While mail flows the IMAP door looks for the next with NOOP (Dovecot holds IDLE's news back
for half a second); after a quiet spell it is back on IDLE. Against a real Dovecot."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from email.message import EmailMessage

import pytest
from imapclient import IMAPClient

from pbm.mail.imap import ImapMailbox, WaitCounts
from tests.services import DovecotInstance, own_dovecot

pytestmark = pytest.mark.services

MailboxFactory = Callable[..., ImapMailbox]


@pytest.fixture(scope="module")
def server() -> Iterator[DovecotInstance]:
    """This module's own Dovecot: the counts below are of this door's commands alone."""
    with own_dovecot("dovecot-hot") as inst:
        yield inst


@pytest.fixture
def folder(server: DovecotInstance) -> str:
    """A fresh folder of user pbm for one test."""
    name = "t" + uuid.uuid4().hex[:10]
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login("pbm", "secret")
    c.create_folder(name)
    c.logout()
    return name


@pytest.fixture
def mailbox(server: DovecotInstance, folder: str) -> Iterator[MailboxFactory]:
    """Build ImapMailboxes on the test folder over plain IMAP; all are closed afterwards."""
    made: list[ImapMailbox] = []

    def make(**kw: object) -> ImapMailbox:
        args: dict[str, object] = {
            "username": "pbm",
            "password": "secret",
            "security": "plain",
            "folder": folder,
            "processed_folder": folder + "-done",
            "timeout": 5.0,
        }
        args.update(kw)
        mb = ImapMailbox(server.host, server.imap, **args)  # type: ignore[arg-type]
        made.append(mb)
        return mb

    yield make
    for mb in made:
        mb.close()


def append(server: DovecotInstance, folder: str, subject: str) -> None:
    m = EmailMessage()
    m["From"] = "player1@example.test"
    m["To"] = "pbm@example.test"
    m["Subject"] = subject
    m["Message-ID"] = f"<{uuid.uuid4().hex}@example.test>"
    m.set_content("JOIN\n")
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login("pbm", "secret")
    c.append(folder, m.as_bytes().replace(b"\n", b"\r\n"))
    c.logout()


def later(delay: float, action: Callable[[], None]) -> threading.Thread:
    t = threading.Thread(target=lambda: (time.sleep(delay), action()), daemon=True)
    t.start()
    return t


def handle_one(mb: ImapMailbox) -> None:
    """Fetch the one message there and mark it processed, as the daemon's pass does."""
    (got,) = mb.fetch_new()
    mb.mark_processed(got.uid)


def test_a_quiet_mailbox_waits_on_idle(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """A door that has seen no mail issues no NOOP while it waits: IDLE wakes it."""
    mb = mailbox()
    assert mb.fetch_new() == []
    t = later(0.3, lambda: append(server, folder, "first"))
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts == WaitCounts(idles=1, hot_polls=0)
    assert len(mb.fetch_new()) == 1


def test_after_a_mail_the_next_is_seen_by_noop_without_idle(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """After a fetch that found mail the door polls: a second mail appended meanwhile ends the
    wait by a NOOP's EXISTS, with no IDLE issued, and is fetched."""
    mb = mailbox(hot_seconds=600)
    append(server, folder, "first")
    handle_one(mb)
    t = later(0.3, lambda: append(server, folder, "second"))
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts.idles == 0
    assert mb.wait_counts.hot_polls >= 1
    (second,) = mb.fetch_new()
    assert b"Subject: second" in second.raw


def test_after_a_quiet_spell_the_door_is_back_on_idle(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """Once hot_seconds pass without mail the wait goes on in IDLE (one IDLE, no more NOOPs
    however long it lasts), and IDLE's EXISTS wakes the next wait."""
    mb = mailbox(hot_seconds=1.0)
    append(server, folder, "first")
    handle_one(mb)
    assert mb.wait(2.5) is False  # polled for the hot second, then idled to the end
    polls = mb.wait_counts.hot_polls
    assert polls >= 1 and mb.wait_counts.idles == 1
    t = later(0.3, lambda: append(server, folder, "after the quiet"))
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts == WaitCounts(idles=2, hot_polls=polls)
    assert len(mb.fetch_new()) == 1


def test_hot_polling_off_waits_on_idle_at_once(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """hot_poll_interval=0 turns the polling off: after a mail the door idles straight away."""
    mb = mailbox(hot_poll_interval=0, hot_seconds=600)
    append(server, folder, "first")
    handle_one(mb)
    t = later(0.3, lambda: append(server, folder, "second"))
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts == WaitCounts(idles=1, hot_polls=0)


def test_interrupt_ends_a_hot_poll(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """interrupt() from another thread ends a polling wait with False, as it ends IDLE."""
    mb = mailbox(hot_seconds=600)
    append(server, folder, "first")
    handle_one(mb)
    t = later(0.3, mb.interrupt)
    assert mb.wait(60) is False
    t.join()
    assert mb.wait_counts.idles == 0


def test_a_connection_lost_while_polling_ends_the_wait(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """A mail that came while the connection was being lost is not left for the end of the
    hot period: the poll reconnects and the wait returns True, so the next fetch finds it
    (the new session's NOOPs would never report a mail that came before it). The polls are a
    second apart so that the link is lost before any poll reports the mail."""
    mb = mailbox(hot_seconds=600, hot_poll_interval=1.0)
    append(server, folder, "first")
    handle_one(mb)
    client = mb._client

    def lose_the_link() -> None:
        append(server, folder, "while it was lost")
        client.shutdown()

    t = later(0.3, lose_the_link)
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts.idles == 0
    (got,) = mb.fetch_new()
    assert b"Subject: while it was lost" in got.raw
