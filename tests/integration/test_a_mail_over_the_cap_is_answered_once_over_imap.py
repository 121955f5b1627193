"""A mail over the byte cap, through the IMAP door of a real Dovecot: only its headers are
fetched, its sender gets one answer that says the limit, the GM sees it in the digest, it is
moved off the INBOX, and nothing of the kind happens to mail under the cap; a server that
gives no size still has no mail over the cap read whole (V4 finding 4)."""

from __future__ import annotations

import tracemalloc
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any, TypeVar

import pytest
from imapclient import IMAPClient
from sqlalchemy import select

from pbm.app import App
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.db.models import InboundMail
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.mail.imap import ImapMailbox
from pbm.mail.smtp import SmtpSender
from pbm.ops.digest import digest_context
from pbm.testing import body_of, make_eml
from tests.services import DovecotInstance, SmtpSink, own_dovecot, post_office_config

pytestmark = pytest.mark.services

CAP = 1_048_576
M = TypeVar("M", bound=ImapMailbox)
#: An encoded-word that decodes to a line break and a Bcc field: hostile, as any Subject.
HOSTILE_SUBJECT = "=?utf-8?q?my_orders=0D=0ABcc:_victim@evil.test?="


@pytest.fixture(scope="module")
def server() -> Iterator[DovecotInstance]:
    """This module's own Dovecot: its INBOX holds only this module's mail."""
    with own_dovecot("dovecot-cap") as inst:
        yield inst


class RecordingMailbox(ImapMailbox):
    """The real door, on the real server, keeping a note of every FETCH it asks for."""

    fetched: list[tuple[list[int], list[bytes]]]

    def _connect(self) -> Any:
        client = super()._connect()
        real = client.fetch

        def fetch(messages: Any, data: Any, *args: Any, **kwargs: Any) -> Any:
            self.fetched.append(([int(m) for m in messages], [bytes(d) for d in data]))
            return real(messages, data, *args, **kwargs)

        client.fetch = fetch
        return client


def mailbox(server: DovecotInstance, app: App) -> RecordingMailbox:
    """The recording door, signing its stand-ins under ``app``'s key as the App's own does."""
    mb = door(server, RecordingMailbox, stand_in_key=app.config.security.secret_key)
    mb.fetched = []
    return mb


def door(server: DovecotInstance, cls: type[M], **options: Any) -> M:
    """The IMAP door as user pbm, over plain IMAP, with ``options``."""
    return cls(
        server.host, server.imap, username="pbm", password="secret", security="plain", **options
    )


def big_mail(message_id: str, *, headers: dict[str, str] | None = None) -> bytes:
    """A 3 MB mail: a line of orders and a video attached, with a hostile Subject."""
    msg = EmailMessage()
    msg["From"] = "cam@example.test"
    msg["To"] = "pbm@example.test"
    msg["Message-ID"] = message_id
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content("JOIN\n")
    msg.add_attachment(b"\x00\x01video" * 330_000, "video", "mp4", filename="over.mp4")
    raw = msg.as_bytes().replace(b"\n", b"\r\n")
    # the Subject as a hostile client writes it (the email package would re-encode it)
    raw = raw.replace(b"\r\n", f"\r\nSubject: {HOSTILE_SUBJECT}\r\n".encode(), 1)
    assert len(raw) > 3_000_000
    return raw


def uids_in(server: DovecotInstance, folder: str) -> list[int]:
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login("pbm", "secret")
    c.select_folder(folder)
    found = sorted(int(u) for u in c.search(["NOT", "DELETED"]))
    c.logout()
    return found


def back_to_inbox(server: DovecotInstance) -> None:
    """Put what pbm moved to Processed back in the INBOX (as after a restore)."""
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login("pbm", "secret")
    c.select_folder("Processed")
    c.move(c.search(["ALL"]), "INBOX")
    c.logout()


@pytest.fixture
def app(server: DovecotInstance, smtp_sink: SmtpSink, tmp_path: Path) -> Iterator[App]:
    config = parse_config(
        post_office_config(f"sqlite:///{tmp_path}/pbm.sqlite3", smtp_sink.port, server),
        env={},
    )
    assert config.max_mail_bytes == CAP  # the listener's default, every door's cap
    made = App.from_config(config, upgrade=True)
    with transaction(made.sessions) as s:
        create_competition(
            s,
            made.clock,
            code="DEMO",
            name="Demo Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2099, 1, 1, tzinfo=UTC),
            seed="cap",
        )
    yield made
    made.close()


