"""Identity and safety: secrets required and never stored or echoed, no cross-team orders,
no answers to robots, bounces recorded, rate limits, header injection."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import structlog
from sqlalchemy import select

from engine.flungo.squad import Team
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, NamingVersion, OutboxMessage, Player, Seat
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.outbound.replies import queue_mail
from pbm.testing import RecordingSender, body_of, make_eml
from tests.pbm.conftest import GM, GM_SECRET
from tests.pbm.helpers import join, naming_text, say


def _team(daemon: Daemon, number: int, code: str = "DEMO") -> Team:
    with transaction(daemon.app.sessions) as s:
        seats = s.scalars(select(Seat).where(Seat.number == number)).all()
        seat = next(x for x in seats if x.competition.code == code)
        return Team.from_json(seat.team)


def test_forged_sender_without_secret_is_refused(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Right From, no secret: refused, nothing changed."""
    join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, "TEAM Forged\nNAME 1 Forger\n")
    assert "Refused" in str(reply["Subject"])
    assert _team(daemon, 1).name == "Team 1"


def test_forged_sender_with_wrong_secret_is_refused(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Right From, wrong secret: refused, nothing changed."""
    join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, naming_text("AAAA-BBBB-CCCC", team="Forged"))
    assert "does not match" in body_of(reply)
    assert _team(daemon, 1).name == "Team 1"


def test_another_teams_secret_cannot_touch_it(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A player using another seat's secret (from their own or the victim's address) fails
    against their own seat and cannot reach the victim's."""
    victim_secret = join(daemon, sender, "victim@example.test")
    join(daemon, sender, "attacker@example.test")
    [r1] = say(
        daemon, sender, naming_text(victim_secret, team="Pwned"), frm="attacker@example.test"
    )
    assert "Refused" in str(r1["Subject"])
    assert _team(daemon, 1).name == "Team 1" and _team(daemon, 2).name == "Team 2"


def test_orders_to_another_game_are_refused(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A player of DEMO naming with their secret under another game's code has no team there."""
    with transaction(daemon.app.sessions) as s:
        create_competition(
            s,
            daemon.app.clock,
            code="OTHER",
            name="Other",
            fmt="t20",
            teams=2,
            naming_deadline=datetime(2026, 2, 1, tzinfo=UTC),
            seed="o",
        )
    secret = join(daemon, sender, "player1@example.test")
    join(daemon, sender, "someone@example.test", code="OTHER")
    [reply] = say(daemon, sender, naming_text(secret, team="Hijack"), subject="[OTHER] x")
    assert "has no team in OTHER" in body_of(reply)
    assert _team(daemon, 1, "OTHER").name == "Team 1"


def test_secrets_never_stored_or_echoed_in_clear(
    daemon: Daemon, sender: RecordingSender, demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Secrets appear in no outbox row, stored mail, naming version or log line; seats keep
    only an argon2 hash."""
    structlog.configure(processors=[structlog.processors.JSONRenderer()])
    try:
        secret = join(daemon, sender, "player1@example.test")
        say(daemon, sender, naming_text(secret))
        say(daemon, sender, f"SECRET {secret}\nNAME 99 Oops\n")
        say(daemon, sender, f"SECRET {GM_SECRET}\nDIGEST\n", frm=GM, subject="digest")
    finally:
        structlog.reset_defaults()
    assert secret in body_of(sender.sent[0])  # the JOIN reply does carry it, once
    with transaction(daemon.app.sessions) as s:
        blobs = [r.raw for r in s.scalars(select(OutboxMessage))]
        blobs += [m.raw for m in s.scalars(select(InboundMail))]
        blobs += [repr(v.team).encode() for v in s.scalars(select(NamingVersion))]
        seat = s.scalars(select(Seat)).one()
        assert seat.secret_hash.startswith("$argon2id$")
    logs = capsys.readouterr()
    for needle in (secret, secret.replace("-", ""), GM_SECRET):
        assert all(needle.encode() not in b for b in blobs)
        assert needle not in logs.out + logs.err
    later = [body_of(m) for m in sender.sent[1:]]
    assert all(secret not in b and GM_SECRET not in b for b in later)


def test_automatic_mail_gets_no_reply(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """Auto-Submitted, Precedence: bulk, mailer-daemon and our own address are never answered."""
    cases = [
        {"headers": {"Auto-Submitted": "auto-replied"}},
        {"headers": {"Precedence": "bulk"}},
        {"frm": "MAILER-DAEMON@example.test"},
        {"frm": "pbm@example.test"},
    ]
    for kw in cases:
        frm = str(kw.get("frm", "robot@example.test"))
        raw = make_eml("JOIN\n", sender=frm, subject="[DEMO] join", headers=kw.get("headers"))  # type: ignore[arg-type]
        daemon.app.inbound.store(raw, "smtp")
    daemon.run_once()
    assert sender.sent == []
    with transaction(daemon.app.sessions) as s:
        assert {m.status for m in s.scalars(select(InboundMail))} == {"ignored"}


DSN = b"""From: MAILER-DAEMON@mx.example.test
To: pbm@example.test
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn-1@mx.example.test>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Your message could not be delivered.
--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.test

Final-Recipient: rfc822; gone@example.test
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 no such user

--B
Content-Type: text/rfc822-headers

From: pbm@example.test
To: gone@example.test
Message-ID: {mid}

--B--
"""


def test_bounce_marks_address_undeliverable(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A DSN about a mail pbm sent (its Message-ID returned) marks that mail's recipient
    undeliverable, and later mail to it is not sent until the player mails pbm again."""
    join(daemon, sender, "gone@example.test")
    welcome = str(sender.sent[-1]["Message-ID"])
    daemon.app.inbound.store(DSN.replace(b"{mid}", welcome.encode()), "smtp")
    daemon.run_once()
    with transaction(daemon.app.sessions) as s:
        player = s.scalars(select(Player).where(Player.address == "gone@example.test")).one()
        assert player.undeliverable_at is not None
        queue_mail(
            s,
            daemon.app.config,
            daemon.app.clock,
            kind="rate-limited",
            to=player.address,
            ctx={"notes": [], "limit": 1},
        )
    n = len(sender.sent)
    daemon.run_once()
    assert len(sender.sent) == n
    with transaction(daemon.app.sessions) as s:
        last = s.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()
        assert last is not None and last.status == "failed"
    assert len(say(daemon, sender, "HELP\n", frm="gone@example.test", subject="help")) == 1


def test_broken_mime_is_answered(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """A message with broken MIME and a bad charset is answered, not crashed on."""
    raw = (
        b"From: player1@example.test\r\nTo: pbm@example.test\r\nSubject: [DEMO] =?bogus?Q?x?=\r\n"
        b"Message-ID: <broken@example.test>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="never-closed"\r\n\r\n'
        b"--never-closed\r\nContent-Type: text/plain; charset=x-unknown\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\nSk9JTgo=!!!\xff\xfe\r\n"
    )
    daemon.app.inbound.store(raw, "smtp")
    daemon.run_once()
    [reply] = sender.to("player1@example.test")
    assert "could not be read as sent" in body_of(reply)
    with transaction(daemon.app.sessions) as s:
        assert s.scalars(select(InboundMail.status)).one() != "shunted"


def test_rate_limit_replies_once_then_ignores(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Past the hourly limit a sender gets one clear reply, then nothing, until the hour ends."""
    for _ in range(20):
        say(daemon, sender, "HELP\n", subject="help")
    assert len(sender.sent) == 20
    [limited] = say(daemon, sender, "HELP\n", subject="help")
    assert "Too many mails" in str(limited["Subject"])
    assert say(daemon, sender, "HELP\n", subject="help") == []
    daemon.app.clock.advance(3600)  # type: ignore[attr-defined]
    assert len(say(daemon, sender, "HELP\n", subject="help")) == 1


def test_player_text_cannot_inject_headers(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A subject with encoded line breaks yields a reply with no smuggled header."""
    join(daemon, sender, "player1@example.test")
    raw = make_eml("HELP\n", subject="=?utf-8?q?x=0D=0ABcc=3A_victim=40example=2Etest?=")
    daemon.app.inbound.store(raw, "smtp")
    daemon.run_once()
    last = sender.sent[-1]
    assert last["Bcc"] is None
    assert "\n" not in str(last["Subject"])
