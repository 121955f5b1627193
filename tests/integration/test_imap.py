"""ImapMailbox against a real Dovecot: fetch, move after processing, UIDVALIDITY, IDLE, polling
while mail flows, TLS."""

from __future__ import annotations

import smtplib
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from imapclient import IMAPClient

from pbm.core.errors import ImapError
from pbm.mail.imap import ImapMailbox, WaitCounts
from pbm.mail.ports import Mailbox
from tests.services import DovecotInstance, own_dovecot

pytestmark = pytest.mark.services

USERS = {"pbm": "secret", "gm": "secret", "player1": "secret", "lmtp1": "secret", "lmtp2": "secret"}


@pytest.fixture(scope="module")
def server() -> Iterator[DovecotInstance]:
    """This module's own Dovecot, so moving and deleting folders can't disturb other tests."""
    with own_dovecot("dovecot-imap", USERS) as inst:
        yield inst


def raw_client(server: DovecotInstance, user: str = "pbm") -> IMAPClient:
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login(user, "secret")
    return c


def make_raw(subject: str, body: str = "JOIN\n") -> bytes:
    m = EmailMessage()
    m["From"] = "player1@example.test"
    m["To"] = "pbm@example.test"
    m["Subject"] = subject
    m["Message-ID"] = f"<{uuid.uuid4().hex}@example.test>"
    m.set_content(body)
    return m.as_bytes().replace(b"\n", b"\r\n")


@pytest.fixture
def folder(server: DovecotInstance) -> str:
    """A fresh folder of user pbm for one test."""
    name = "t" + uuid.uuid4().hex[:10]
    c = raw_client(server)
    c.create_folder(name)
    c.logout()
    return name


def append(server: DovecotInstance, folder: str, raw: bytes, user: str = "pbm") -> None:
    c = raw_client(server, user)
    c.append(folder, raw)
    c.logout()


def count(server: DovecotInstance, folder: str, user: str = "pbm") -> int:
    c = raw_client(server, user)
    n = int(c.folder_status(folder, ["MESSAGES"])[b"MESSAGES"])
    c.logout()
    return n


MailboxFactory = Callable[..., ImapMailbox]


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


def test_is_a_mailbox() -> None:
    """ImapMailbox satisfies the Mailbox port the daemon is written against."""
    mb: Mailbox = ImapMailbox("127.0.0.1", username="u", password="p")
    assert mb.fetch_new is not None