def test_a_big_mail_is_answered_once_and_never_fetched_whole(
    server: DovecotInstance, smtp_sink: SmtpSink, app: App
) -> None:
    """A 3 MB mail from a person, a 3 MB auto-reply and a small JOIN land in the INBOX. One
    pass: the door asks for the big ones' headers only, never their BODY[]; the person gets
    one reply (the limit, nothing read, send plain text; no Bcc, the Subject only as every reply
    quotes it), the
    auto-reply none, the JOIN its welcome; all three leave the
    INBOX, and the digest names both big ones. Put back and fetched again, neither is
    answered again."""
    person = f"<big-{uuid.uuid4().hex}@example.test>"
    auto = f"<auto-{uuid.uuid4().hex}@example.test>"
    server.deliver(big_mail(person), mail_from="cam@example.test")
    server.deliver(
        big_mail(auto, headers={"Auto-Submitted": "auto-replied"}), mail_from="cam@example.test"
    )
    join = make_eml("JOIN\n", sender="p2@example.test", subject="[DEMO] in")
    server.deliver(join, mail_from="p2@example.test")
    big_uids = uids_in(server, "INBOX")[:2]

    mb = mailbox(server, app)
    sender = SmtpSender("127.0.0.1", smtp_sink.port, security="plain")
    daemon = Daemon(app, sender, [mb])
    try:
        stats = daemon.run_once()
        assert stats.fetched == 3
        whole = {u for uids, items in mb.fetched if b"BODY.PEEK[]" in items for u in uids}
        headers = {u for uids, items in mb.fetched for i in items if b"[HEADER]" in i for u in uids}
        assert not whole & set(big_uids)
        assert headers == set(big_uids)

        replies = smtp_sink.wait_for(2, 60)
        assert len(replies) == 2
        by_rcpt = {tuple(e.rcpt_tos): e for e in replies}
        assert set(by_rcpt) == {("cam@example.test",), ("p2@example.test",)}
        answer = smtp_sink.reply(
            1 + [tuple(e.rcpt_tos) for e in replies].index(("cam@example.test",))
        )
        text = body_of(answer)
        assert "1048576 bytes" in text and "none of it was read" in text
        assert "plain text" in text
        # the Subject is quoted as every reply quotes it: one line, neutralised, no field
        assert answer["Bcc"] is None and "\n" not in str(answer["Subject"])
        assert "victim" not in text and "my orders" not in text

        with transaction(app.sessions) as s:
            rows = {m.key: m for m in s.scalars(select(InboundMail))}
            assert rows[person].status == "rejected"
            assert rows[auto].status == "ignored"
            assert (rows[person].note or "").startswith("too big (3")
            assert len(rows[person].raw) < 2000
            joined = [r for r in rows.values() if r.status == "applied"]
            assert len(joined) == 1 and b"\nJOIN" in joined[0].raw.replace(b"\r\n", b"\n")
            assert not joined[0].raw.startswith(b"X-Pbm-Oversize")
            digest = digest_context(s, app.clock)
        assert [m["answered"] for m in digest["too_big"]] == [True, False]

        assert uids_in(server, "INBOX") == []
        assert len(uids_in(server, "Processed")) == 3

        daemon.run_once()  # nothing new on the server
        back_to_inbox(server)
        daemon.run_once()  # all three again: the same keys, stored once, answered once
        assert len(smtp_sink.wait_for(3, 2)) == 2
    finally:
        mb.close()
        sender.close()


