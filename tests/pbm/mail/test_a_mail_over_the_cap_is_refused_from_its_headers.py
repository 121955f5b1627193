"""What a door keeps of a mail over the byte cap (its stand-in), and how it is understood: one
answer that names the limit and nothing the sender wrote, none for automatic mail, and the
same key as the whole mail would have had; the cap is one setting for every door."""

from __future__ import annotations

from pathlib import Path

from pbm.core.config import parse_config
from pbm.inbound.intake import message_key
from pbm.mail.limits import HEAD_BYTES, MAX_MAIL_BYTES, Oversize, oversize, stand_in
from pbm.mail.understand import Kind, understand
from pbm.mail.verp import verp_address
from tests.pbm.conftest import config_data

OWN = "pbm@example.test"
KEY = "s" * 32  # [security] secret_key, which signs a door's stand-in
OVER = Oversize(3_000_000, 1_048_576, "on the IMAP server, in the folder Processed")
HEAD = (
    b"From: Cam <cam@example.test>\r\n"
    b"To: pbm@example.test\r\n"
    b"Subject: =?utf-8?q?orders=0D=0ABcc:_victim@evil.test?=\r\n"
    b"Message-ID: <video@example.test>\r\n"
    b"Content-Type: multipart/mixed; boundary=zz\r\n\r\n"
)


def test_a_persons_stand_in_gets_one_answer_naming_only_the_limit() -> None:
    """A person's stand-in is refused and answered with the size, the limit and what to do;
    the answer holds nothing of the Subject; the note tells the GM where the mail is."""
    mail_is = understand(stand_in(HEAD, OVER, KEY), own_address=OWN, keys=KEY)
    assert mail_is.kind is Kind.REFUSED and mail_is.refusal is not None
    answer = mail_is.refusal.answer
    assert answer is not None
    assert "3000000 bytes" in answer and "1048576 bytes" in answer and "plain text" in answer
    assert "orders" not in answer.replace("your orders", "") and "victim" not in answer
    assert mail_is.refusal.status == "rejected"
    assert "in the folder Processed" in mail_is.refusal.note


def test_automatic_mail_and_a_null_sender_over_the_cap_get_no_answer() -> None:
    """An auto-reply's, a mailing list's and a null reverse-path's stand-ins are refused
    silently (ignored, the reason in the note), as their whole mail would never be answered."""
    for extra, envelope in (
        (b"Auto-Submitted: auto-replied\r\n", None),
        (b"List-Id: <games.example.test>\r\n", None),
        (b"", "<>"),
    ):
        raw = stand_in(extra + HEAD, OVER, KEY)
        mail_is = understand(raw, own_address=OWN, envelope_from=envelope, keys=KEY)
        assert mail_is.kind is Kind.REFUSED and mail_is.refusal is not None
        assert mail_is.refusal.answer is None and mail_is.refusal.status == "ignored"
        assert (
            mail_is.refusal.note.startswith("too big (") and "not answered" in mail_is.refusal.note
        )


def test_a_delivery_report_over_the_cap_is_still_a_report_from_its_headers() -> None:
    """A report of pbm's own mail (to its VERP address) that quotes a big attachment back is
    over the cap; its headers alone say it is a report, for the outbox row it names (its
    status part unread, so counted as soft), never answered."""
    key = "k" * 32
    head = (
        "From: MAILER-DAEMON@mx.example.test\r\n"
        f"To: {verp_address(OWN, key, 7)}\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "Content-Type: multipart/report; report-type=delivery-status; boundary=q\r\n\r\n"
    ).encode()
    mail_is = understand(stand_in(head, OVER, key), own_address=OWN, keys=key)
    assert mail_is.kind is Kind.BOUNCE and mail_is.refusal is None


def test_the_stand_in_keeps_the_mails_key_and_drops_a_forged_size() -> None:
    """The stand-in's key is the whole mail's (a second fetch is stored once); a sender's
    own X-Pbm-Oversize field is dropped, so the size told is the door's; a header block
    larger than HEAD_BYTES is cut at a line end."""
    whole = HEAD + b"--zz\r\n" + b"x" * 100 + b"\r\n--zz--\r\n"
    forged = b"X-Pbm-Oversize: 1 0 nowhere\r\n\tfolded\r\n" + HEAD
    raw = stand_in(forged, OVER, KEY)
    assert message_key(raw) == message_key(whole) == "<video@example.test>"
    assert oversize(raw, KEY) == OVER
    assert raw.count(b"X-Pbm-Oversize") == 1 and b"folded" not in raw
    fields = b"From: cam@example.test\r\n" + b"".join(
        b"X-N%d: %s\r\n" % (i, b"n" * 60) for i in range(2000)
    )
    assert not fields[:HEAD_BYTES].endswith(b"\r\n")  # the cap falls inside a line
    cut = stand_in(fields, OVER, KEY)
    assert len(cut) < HEAD_BYTES + 1000
    lines = [line for line in cut.split(b"\r\n") if line]
    assert all(line.startswith((b"X-N", b"X-Pbm", b"From", b"pbm did")) for line in lines)
    assert lines[-2].endswith(b": " + b"n" * 60)  # the last field kept is whole


def test_mail_that_is_not_a_stand_in_is_read_as_before() -> None:
    """A sender's mail that merely holds the field lower down is no stand-in."""
    raw = HEAD.replace(b"To:", b"X-Pbm-Oversize: 9 1 x\r\nTo:") + b"JOIN\r\n"
    assert oversize(raw, KEY) is None


def test_the_listeners_max_size_is_every_doors_cap(tmp_path: Path) -> None:
    """``[smtp_listener] max_size`` is the cap of every door, read even with the listener
    off; by default it is 1 MiB."""
    db = f"sqlite:///{tmp_path}/pbm.sqlite3"
    off = {"enabled": False, "max_size": 2_000_000}
    imap = {"host": "imap.example.test", "username": "pbm", "password": "pw"}
    config = parse_config(config_data(db, tmp_path, smtp_listener=off, imap=imap), env={})
    assert config.listener is None and config.max_mail_bytes == 2_000_000
    on = parse_config(config_data(db, tmp_path), env={})
    assert on.listener is not None and on.max_mail_bytes == on.listener.max_size
    assert on.max_mail_bytes == MAX_MAIL_BYTES == 1_048_576
