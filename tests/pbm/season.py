"""A season by mail, for the tests: a post office (the store door and a recording sender, or
Dovecot and an SMTP sink), players who join, name and send orders, and a GM, on a FixedClock.

The scenario runs a competition from JOIN to champion and checks every stage's mail: each
managed, deliverable team gets exactly one turn report naming the stage, and the GM one digest.
"""

from __future__ import annotations

import contextlib
import re
import smtplib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import select

from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import Competition, Turn, TurnStatus
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.games.flungo.overview import competition_json
from pbm.testing import RecordingSender, body_of, make_eml, run_pass

SECRET_RE = re.compile(r"YOUR SECRET: (\S+)")
GM = "gm@example.test"
GM_SECRET = "gm-secret-horse-battery"


class Post(Protocol):
    """How mail reaches pbm and how its answers are read."""

    def send(self, raw: bytes) -> None: ...

    def sent(self) -> list[EmailMessage]: ...


@dataclass
class StoreDoor:
    """Mail by ``Inbound.store``; answers recorded by a :class:`RecordingSender`."""

    daemon: Daemon
    sender: RecordingSender

    def send(self, raw: bytes) -> None:
        self.daemon.app.inbound.store(raw, "smtp")

    def sent(self) -> list[EmailMessage]:
        return list(self.sender.sent)


