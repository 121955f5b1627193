"""Issue 8's attacks, each through pbm's real doors and its real outbound SMTP path."""

from __future__ import annotations

import re

from sqlalchemy import select

from pbm.db.models import Player, Seat
from pbm.db.session import transaction
from tests.hostile.conftest import Doors, Wire, eml

SECRET = re.compile(r"YOUR SECRET: (\S+)")
HEADERS = [
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "Auto-Submitted",
    "X-Auto-Response-Suppress",
    "MIME-Version",
    "Content-Type",
]


def head(wire: Wire) -> bytes:
    """The header block on the wire."""
    return wire.data.split(b"\r\n\r\n", 1)[0]


def join(doors: Doors, frm: str = "player1@example.test") -> str:
    """JOIN DEMO as ``frm`` over SMTP; returns the secret from the one reply."""
    doors.smtp(eml("JOIN\n", frm=frm), mail_from=frm)
    [wire] = doors.run()
    m = SECRET.search(wire.text)
    assert m, wire.text
    return m.group(1)


# -- 1. header injection and relaying --------------------------------------------------------


def test_encoded_crlf_in_message_id_and_subject_reaches_no_third_party(
    doors: Doors, demo: str
) -> None:
    """A JOIN whose Message-ID, Subject, In-Reply-To and References hide CR/LF in
    encoded-words gets one reply, to the sender only, with exactly pbm's headers."""
    raw = eml(
        "JOIN\n",
        frm="attacker@evil.test",
        subject="[DEMO] =?x-bogus?q?a?= =?utf-8?q?=0D=0ACc:_v2@third.test=0D=0A=0D=0ABUY_PILLS?=",
        message_id="<=?utf-8?q?=0D=0ABcc:_victim@third.test?=>",
        headers=[
            ("In-Reply-To", "<=?utf-8?q?=0D=0ABcc:_v3@third.test?=>"),
            ("References", "<ok@example.test> =?utf-8?q?=0D=0ABcc:_v4@third.test?="),
        ],
    )
    assert doors.smtp(raw, mail_from="attacker@evil.test")[0] == 250
    [wire] = doors.run()
    assert wire.rcpt_tos == ["attacker@evil.test"]
    assert wire.mail_from.startswith("pbm+bounce-")
    block = head(wire)
    assert not re.search(rb"(?im)^(bcc|cc|resent-[a-z]+):", block)
    assert b"third.test" not in wire.data.split(b"\r\n\r\n", 1)[1]
    msg = wire.msg
    # the reply has its HTML twin: the Content-Transfer-Encoding is each part's, none at the top
    assert msg.is_multipart()
    assert [k for k in msg if k not in ("In-Reply-To", "References")] == HEADERS
    assert msg["References"] == "<ok@example.test>"
    assert msg["In-Reply-To"] is None
    assert "\n" not in str(msg["Subject"]) and "\r" not in str(msg["Subject"])
    assert "BUY PILLS" in str(msg["Subject"])  # shown as the text it was, in the Subject
    assert "YOUR SECRET" in wire.text


def test_join_through_ingest_with_smuggled_bcc_sends_only_to_the_sender(
    doors: Doors, demo: str
) -> None:
    """The same attack through ``pbm ingest``: the secret goes to the From address alone."""
    raw = eml(
        "JOIN\n",
        frm="victim@example.test",
        message_id="<=?utf-8?q?=0D=0ABcc:_attacker@evil.test?=>",
        subject="=?utf-8?b?W0RFTU9dIGpvaW4NCkJjYzogYXR0YWNrZXJAZXZpbC50ZXN0?=",
    )
    doors.ingest(raw)
    [wire] = doors.run()
    assert wire.rcpt_tos == ["victim@example.test"]
    assert not re.search(rb"(?im)^(bcc|cc):", head(wire))
    assert wire.msg["Bcc"] is None and wire.msg["Cc"] is None


# -- 2. a Latin-1 subject declared as UTF-8 ----------------------------------------------------