def test_the_door_holds_no_more_than_the_headers_of_a_big_mail(server: DovecotInstance) -> None:
    """The door's fetch of a 3 MB mail allocates a small part of its size (its stand-in), and
    the next fetch of a mail exactly at the cap still hands it out whole, byte for byte."""
    folder = "cap" + uuid.uuid4().hex[:8]
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login("pbm", "secret")
    c.create_folder(folder)
    c.append(folder, big_mail(f"<m-{uuid.uuid4().hex}@example.test>"))
    mb = door(server, ImapMailbox, folder=folder, max_size=CAP)
    try:
        mb.connect()
        tracemalloc.start()
        got = mb.fetch_new()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert len(got) == 1 and got[0].raw.startswith(b"X-Pbm-Oversize: ")
        assert len(got[0].raw) < 2000
        assert peak < 256 * 1024

        under = make_eml("x" * 1000 + "\n", subject="under").replace(b"\n", b"\r\n")
        under = under + b"y" * (CAP - len(under) - 2) + b"\r\n"
        assert len(under) == CAP
        c.append(folder, under)
        again = mb.fetch_new()
    finally:
        mb.close()
        c.logout()
    assert [m.raw.startswith(b"X-Pbm-Oversize: ") for m in again] == [True, False]
    assert again[1].raw == under


def test_one_fetch_holds_at_most_its_batch_bytes_of_whole_mail(server: DovecotInstance) -> None:
    """Three mails of 400 KB under a 1 MB batch: one fetch hands out two (and the stand-in
    of a big one among them, which costs no batch bytes), ``wait`` says at once that more
    is there, and the next fetch, once those are processed, hands out the third."""
    folder = "batch" + uuid.uuid4().hex[:8]
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login("pbm", "secret")
    c.create_folder(folder)
    mails = [make_eml("HELP\n" + "z" * 400_000 + "\n", subject=f"m{i}") for i in range(3)]
    c.append(folder, mails[0])
    c.append(folder, big_mail(f"<b-{uuid.uuid4().hex}@example.test>"))
    c.append(folder, mails[1])
    c.append(folder, mails[2])
    c.logout()
    mb = door(
        server, ImapMailbox, folder=folder, batch_bytes=CAP, defer_moves=False, hot_poll_interval=0
    )
    try:
        first = mb.fetch_new()
        assert [m.raw.startswith(b"X-Pbm-Oversize: ") for m in first] == [False, True, False]
        assert mb.wait(0.5)
        for m in first:
            mb.mark_processed(m.uid)
        second = mb.fetch_new()
    finally:
        mb.close()
    assert len(second) == 1 and second[0].raw.replace(b"\r\n", b"\n") == mails[2]


class SizelessMailbox(RecordingMailbox):
    """The recording door, whose answers lack ``RFC822.SIZE`` (as a server that gives none)."""

    def _connect(self) -> Any:
        client = super()._connect()
        recorded = client.fetch

        def fetch(*args: Any, **kwargs: Any) -> Any:
            got = recorded(*args, **kwargs)
            for item in got.values():
                item.pop(b"RFC822.SIZE", None)
            return got

        client.fetch = fetch
        return client


def test_a_server_that_gives_no_size_has_no_mail_over_the_cap_read_whole(
    server: DovecotInstance,
) -> None:
    """A 3 MB mail and one exactly at the cap, from a server that gives no sizes: the door
    reads each up to the cap and one byte, never whole beyond it; the big one comes as a
    stand-in from its headers, the other whole, byte for byte."""
    folder = "nosize" + uuid.uuid4().hex[:8]
    c = IMAPClient(server.host, port=server.imap, ssl=False, timeout=10)
    c.login("pbm", "secret")
    c.create_folder(folder)
    c.append(folder, big_mail(f"<n-{uuid.uuid4().hex}@example.test>"))
    under = make_eml("x" * 1000 + "\n", subject="under").replace(b"\n", b"\r\n")
    under = under + b"y" * (CAP - len(under) - 2) + b"\r\n"
    c.append(folder, under)
    c.logout()
    mb = door(server, SizelessMailbox, folder=folder, max_size=CAP, hot_poll_interval=0)
    mb.fetched = []
    try:
        got = mb.fetch_new()
    finally:
        mb.close()
    assert [m.raw.startswith(b"X-Pbm-Oversize: ") for m in got] == [True, False]
    assert len(got[0].raw) < 2000
    assert got[1].raw == under
    asked = [item for _, items in mb.fetched for item in items]
    assert b"BODY.PEEK[]" not in asked
    assert b"BODY.PEEK[]<0.%d>" % (CAP + 1) in asked
