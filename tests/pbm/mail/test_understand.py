"""A mail is understood once: :func:`pbm.mail.understand.understand` says what it is, and a
real pass of the pipeline reads the raw bytes with the email parser exactly one time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from pbm.daemon import Daemon
from pbm.db.models import Player
from pbm.db.session import transaction
from pbm.mail.understand import Kind, understand
from pbm.mail.verp import verp_address
from pbm.testing import RecordingSender, make_eml
from tests.pbm.helpers import join, naming_text, say

EML = Path(__file__).resolve().parents[2] / "data" / "eml"
OWN = "pbm@example.org"

#: What each message of the corpus is; every file there is listed, so a new one needs a line.
KINDS = {
    "apple_mail_flowed": Kind.PLAYER,
    "auto_reply_vacation": Kind.AUTOMATIC,
    "base64_utf8_bom": Kind.PLAYER,
    "broken_mime": Kind.PLAYER,
    "dsn_bounce": Kind.BOUNCE,
    "forwarded_orders": Kind.PLAYER,
    "german_gmail": Kind.PLAYER,
    "gm_new_competition": Kind.PLAYER,
    "gmail_reply": Kind.PLAYER,
    "html_only": Kind.PLAYER,
    "inline_reply": Kind.PLAYER,
    "iphone_toppost": Kind.PLAYER,
    "latin1_8bit": Kind.PLAYER,
    "mailing_list": Kind.AUTOMATIC,
    "outlook_german": Kind.PLAYER,
    "outlook_reply": Kind.PLAYER,
    "thunderbird_flowed": Kind.PLAYER,
    "with_attachment": Kind.PLAYER,
    "yahoo_unquoted": Kind.PLAYER,
}


def test_the_table_names_every_message_of_the_corpus() -> None:
    """Each ``tests/data/eml/*.eml`` has its kind in the table below (none left untested)."""
    assert sorted(p.stem for p in EML.glob("*.eml")) == sorted(KINDS)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_corpus_message_is_understood_as_its_kind(name: str) -> None:
    """A real client's mail is a player's, a vacation reply and a list's mail are automatic
    (with the header that says so), a DSN is a bounce naming the failed address."""
    got = understand((EML / f"{name}.eml").read_bytes(), own_address=OWN)
    assert got.kind is KINDS[name]
    assert (got.reason == "") is (got.kind is Kind.PLAYER)
    if got.kind is Kind.BOUNCE:
        assert "gone.player@example.com" in got.reason
    if name == "mailing_list":
        assert got.reason == "Precedence: list"


@pytest.mark.parametrize(
    ("raw", "envelope_from", "kind", "reason"),
    [
        (make_eml("JOIN\n"), None, Kind.PLAYER, ""),
        (make_eml("JOIN\n"), "<>", Kind.REFUSED, "null reverse-path"),
        (make_eml("x\n" * 401), None, Kind.REFUSED, "too long (401 lines)"),
        (make_eml("JOIN\n", sender="mailer-daemon@example.org"), None, Kind.AUTOMATIC, "system"),
        (make_eml("JOIN\n", headers={"Precedence": "bulk"}), None, Kind.AUTOMATIC, "bulk"),
        (b"Subject: no sender\r\n\r\nJOIN\r\n", None, Kind.AUTOMATIC, "no From header"),
    ],
)
def test_screen_and_robots_are_decided_in_the_understanding(
    raw: bytes, envelope_from: str | None, kind: Kind, reason: str
) -> None:
    """A null reverse-path and a mail over a bound are refused there, with the screen's
    answer; a robot's mail is automatic, whatever its body asks."""
    got = understand(raw, own_address=OWN, envelope_from=envelope_from)
    assert got.kind is kind
    assert reason in got.reason
    assert (got.refusal is not None) is (kind is Kind.REFUSED)


def test_an_automatic_mail_to_our_verp_address_is_a_bounce() -> None:
    """A robot's mail to a VERP address pbm made is a report, believed by the address's MAC;
    to a forged one (a wrong key) it is only automatic."""
    ours = verp_address(OWN, "k1", 7)
    raw = make_eml("your mail\n", sender="robot@example.com", headers={"Precedence": "bulk"})
    assert understand(raw, own_address=OWN, envelope_to=(ours,), keys=("k1",)).kind is Kind.BOUNCE
    got = understand(raw, own_address=OWN, envelope_to=(ours,), keys=("k2",))
    assert got.kind is Kind.AUTOMATIC
    assert got.recipients[0] == ours


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[bytes]]:
    """How often the email package's parser was given each byte string (every parse of a
    message, header-only ones too, goes through ``BytesParser.parsebytes``)."""
    counts: Counter[bytes] = Counter()
    real = BytesParser.parsebytes

    def counting(self: BytesParser, text: bytes, headersonly: bool = False) -> Any:
        counts[bytes(text)] += 1
        return real(self, text, headersonly)

    monkeypatch.setattr(BytesParser, "parsebytes", counting)
    yield counts


def test_an_orders_mail_is_parsed_once_on_its_way_through(
    daemon: Daemon, sender: RecordingSender, demo: str, parses: Counter[bytes]
) -> None:
    """Through the store door and a real pass (the join, then the squad naming the game's
    fallback reads as orders), the mail's bytes reach the parser once, and the answer comes."""
    secret = join(daemon, sender, "player1@example.test")
    raw = make_eml(naming_text(secret), subject="[DEMO] names")
    parses.clear()
    daemon.app.inbound.store(raw, "smtp")
    daemon.run_once()
    assert parses[raw] == 1
    assert sender.to("player1@example.test")[-1:]  # answered


def test_a_bounce_is_parsed_once_though_two_modules_read_it(
    daemon: Daemon, sender: RecordingSender, demo: str, parses: Counter[bytes]
) -> None:
    """A delivery report is classified and recorded (its returned Message-ID read from the
    MIME tree) from the one parse of its bytes."""
    say(daemon, sender, "JOIN\n", frm="gone@example.test", subject="[DEMO] join")
    mid = str(sender.sent[-1]["Message-ID"])
    raw = (
        b"From: MAILER-DAEMON@mx.example.test\r\nTo: pbm@example.test\r\n"
        b"Subject: failure\r\nMessage-ID: <dsn1@mx.example.test>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        b"--B\r\nContent-Type: text/plain\r\n\r\ngone\r\n"
        b"--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\n"
        b"Final-Recipient: rfc822; gone@example.test\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n"
        b"--B\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: " + mid.encode() + b"\r\n"
        b"\r\n--B--\r\n"
    )
    parses.clear()
    daemon.app.inbound.store(raw, "smtp")
    daemon.run_once()
    assert parses[raw] == 1
    with transaction(daemon.app.sessions) as s:
        gone = s.scalars(select(Player).where(Player.address == "gone@example.test")).one()
        assert gone.undeliverable_at is not None