def test_latin1_bytes_in_utf8_subject_are_answered_not_dead_lettered(
    doors: Doors, demo: str
) -> None:
    """``=?utf-8?q?Join_=E9quipe?=`` is read as 'Join équipe' and answered."""
    doors.smtp(eml("JOIN\n", subject="[DEMO] =?utf-8?q?Join_=E9quipe?="))
    [wire] = doors.run()
    assert "Join équipe" in str(wire.msg["Subject"])
    assert {m.status for m in doors.inbound()} == {"applied"}


# -- 7. identity confusion in From -------------------------------------------------------------


def test_gm_address_as_display_name_is_refused(doors: Doors, demo: str) -> None:
    """``From: gm@example.test <trick2@evil.test>`` is not the GM: refused, nobody answered."""
    from tests.pbm.conftest import GM_SECRET

    raw = eml(f"SECRET {GM_SECRET}\nDIGEST\n", frm="gm@example.test <trick2@evil.test>")
    doors.smtp(raw, mail_from="trick2@evil.test")
    assert doors.run() == []
    [mail] = doors.inbound()
    assert mail.status == "ignored" and "From refused" in (mail.note or "")


def test_encoded_word_from_makes_no_seat(doors: Doors, demo: str) -> None:
    """A From whose address is an encoded-word trick creates no seat and gets no reply."""
    for frm in ("=?utf-8?q?gm=40example.test_?=_x@evil.test?=", "=?utf-8?q?x?=@evil.test"):
        doors.ingest(eml("JOIN\n", frm=frm))
    assert doors.run() == []
    with transaction(doors.app.sessions) as s:
        assert s.scalars(select(Player)).all() == []


def test_umlaut_addresses_stay_two_players(doors: Doors, demo: str) -> None:
    """``jörg@`` and ``jürg@`` (raw UTF-8, SMTPUTF8) are two players with two seats, and each
    reply goes to its own address."""
    for frm in ("jörg@example.de", "jürg@example.de"):
        doors.ingest(eml("JOIN\n", frm=frm))
    wires = doors.run()
    assert sorted(w.rcpt_tos[0] for w in wires) == ["jörg@example.de", "jürg@example.de"]
    with transaction(doors.app.sessions) as s:
        assert sorted(s.scalars(select(Player.address))) == ["jörg@example.de", "jürg@example.de"]
        assert len(s.scalars(select(Seat)).all()) == 2


# -- 8. deep MIME nesting ----------------------------------------------------------------------


def test_deeply_nested_multipart_is_answered(doors: Doors, demo: str) -> None:
    """980 nested multiparts: the sender is told the mail is too deep, nothing vanishes."""
    depth = 980
    body = "".join(
        f'--b{i}\r\nContent-Type: multipart/mixed; boundary="b{i + 1}"\r\n\r\n'
        for i in range(depth)
    )
    body += f"--b{depth}\r\nContent-Type: text/plain\r\n\r\nJOIN\r\n"
    raw = eml(body, content_type='multipart/mixed; boundary="b0"')
    doors.ingest(raw)
    [wire] = doors.run()
    assert wire.rcpt_tos == ["player1@example.test"]
    assert "nested multipart" in wire.text and "plain text" in wire.text
    [mail] = doors.inbound()
    assert mail.status == "rejected"


# -- 9. the null reverse-path ------------------------------------------------------------------


def test_null_reverse_path_is_never_answered(doors: Doors, demo: str) -> None:
    """``MAIL FROM:<>`` with a normal From and JOIN (by SMTP, and by ingest --sender '')
    gets no reply and takes no seat."""
    assert doors.smtp(eml("JOIN\n"), mail_from="<>")[0] == 250
    doors.ingest(eml("JOIN\n", frm="player2@example.test"), "--sender", "")
    assert doors.run() == []
    assert [m.envelope_from for m in doors.inbound()] == ["<>", "<>"]
    assert {m.status for m in doors.inbound()} == {"ignored"}
    with transaction(doors.app.sessions) as s:
        assert s.scalars(select(Seat)).all() == []
