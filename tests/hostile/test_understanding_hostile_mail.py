"""Hostile mail as ``understand()`` meets it (pbm/mail/understand.py), alone and through the
door (``pbm ingest``, the MTA pipe, then the daemon's pass and the real SMTP sender):
encoded-words hiding CR/LF and NULs in From and Subject, a 25 MB body, a bare-LF mail, 5000
MIME parts (side by side and nested), a From with two addresses, and a mail with
``Return-Path: <>`` that claims to be a player's. Each is stored, then answered or refused
clearly; none raises, none stalls (a generous bound per mail), nothing reaches a header
unneutralised, no mail becomes a dead letter. The 25 MB mails are over the door's byte cap:
``understand()`` still reads them within its bound (a door with a larger cap), the pipe
refuses them unread, for the MTA to bounce."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from pbm.mail.understand import Kind, understand
from tests.hostile.conftest import Doors, Wire, eml

OWN = "pbm@example.test"
PLAYER = "player1@example.test"
#: Seconds one mail may take to be understood on a loaded 2-core machine: the 25 MB mail is
#: read in full, the others are small. Generous: the bound is against a stall, not a speed.
BOUND = {"huge": 60.0, "small": 10.0}


def _b64(text: bytes) -> str:
    return base64.b64encode(text).decode()


def _multipart(parts: int) -> bytes:
    """A multipart/mixed of ``parts`` text parts side by side, each one a JOIN."""
    body = b"".join(b"--B\r\nContent-Type: text/plain\r\n\r\nJOIN\r\n" for _ in range(parts))
    return eml(body + b"--B--\r\n", content_type='multipart/mixed; boundary="B"')


def _nested(depth: int) -> bytes:
    """``depth`` multiparts, each inside the one before, a JOIN at the bottom."""
    body = "".join(
        f'--b{i}\r\nContent-Type: multipart/mixed; boundary="b{i + 1}"\r\n\r\n'
        for i in range(depth)
    )
    body += f"--b{depth}\r\nContent-Type: text/plain\r\n\r\nJOIN\r\n"
    return eml(body, content_type='multipart/mixed; boundary="b0"')


def _bare_lf() -> bytes:
    """A mail whose every line ends in LF alone (as a Unix MTA may hand it over)."""
    return (
        f"From: {PLAYER}\nTo: {OWN}\nSubject: [DEMO] join\nMessage-ID: <lf@example.test>\n"
        "Date: Thu, 01 Jan 2026 09:00:00 +0000\nMIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=utf-8\n\nJOIN\n"
    ).encode()


def _with_headers(first: list[str], body: bytes = b"JOIN\r\n") -> bytes:
    """A mail with ``first`` as its first headers, written byte for byte."""
    rest = [f"To: {OWN}", "Message-ID: <h@example.test>", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8"]  # fmt: skip
    return ("\r\n".join([*first, *rest]) + "\r\n\r\n").encode() + body


@dataclass(frozen=True)
class Case:
    """A hostile mail, what ``understand()`` must say it is, and what the door must do."""

    make: Callable[[], bytes]
    kind: Kind
    reason: str  # a part of the reason given ("" for a player's mail)
    answered: bool  # whether the sender gets a reply
    status: str  # the stored mail's status after the pass
    size: str = "small"


CASES = {
    "encoded CR/LF in From and Subject": Case(
        lambda: _with_headers([
            "From: =?utf-8?q?Evil=0D=0ABcc=3A_x=40evil=2Etest?= <player1@example.test>",
            "Subject: [DEMO] =?utf-8?b?" + _b64(b"join\r\nBcc: v@third.test") + "?=",
        ]),
        Kind.PLAYER, "", True, "applied",
    ),
    "encoded NULs in From and Subject": Case(
        lambda: _with_headers([
            "From: =?utf-8?q?a=00b?= <player1@example.test>",
            "Subject: [DEMO] =?utf-8?q?jo=00in=0A=00Cc=3A_v=40third=2Etest?=",
        ]),
        Kind.PLAYER, "", True, "applied",
    ),
    "a 25 MB body of short lines": Case(
        lambda: eml(b"JOIN\n" + (b"x" * 76 + b"\n") * (25 * 1024 * 1024 // 77)),
        Kind.REFUSED, "too long", True, "rejected", "huge",
    ),
    "a 25 MB body in one line": Case(
        lambda: eml(b"JOIN " + b"x" * (25 * 1024 * 1024) + b"\n"),
        Kind.PLAYER, "", True, "applied", "huge",
    ),
    "a bare-LF mail": Case(_bare_lf, Kind.PLAYER, "", True, "applied"),
    "5000 MIME parts side by side": Case(
        lambda: _multipart(5000), Kind.REFUSED, "too long", True, "rejected"
    ),
    "5000 MIME parts nested": Case(
        lambda: _nested(5000), Kind.REFUSED, "too many MIME parts", True, "rejected"
    ),
    "a From with two addresses": Case(
        lambda: eml(frm="player1@example.test, player2@example.test"),
        Kind.AUTOMATIC, "From refused", False, "ignored",
    ),
    "two From headers": Case(
        lambda: eml(headers=[("From", "player2@example.test")]),
        Kind.AUTOMATIC, "more than one From", False, "ignored",
    ),
    "Return-Path <> claiming to be a player's": Case(
        lambda: _with_headers(["Return-Path: <>", f"From: {PLAYER}", "Subject: [DEMO] join"]),
        Kind.AUTOMATIC, "Return-Path", False, "ignored",
    ),
}  # fmt: skip


def _clean(text: str | None) -> bool:
    """No line break and no NUL: the text cannot start a header of its own."""
    return text is None or not any(c in text for c in "\r\n\x00")


@pytest.mark.parametrize("name", list(CASES))
def test_understand_says_what_each_hostile_mail_is_within_a_bound(name: str) -> None:
    """``understand()`` never raises, answers within the bound, gives the expected kind and
    reason, and hands on a sender and a subject that hold no line break and no NUL."""
    case = CASES[name]
    raw = case.make()
    started = time.perf_counter()
    got = understand(raw, own_address=OWN, envelope_from=PLAYER, envelope_to=[OWN])
    assert time.perf_counter() - started < BOUND[case.size]
    assert got.kind is case.kind, got.reason
    assert case.reason in got.reason
    assert _clean(got.email.from_addr) and _clean(got.email.subject)
    assert got.sender in ("", PLAYER)


def _head(wire: Wire) -> bytes:
    return wire.data.split(b"\r\n\r\n", 1)[0]


#: The 25 MB mails are over the pipe's cap (``[smtp_listener] max_size``, 1 MiB here).
DOOR_CASES = list(CASES)


@pytest.mark.parametrize("name", DOOR_CASES)
def test_each_hostile_mail_through_the_door_is_stored_and_answered_or_refused(
    doors: Doors, demo: str, name: str
) -> None:
    """Through ``pbm ingest`` and a daemon pass, within the bound: the mail is stored and
    ends handled, refused or ignored (never a dead letter); a reply, if any, goes to the
    player alone, with one Subject line, no Bcc or Cc, and no NUL in its headers. A mail
    over the cap is refused by the pipe (exit 65) within the small mails' bound, unstored."""
    case = CASES[name]
    raw = case.make()
    started = time.perf_counter()
    if case.size == "huge":  # refused unread, one line for the MTA's bounce; nothing stored
        said = doors.ingest(raw, "--sender", PLAYER, status=65).output
        assert "message too big" in said and "1048576" in said
        assert doors.run() == [] and doors.inbound() == []
        assert time.perf_counter() - started < BOUND["small"]
        return
    doors.ingest(raw, "--sender", PLAYER)
    wires = doors.run()
    assert time.perf_counter() - started < 2 * BOUND[case.size]
    [mail] = doors.inbound()
    assert mail.status == case.status, mail.note
    if not case.answered:
        assert wires == []
        return
    [wire] = wires
    assert wire.rcpt_tos == [PLAYER]
    head = _head(wire)
    assert b"\x00" not in head and b"\nBcc:" not in head and b"\nCc:" not in head
    msg = wire.msg
    assert msg["Bcc"] is None and msg["Cc"] is None and str(msg["To"]) == PLAYER
    assert _clean(str(msg["Subject"]))
    if case.kind is Kind.REFUSED:
        assert "pbm reads at most" in " ".join(wire.text.split()), wire.text