def test_fetch_new_returns_exact_bytes_oldest_first(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """fetch_new returns every message's exact bytes, oldest first, with "<validity>:<uid>"."""
    raws = [make_raw(f"m{i}") for i in range(3)]
    for raw in raws:
        append(server, folder, raw)
    mb = mailbox()
    got = mb.fetch_new()
    assert [g.raw for g in got] == raws
    assert [g.uid for g in got] == [f"{mb.uidvalidity}:{n}" for n in (1, 2, 3)]


def test_fetch_leaves_seen_flag_alone(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """Fetching uses BODY.PEEK, so a message the player's client left unread stays unread."""
    append(server, folder, make_raw("peek"))
    mailbox().fetch_new()
    c = raw_client(server)
    c.select_folder(folder, readonly=True)
    assert c.search(["UNSEEN"]) == [1]
    c.logout()


@pytest.mark.parametrize("use_move", [True, False], ids=["MOVE", "COPY+EXPUNGE"])
@pytest.mark.parametrize("defer_moves", [True, False], ids=["deferred", "at-once"])
def test_mark_processed_moves_to_processed_folder(
    server: DovecotInstance,
    folder: str,
    mailbox: MailboxFactory,
    use_move: bool,
    defer_moves: bool,
) -> None:
    """mark_processed moves exactly that message into the processed folder (made if missing)."""
    append(server, folder, make_raw("a"))
    append(server, folder, make_raw("b"))
    mb = mailbox(use_move=use_move, defer_moves=defer_moves)
    first, second = mb.fetch_new()
    mb.mark_processed(first.uid)
    assert [m.raw for m in mb.fetch_new()] == [second.raw]
    assert count(server, folder) == 1
    assert count(server, folder + "-done") == 1
    mb.mark_processed(first.uid)  # a second time: already gone, nothing happens
    mb.flush()
    assert count(server, folder + "-done") == 1


def test_deferred_moves_happen_together_and_on_close(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """Deferred moves wait for the next fetch/flush/close, then go in one batch."""
    for i in range(3):
        append(server, folder, make_raw(f"d{i}"))
    mb = mailbox()
    got = mb.fetch_new()
    for m in got[:2]:
        mb.mark_processed(m.uid)
    assert count(server, folder) == 3  # queued, not yet moved
    mb.mark_processed(got[2].uid)
    mb.close()
    assert count(server, folder) == 0
    assert count(server, folder + "-done") == 3


def test_unmarked_messages_are_fetched_again(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """A message not marked processed (no commit yet) comes back on the next fetch."""
    raw = make_raw("again")
    append(server, folder, raw)
    mb = mailbox()
    first = mb.fetch_new()
    assert [m.raw for m in first] == [raw]
    assert mb.fetch_new() == first
    mb.close()
    assert mailbox().fetch_new() == first  # and after a restart too


def test_batch_size_limits_one_fetch(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """fetch_new returns at most batch_size messages, the oldest ones."""
    raws = [make_raw(f"b{i}") for i in range(5)]
    for raw in raws:
        append(server, folder, raw)
    mb = mailbox(batch_size=2)
    assert [m.raw for m in mb.fetch_new()] == raws[:2]


def test_uidvalidity_change_refetches_and_ignores_stale_ids(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """After UIDVALIDITY changes, messages come back under new ids; stale ids move nothing."""
    raw = make_raw("validity")
    append(server, folder, raw)
    mb = mailbox()
    (old,) = mb.fetch_new()
    old_validity = mb.uidvalidity
    # Recreate the folder behind the mailbox's back: Dovecot hands out a new UIDVALIDITY
    # and drops our connection, which had the folder selected.
    c = raw_client(server)
    c.delete_folder(folder)
    c.create_folder(folder)
    c.append(folder, raw)
    c.logout()
    (new,) = mb.fetch_new()
    assert new.raw == raw
    assert mb.uidvalidity != old_validity
    assert new.uid != old.uid
    mb.mark_processed(old.uid)
    mb.flush()
    assert count(server, folder) == 1
    mb.mark_processed(new.uid)
    mb.flush()
    assert count(server, folder) == 0


def test_reconnects_after_connection_loss(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """A dropped connection is re-established transparently on the next call."""
    mb = mailbox()
    assert mb.fetch_new() == []
    mb._client.shutdown()  # the network goes away under the mailbox
    append(server, folder, make_raw("after loss"))
    assert len(mb.fetch_new()) == 1


def _later(delay: float, action: Callable[[], None]) -> threading.Thread:
    t = threading.Thread(target=lambda: (time.sleep(delay), action()), daemon=True)
    t.start()
    return t


def test_idle_wakes_on_append(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """wait() returns True (woken by IDLE's EXISTS, not the timeout) after an APPEND; a door
    that has seen no mail issues no NOOP while it waits."""
    mb = mailbox()
    assert mb.fetch_new() == []
    assert b"IDLE" in mb.capabilities
    t = _later(0.3, lambda: append(server, folder, make_raw("idle")))
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts == WaitCounts(idles=1, hot_polls=0)
    assert len(mb.fetch_new()) == 1


def test_idle_wakes_on_lmtp_delivery(server: DovecotInstance) -> None:
    """wait() wakes when mail is delivered into the INBOX through Dovecot's LMTP."""
    with ImapMailbox(
        server.host, server.imap, username="lmtp1", password="secret", security="plain"
    ) as mb:
        assert mb.fetch_new() == []
        msg = EmailMessage()
        msg["From"] = "player1@example.test"
        msg["To"] = "lmtp1@example.test"
        msg["Subject"] = "by lmtp"
        msg.set_content("JOIN\n")

        def deliver() -> None:
            with smtplib.LMTP(server.host, server.lmtp) as lmtp:
                lmtp.send_message(msg, to_addrs=["lmtp1@example.test"])

        t = _later(0.3, deliver)
        assert mb.wait(30) is True
        t.join()
        (got,) = mb.fetch_new()
        assert b"Subject: by lmtp" in got.raw


def test_wait_returns_at_once_for_mail_that_arrived_meanwhile(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """Mail that arrived after the last fetch (while processing) ends wait() at once."""
    mb = mailbox()
    mb.fetch_new()
    append(server, folder, make_raw("meanwhile"))
    assert mb.wait(30) is True


def test_wait_ignores_messages_already_handed_out(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """A fetched but not yet processed message does not make wait() spin; it times out."""
    append(server, folder, make_raw("pending"))
    mb = mailbox()
    assert len(mb.fetch_new()) == 1
    assert mb.wait(0.6) is False


def test_interrupt_ends_wait(mailbox: MailboxFactory) -> None:
    """interrupt() from another thread ends an IDLE wait with False."""
    mb = mailbox()
    mb.fetch_new()
    t = _later(0.3, mb.interrupt)
    assert mb.wait(60) is False
    t.join()


def test_poll_fallback_sees_new_mail(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """Without IDLE, wait() sleep-polls and returns True once new mail is there."""
    mb = mailbox(use_idle=False, poll_interval=0.2)
    mb.fetch_new()
    t = _later(0.3, lambda: append(server, folder, make_raw("polled")))
    assert mb.wait(30) is True
    t.join()


# -- while mail flows the door looks for the next with NOOP: Dovecot holds IDLE's news back for
# half a second (docs/ops/mail-doors.md); after a quiet spell it is back on IDLE.


def handle_one(mb: ImapMailbox) -> None:
    """Fetch the one message there and mark it processed, as the daemon's pass does."""
    (got,) = mb.fetch_new()
    mb.mark_processed(got.uid)


def test_after_a_mail_the_next_is_seen_by_noop_without_idle(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """After a fetch that found mail the door polls: a second mail appended meanwhile ends the
    wait by a NOOP's EXISTS, with no IDLE issued, and is fetched."""
    mb = mailbox(hot_seconds=600)
    append(server, folder, make_raw("first"))
    handle_one(mb)
    t = _later(0.3, lambda: append(server, folder, make_raw("second")))
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
    append(server, folder, make_raw("first"))
    handle_one(mb)
    assert mb.wait(2.5) is False  # polled for the hot second, then idled to the end
    polls = mb.wait_counts.hot_polls
    assert polls >= 1 and mb.wait_counts.idles == 1
    t = _later(0.3, lambda: append(server, folder, make_raw("after the quiet")))
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts == WaitCounts(idles=2, hot_polls=polls)
    assert len(mb.fetch_new()) == 1


def test_hot_polling_off_waits_on_idle_at_once(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """hot_poll_interval=0 turns the polling off: after a mail the door idles straight away."""
    mb = mailbox(hot_poll_interval=0, hot_seconds=600)
    append(server, folder, make_raw("first"))
    handle_one(mb)
    t = _later(0.3, lambda: append(server, folder, make_raw("second")))
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts == WaitCounts(idles=1, hot_polls=0)


def test_interrupt_ends_a_hot_poll(
    server: DovecotInstance, folder: str, mailbox: MailboxFactory
) -> None:
    """interrupt() from another thread ends a polling wait with False, as it ends IDLE."""
    mb = mailbox(hot_seconds=600)
    append(server, folder, make_raw("first"))
    handle_one(mb)
    t = _later(0.3, mb.interrupt)
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
    append(server, folder, make_raw("first"))
    handle_one(mb)
    client = mb._client

    def lose_the_link() -> None:
        append(server, folder, make_raw("while it was lost"))
        client.shutdown()

    t = _later(0.3, lose_the_link)
    assert mb.wait(30) is True
    t.join()
    assert mb.wait_counts.idles == 0
    (got,) = mb.fetch_new()
    assert b"Subject: while it was lost" in got.raw


def test_imaps_with_unverified_self_signed_cert(server: DovecotInstance, folder: str) -> None:
    """IMAPS works against a self-signed test certificate when verify=False."""
    append(server, folder, make_raw("tls"))
    with ImapMailbox(
        server.host, server.imaps, username="pbm", password="secret", folder=folder, verify=False
    ) as mb:
        assert len(mb.fetch_new()) == 1


def test_imaps_verified_with_ca_file(server: DovecotInstance, folder: str) -> None:
    """IMAPS verifies the chain and hostname against a given CA file."""
    with ImapMailbox(
        "localhost",
        server.imaps,
        username="pbm",
        password="secret",
        folder=folder,
        ca_file=str(server.root / "cert.pem"),
    ) as mb:
        assert mb.fetch_new() == []


def test_starttls_login(server: DovecotInstance, folder: str) -> None:
    """STARTTLS on the plain port upgrades before LOGIN and then works as usual."""
    append(server, folder, make_raw("starttls"))
    with ImapMailbox(
        server.host,
        server.imap,
        username="pbm",
        password="secret",
        security="starttls",
        folder=folder,
        verify=False,
    ) as mb:
        assert len(mb.fetch_new()) == 1
        assert isinstance(mb._client._imap.sock, ssl.SSLSocket)  # really upgraded


def _closed_port() -> int:
    from tests.services import free_port

    return free_port()


FAILURES: dict[str, tuple[Callable[[DovecotInstance, Path], dict[str, object]], bool]] = {
    "wrong password": (lambda s, _: {"port": s.imap, "password": "nope"}, False),
    "nothing listening": (lambda s, _: {"port": _closed_port()}, True),
    "TLS to a plain port": (lambda s, _: {"port": s.imap, "security": "tls"}, False),
    "self-signed cert, verify on": (lambda s, _: {"port": s.imaps, "security": "tls"}, False),
    "CA file, wrong hostname": (
        lambda s, _: {"port": s.imaps, "security": "tls", "ca_file": str(s.root / "cert.pem")},
        False,
    ),
    "plain to the IMAPS port": (lambda s, _: {"port": s.imaps, "timeout": 0.5}, True),
    "no such folder": (lambda s, _: {"port": s.imap, "folder": "NoSuchFolder"}, False),
    "missing CA file": (
        lambda s, tmp: {"port": s.imaps, "security": "tls", "ca_file": str(tmp / "none.pem")},
        False,
    ),
}


CALLS = ["connect", "fetch_new", "mark_processed"]
# Each failed login makes Dovecot delay the next logins from this IP (its auth penalty), so
# the wrong password is tried once, last; the three calls share one connect path anyway.
CASES = [(case, call) for case in sorted(FAILURES) if case != "wrong password" for call in CALLS]


@pytest.mark.parametrize(("case", "call"), [*CASES, ("wrong password", "fetch_new")])
def test_no_foreign_exception_escapes(
    server: DovecotInstance, tmp_path: Path, case: str, call: str
) -> None:
    """Every failure surfaces as ImapError with the right transient flag, never a foreign one."""
    make_kw, transient = FAILURES[case]
    kw: dict[str, object] = {
        "username": "pbm",
        "password": "secret",
        "security": "plain",
        "timeout": 5.0,
    }
    kw.update(make_kw(server, tmp_path))
    port = kw.pop("port")
    mb = ImapMailbox(server.host, port, **kw)  # type: ignore[arg-type]
    action: dict[str, Callable[[], object]] = {
        "connect": mb.connect,
        "fetch_new": mb.fetch_new,
        "mark_processed": lambda: (mb.mark_processed("1:1"), mb.flush()),
    }
    with pytest.raises(ImapError) as info:
        action[call]()
    assert info.value.transient is transient
    assert not mb.connected
    mb.close()


def test_wait_does_not_raise_when_the_server_is_unreachable() -> None:
    """wait() returns True instead of raising when it cannot connect, after a pause of a
    second at most, not its whole timeout: the next fetch_new reports the outage (in poll
    mode a 30 s wait used to leave it unseen for 30 s)."""
    mb = ImapMailbox(
        "127.0.0.1",
        _closed_port(),
        username="pbm",
        password="x",
        security="plain",
        use_idle=False,
    )
    assert mb.wait(0.2) is True
    started = time.monotonic()
    assert mb.wait(30) is True
    assert time.monotonic() - started < 10


def test_bad_uid_is_a_permanent_error() -> None:
    """An id that is not "<validity>:<uid>" is refused as a permanent ImapError."""
    with pytest.raises(ImapError) as info:
        ImapMailbox("127.0.0.1", username="pbm", password="x").mark_processed("nonsense")
    assert info.value.transient is False


def test_server_stopping_is_a_transient_error() -> None:
    """When the server goes away, calls raise a transient ImapError and IDLE returns."""
    with own_dovecot("dovecot-stop") as inst:
        _stopping_is_transient(inst)


def _stopping_is_transient(inst: DovecotInstance) -> None:
    mb = ImapMailbox(
        inst.host, inst.imap, username="pbm", password="secret", security="plain", timeout=1.0
    )
    try:
        assert mb.fetch_new() == []
        t = _later(0.3, inst.stop)
        assert mb.wait(30) is True  # the connection died under IDLE: "maybe new mail"
        t.join()
        with pytest.raises(ImapError) as info:
            mb.fetch_new()
        assert info.value.transient is True
        mb.close()
    finally:
        inst.stop()