@dataclass
class DovecotPost:
    """Mail delivered by LMTP to Dovecot (the daemon fetches it by IMAP); answers sent by SMTP
    to an aiosmtpd sink."""

    host: str
    lmtp: int
    sink: Any

    def send(self, raw: bytes) -> None:
        with smtplib.LMTP(self.host, self.lmtp) as lmtp:
            lmtp.sendmail("someone@example.test", ["pbm@example.test"], raw)

    def sent(self) -> list[EmailMessage]:
        out = []
        for env in self.sink.messages:
            msg = message_from_bytes(env.original_content, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out


@dataclass
class Season:
    """One competition played by mail."""

    daemon: Daemon
    post: Post
    clock: FixedClock
    code: str
    secrets: dict[str, str] = field(default_factory=dict)
    seen: int = 0

    # -- mail ---------------------------------------------------------------------------------

    def pump(self) -> list[EmailMessage]:
        """One daemon pass (and more while mail is due); the mail sent since the last pump."""
        run_pass(self.daemon)
        sent = self.post.sent()
        new, self.seen = sent[self.seen :], len(sent)
        return new

    def mail(self, frm: str, body: str, subject: str | None = None) -> list[EmailMessage]:
        """Send a mail and pump; the answers to ``frm`` (the zine's issues are not answers)."""
        self.post.send(make_eml(body, sender=frm, subject=subject or f"[{self.code}] orders"))
        return [m for m in self.pump() if frm in str(m["To"]) and not is_zine(m)]

    def gm(self, body: str) -> EmailMessage:
        """A GM command by mail; its one answer (other mail of the same pass, like a digest of
        the stage a RESUME let run, is left out)."""
        mail = self.mail(GM, f"SECRET {GM_SECRET}\n{body}\n", subject="gm")
        [answer] = [m for m in mail if "done" in str(m["Subject"])]
        return answer

    def join(self, frm: str, team: str, prefix: str) -> None:
        """JOIN, then name the team and its 18 players ``<prefix> 1`` ... ``<prefix> 18``."""
        [reply] = self.mail(frm, "JOIN\n", subject=f"[{self.code}] join")
        m = SECRET_RE.search(body_of(reply))
        assert m, body_of(reply)
        self.secrets[frm] = m.group(1)
        names = [f"TEAM NAME {team}"] + [f"NAME {i} {prefix} {i}" for i in range(1, 19)]
        [ack] = self.orders(frm, "\n".join(names))
        assert "Squad names received" in str(ack["Subject"]), body_of(ack)

    def orders(self, frm: str, text: str) -> list[EmailMessage]:
        """Orders with the seat's secret; the answers."""
        return self.mail(frm, f"SECRET {self.secrets[frm]}\n{text}\n")

    # -- state --------------------------------------------------------------------------------

    def show(self) -> dict[str, Any]:
        """``pbm gm show --json``'s data."""
        with transaction(self.daemon.app.sessions) as s:
            comp = s.scalars(select(Competition).where(Competition.code == self.code)).one()
            return competition_json(s, comp)

    def deadline(self) -> datetime:
        """The current stage's deadline."""
        turn = self.show()["turn"]
        assert turn is not None
        return datetime.fromisoformat(turn["deadline"])

    def reports(self) -> list[str]:
        """Every stored turn report (the zine's input), in stage order."""
        with transaction(self.daemon.app.sessions) as s:
            comp = s.scalars(select(Competition).where(Competition.code == self.code)).one()
            rows = s.scalars(
                select(Turn.report)
                .where(Turn.competition_id == comp.id, Turn.status == TurnStatus.DONE)
                .order_by(Turn.position)
            )
            return [r for r in rows if r]

    def play_stage(
        self, expect: list[str], on_mail: Callable[[list[EmailMessage]], None] | None = None
    ) -> list[EmailMessage]:
        """Move the clock to the deadline, pump, and check the stage's mail: one turn report
        per address in ``expect`` and one digest to the GM. Returns the stage's mail."""
        stage = self.show()["turn"]["label"]
        self.clock.set(self.deadline())
        everything = self.pump()
        mail = [m for m in everything if not is_zine(m)]
        check_stage_mail(mail, stage, expect)
        issues = sorted(str(m["To"]) for m in everything if is_zine(m))
        assert issues == sorted(expect), (stage, issues)  # and the stage's zine to each
        if on_mail is not None:
            on_mail(mail)
        return mail


def is_zine(m: EmailMessage) -> bool:
    """Whether ``m`` is an issue of the zine (mailed after every stage beside the reports)."""
    return "Gazette" in str(m["Subject"])


def check_stage_mail(mail: list[EmailMessage], stage: str, expect: list[str]) -> None:
    """Exactly one turn report per expected address, naming ``stage`` and ending with what pbm
    will play (unless the competition is over); one digest for the GM."""
    reports = [
        m for m in mail if "(issue" in str(m["Subject"]) and "Digest" not in str(m["Subject"])
    ]
    to = sorted(str(m["To"]) for m in reports)
    assert to == sorted(expect), (stage, to, [str(m["Subject"]) for m in mail])
    for m in reports:
        body = body_of(m)
        assert f"{stage} has been played" in body, body[:300]
        assert "What pbm will play if you send nothing more" in body or "champions" in body
    digests = [m for m in mail if str(m["To"]) == GM and "Digest" in str(m["Subject"])]
    assert len(digests) == 1, [str(m["Subject"]) for m in mail]


def new_competition(
    daemon: Daemon,
    clock: FixedClock,
    *,
    code: str,
    kind: str,
    teams: int,
    settings: dict[str, Any],
    schedule: str = "every 1h",
    seed: str = "season-seed",
) -> None:
    """A T20 competition open for two days."""
    with transaction(daemon.app.sessions) as s:
        create_competition(
            s,
            clock,
            code=code,
            name=f"{code} Cup",
            fmt="t20",
            teams=teams,
            naming_deadline=clock.now() + timedelta(days=2),
            seed=seed,
            kind=kind,
            schedule=schedule,
            settings=settings,
        )


START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


DSN_TEMPLATE = """From: MAILER-DAEMON@mx.example.test
To: pbm@example.test
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn-{n}@mx.example.test>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Your message could not be delivered.
--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.test

Final-Recipient: rfc822; {address}
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 no such user

--B
Content-Type: text/rfc822-headers

Message-ID: {message_id}
To: {address}
Subject: pbm's mail that bounced

--B--
"""

MINI_TEAMS = [
    ("a1@example.test", "Alpha Apes", "Alpha"),
    ("a2@example.test", "Beta Bats", "Beta"),
    ("a3@example.test", "Gamma Gnus", "Gamma"),
    ("a4@example.test", "Delta Dogs", "Delta"),
]


def subjects(mail: list[EmailMessage], to: str) -> list[str]:
    """The subjects of the mails to ``to``."""
    return [str(m["Subject"]) for m in mail if to in str(m["To"])]


def mini_scenario(season: Season) -> dict[str, Any]:
    """The seed's 4-team mini-tournament by mail, JOIN to champion: one team never sends and
    its address bounces, one amends at drinks, the GM extends a deadline, reruns a turn and
    rolls one back. Returns ``pbm gm show --json`` at the end."""
    a1, a2, a3, a4 = (t[0] for t in MINI_TEAMS)
    for address, team, prefix in MINI_TEAMS:
        season.join(address, team, prefix)
    # Full: the draw comes ten minutes later (naming_after_full), with the fixtures mailed.
    season.clock.advance(timedelta(minutes=10))
    mail = season.pump()
    for address, team, _ in MINI_TEAMS:
        [fixtures] = [m for m in mail if address in str(m["To"]) and not is_zine(m)]
        [teams] = [m for m in mail if address in str(m["To"]) and is_zine(m)]
        assert "the teams" in str(teams["Subject"])  # the zine's issue 0, at the draw
        body = body_of(fixtures)
        assert "The fixtures and pitches" in str(fixtures["Subject"])
        assert "Semi-final 1" in body and "Final" in body and "3rd/4th play-off" in body
        assert "pitch" in body.lower() and "Round 1: selection and toss" in body
        assert "What pbm will play if you send nothing more" in body and team in body
    assert season.show()["turn"]["key"] == "R1-select"
    # Selection: two teams choose, two do not.
    [ack] = season.orders(a1, "toss: bowl\ncaptain: Alpha 2\nbatting order: Alpha 1, Alpha 2")
    body = body_of(ack)
    assert "What pbm will play if you send nothing more" in body and "toss: bowl" in body
    assert "captain: Alpha 2" in body and "The next deadline" in body
    season.orders(a2, "toss: bat")
    # Reminders half an hour before the deadline, only to the teams that sent nothing.
    season.clock.set(season.deadline() - timedelta(minutes=30))
    mail = season.pump()
    assert subjects(mail, a1) == subjects(mail, a2) == []
    assert any("Reminder" in s for s in subjects(mail, a3))
    assert any("Reminder" in s for s in subjects(mail, a4))
    # a4's address bounces (the report quotes the reminder pbm sent it, so pbm believes it):
    # pbm stops mailing it, the digest says so, its team plays defaults.
    [reminder] = [m for m in mail if a4 in str(m["To"])]
    dsn = DSN_TEMPLATE.format(n=1, address=a4, message_id=reminder["Message-ID"])
    season.post.send(dsn.encode())
    season.pump()
    # The GM gives everyone another half hour.
    before = season.deadline()
    answer = season.gm(f"EXTEND {season.code} 30m")
    assert "Done" in body_of(answer), body_of(answer)
    assert season.deadline() == before + timedelta(minutes=30)

    def selection_mail(mail: list[EmailMessage]) -> None:
        [rep] = [m for m in mail if a1 in str(m["To"])]
        b = body_of(rep)
        assert "The toss and both XIs" in b and "won the toss" in b
        assert "The dice are committed: SHA-256" in b and "Turn 1" in b
        [digest] = [m for m in mail if str(m["To"]) == GM]
        d = body_of(digest)
        assert "ADDRESS BOUNCES" in d and "nothing sent" in d and "orders in" in d

    three = [a1, a2, a3]
    season.play_stage(three, selection_mail)
    season.play_stage(three)  # turn 1: nobody sends; standing orders and defaults play

    [ack] = season.orders(a1, "Alpha 1 wahoo\nAlpha 2 aggressive")  # at drinks
    assert "Orders received" in str(ack["Subject"]), body_of(ack)

    def drinks_mail(mail: list[EmailMessage]) -> None:
        [rep] = [m for m in mail if a3 in str(m["To"])]
        words = " ".join(body_of(rep).split())  # the sentence is wrapped to fit a phone
        assert "you played on your standing orders and the defaults" in words

    season.play_stage(three, drinks_mail)  # turn 2
    answer = season.gm(f"RERUN {season.code}")
    assert "identical, byte for byte" in body_of(answer), body_of(answer)
    season.play_stage(three)  # turn 3
    reports_before = season.reports()
    answer = season.gm(f"ROLLBACK {season.code}")
    assert "is open again" in body_of(answer), body_of(answer)
    assert season.show()["turn"]["key"] == reports_key(reports_before[-1])
    assert season.reports() == reports_before[:-1]
    while season.show()["turn"] is not None:
        season.play_stage(three)
    final = season.show()
    assert final["phase"] == "finished" and final["champion"]
    assert all(f["result"] for f in final["fixtures"]) and len(final["fixtures"]) == 4
    return final


def reports_key(report_text: str) -> str:
    """The stage key of a stored turn report."""
    from engine.flungo.turn import TurnReport

    return TurnReport.from_text(report_text).stage.key


LEAGUE_TEAMS = [(f"l{i}@example.test", f"League Side {i}", f"Lg{i}") for i in range(1, 7)]


def league_scenario(season: Season) -> dict[str, Any]:
    """A 6-team league by mail, JOIN to champion: most stages on standing orders and
    defaults, one stage run early once every team's orders are in."""
    for address, team, prefix in LEAGUE_TEAMS:
        season.join(address, team, prefix)
    season.clock.advance(timedelta(minutes=10))
    mail = season.pump()
    assert len([m for m in mail if "fixtures" in str(m["Subject"]).lower()]) == 6
    everyone = [a for a, _, _ in LEAGUE_TEAMS]
    # Everyone sends a selection: the stage runs early, 5 minutes after the last of them.
    for address, _, prefix in LEAGUE_TEAMS:
        season.orders(address, f"toss: bowl\ncaptain: {prefix} 1")
    deadline = season.deadline()
    season.clock.advance(timedelta(minutes=5, seconds=1))
    mail = season.pump()
    assert season.clock.now() < deadline
    check_stage_mail(mail, "Round 1: selection and toss", everyone)
    while season.show()["turn"] is not None:
        season.play_stage(everyone)
    final = season.show()
    assert final["phase"] == "finished" and final["champion"] == final["standings"][0]["team"]
    assert len(final["fixtures"]) == 15 and all(f["result"] for f in final["fixtures"])
    return final


@contextlib.contextmanager
def drawn_mini(
    tmp_path: Path, code: str, settings: dict[str, Any], **sections: dict[str, Any]
) -> Iterator[Season]:
    """A mini-tournament ``code`` of the four :data:`MINI_TEAMS`, joined, named and drawn,
    on SQLite in ``tmp_path`` (``sections`` override the test config's tables)."""
    from pbm.app import App
    from tests.pbm.conftest import make_config

    clock = FixedClock(START)
    config = make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path, **sections)
    app = App.from_config(config, clock, upgrade=True)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, code)
    new_competition(daemon, clock, code=code, kind="mini", teams=4, settings=settings)
    for address, team, prefix in MINI_TEAMS:
        s.join(address, team, prefix)
    clock.advance(timedelta(minutes=10))
    s.pump()
    try:
        yield s
    finally:
        app.close()
