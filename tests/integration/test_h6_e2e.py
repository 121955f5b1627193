"""Hit for Six by mail, end to end: mail lands in Dovecot by LMTP, the daemon reads it over
IMAP on a controlled clock (one ``run_once`` per step), and its replies are read at the
aiosmtpd sink. Test by Post to its champion, solo deals, the Daily XI, a challenge, and a week
of The Averages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from engine.hitforsix.code import encode, replay
from engine.hitforsix.deal import daily_seed, deal
from engine.hitforsix.game import play_solo
from engine.hitforsix.over import Decisions
from engine.hitforsix.post import replay_code, verify, wire_seed
from engine.hitforsix.testmatch import auto_seat
from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.db.models import InboundMail
from pbm.db.session import transaction
from pbm.games.hitforsix import post
from pbm.games.hitforsix.averages import day_statements, season_table
from pbm.games.hitforsix.decks.load import load_deck
from pbm.games.hitforsix.models import H6Seat
from pbm.mail.imap import ImapMailbox
from pbm.mail.smtp import SmtpSender
from pbm.testing import body_of, make_eml, run_pass
from tests.services import DovecotInstance, SmtpSink, own_dovecot, post_office_config

pytestmark = [pytest.mark.services, pytest.mark.slow]

A, B, C = "ann@example.test", "bob@example.test", "cat@example.test"
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
WIRE_RE = re.compile(r"\[H6 ([A-Z0-9]{6})\]")
TICKET_RE = re.compile(r"YOUR SEAT TICKET: (\S+)")
GAME_RE = re.compile(r"^H6GAME .*$", re.MULTILINE)
INSTRUCTIONS = (
    "drop the 3 lowest runs; then if 11 comes, keep him, else drop the lowest average\n"
    "then drop the fewest sixes"
)


@pytest.fixture(scope="module")
def server() -> Iterator[DovecotInstance]:
    """A Dovecot of this module's own, so no other test's mail sits in pbm's INBOX."""
    with own_dovecot("dovecot-h6") as inst:
        yield inst


class Post:
    """A daemon on its own database and a FixedClock: mail in by LMTP, one pass, replies out."""

    def __init__(self, server: DovecotInstance, sink: SmtpSink, tmp_path: Path) -> None:
        config = parse_config(
            post_office_config(
                f"sqlite:///{tmp_path}/pbm.sqlite3",
                sink.port,
                server,
                rate_limit={"per_hour": 1000},
            ),
            env={},
        )
        self.server, self.sink = server, sink
        self.clock = FixedClock(START)
        self.app = App.from_config(config, self.clock, upgrade=True)
        self.mailbox = ImapMailbox(
            server.host, server.imap, username="pbm", password="secret", security="plain"
        )
        self.sender = SmtpSender("127.0.0.1", sink.port, security="plain")
        self.daemon = Daemon(self.app, self.sender, [self.mailbox])
        self.seen = len(sink.messages)

    def send(self, sender: str, body: str, subject: str = "Hit for Six") -> None:
        """Deliver a player's mail into pbm's INBOX by LMTP."""
        raw = make_eml(body, sender=sender, subject=subject)
        self.server.deliver(raw, sender)

    def run(self) -> list[EmailMessage]:
        """One daemon pass (and more while mail is due); the mails it sent, in order."""
        run_pass(self.daemon)
        new = self.sink.messages[self.seen :]
        self.seen = len(self.sink.messages)
        out = []
        for env in new:
            msg = message_from_bytes(env.original_content, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out

    def ask(self, sender: str, body: str, subject: str = "Hit for Six") -> EmailMessage:
        """Send one mail and return the one reply it gets (to its sender)."""
        self.send(sender, body, subject)
        (reply,) = self.run()
        assert str(reply["To"]) == sender
        return reply

    def close(self) -> None:
        """Close the doors and the database."""
        self.mailbox.close()
        self.sender.close()
        self.app.close()


@pytest.fixture
def pbm(server: DovecotInstance, smtp_sink: SmtpSink, tmp_path: Path) -> Iterator[Post]:
    """The daemon, closed after the test."""
    p = Post(server, smtp_sink, tmp_path)
    try:
        yield p
    finally:
        p.close()


def _to(mails: list[EmailMessage], who: str) -> list[EmailMessage]:
    return [m for m in mails if str(m["To"]) == who]


def _check_reveal(text: str, wire: str, over: int) -> None:
    """Every receipt in a reveal mail opens with its nonce, from the mail's text alone: the
    text it prints to check with sha256sum carries the seat's decisions and nonce."""
    seats = re.findall(
        r"receipt (\S+)\s+nonce\s+(\S+).*?\n.*?\n    printf '%s' 'h6-receipt:(\w+):(\d+):(\d):"
        r"([0-9,/]*):(\w+)' \| sha256sum",
        text,
    )
    assert len(seats) == 3, text
    for rec, nonce, w, o, seat, decisions, again in seats:
        assert (w, int(o), again) == (wire, over, nonce)
        assert verify(rec, wire, over, int(seat), Decisions.from_text(decisions), nonce)
    assert "DOES NOT" not in text


def test_a_three_seat_test_by_post_to_its_champion(pbm: Post) -> None:
    """Ann answers window by window (wire from the subject tag, ticket on a SECRET line), Bob
    sends conditional instructions, Cat sends nothing and is sealed at each deadline after a
    reminder; the receipts open, and the standings by replay equal the server's."""
    joined = pbm.ask(A, "TEST NEW 3\n")
    wire = WIRE_RE.search(str(joined["Subject"])).group(1)  # type: ignore[union-attr]
    tickets = {A: TICKET_RE.search(body_of(joined)).group(1)}  # type: ignore[union-attr]
    subject = f"Re: {joined['Subject']}"
    pbm.send(B, f"TEST JOIN {wire}\n")
    pbm.send(C, "TEST JOIN\n", subject)  # the wire code from the subject tag
    mails = pbm.run()
    for who in (B, C):
        tickets[who] = TICKET_RE.search(body_of(_to(mails, who)[0])).group(1)  # type: ignore[union-attr]
    assert [len(_to(mails, who)) for who in (A, B, C)] == [1, 2, 2]  # over 1 to every seat
    seed = wire_seed(wire)
    over, champion, last = 1, None, ""
    while champion is None:
        assert over < 60, "no champion"
        windows = auto_seat(seed, over, 0).windows
        answers = [", ".join(str(p) for p in sorted(w)) or "none" for w in windows]
        if len(windows) < 3:
            answers.append("name")
        for k, answer in enumerate(answers):
            reply = pbm.ask(A, f"TEST\nSECRET {tickets[A]}\n{answer}\n", subject)
            kind = "sealed" if k == len(answers) - 1 else f"window {k + 2}"
            assert kind in str(reply["Subject"]), (reply["Subject"], body_of(reply))
        bob = INSTRUCTIONS if over % 2 else "drop 0, 1; name"
        sealed = pbm.ask(B, f"TEST {wire} {tickets[B]}\n{bob}\n")
        assert "sealed" in str(sealed["Subject"]), body_of(sealed)
        receipt = re.search(r"Your receipt:\s+([0-9a-f]{64})", body_of(sealed))
        assert receipt is not None
        pbm.clock.advance(timedelta(hours=37))  # the reminder: a quarter of 48 h is left
        (reminder,) = pbm.run()
        assert str(reminder["To"]) == C and "waiting" in str(reminder["Subject"])
        assert pbm.run() == []  # a reminder runs once
        pbm.clock.advance(timedelta(hours=11))  # the deadline: Cat names the XI she holds
        mails = pbm.run()
        reveal = next(body_of(m) for m in mails if "revealed" in body_of(m))
        assert receipt.group(1) in reveal and "(deadline)" in reveal
        _check_reveal(reveal, wire, over)
        last = reveal
        found = re.search(r"Seat (\d) is champion|You \(seat (\d)\) are champion", reveal)
        champion = int(found.group(1) or found.group(2)) if found else None
        over += 1
    assert re.search(rf"Seat {champion}( \(you\))?: 20 wickets, \d+ runs?, 10 overs won", last)
    code = last.split("on any machine):")[1].split()[0]
    with transaction(pbm.app.sessions) as s:
        by_server = post.standings(s, wire)
        assert replay_code(code, load_deck("t20i"), by_server.players) == by_server
        hashes = [seat.ticket_hash for seat in s.scalars(select(H6Seat))]
        raws = list(s.scalars(select(InboundMail.raw)))
    assert by_server.champion == champion - 1
    assert by_server.standings[champion - 1].overs_won == 10
    for ticket in tickets.values():  # seat tickets: hashed at rest, redacted from stored mail
        assert not any(ticket.encode() in raw for raw in raws)
        assert not any(ticket in h for h in hashes)


def test_deal_daily_and_challenge_by_mail(pbm: Post) -> None:
    """A DEAL played by reply to its grade and code, a DAILY played by instructions, and a
    CHALLENGE of the DEAL's code against its ghost, grade for grade with the engine."""
    dealt = pbm.ask(A, "DEAL\n")
    line = GAME_RE.search(body_of(dealt)).group(0)  # type: ignore[union-attr]
    _, deck, seed, _rule, _ = line.split(maxsplit=4)
    window2 = pbm.ask(A, f"{line}\n0, 1\n", f"Re: {dealt['Subject']}")
    assert "window 2" in str(window2["Subject"])
    line2 = GAME_RE.search(body_of(window2)).group(0)  # type: ignore[union-attr]
    result = pbm.ask(A, f"{line2}\nname\n", f"Re: {window2['Subject']}")
    d = deal(load_deck(deck), int(seed))
    game = play_solo(d, d.rule, Decisions.from_text("0,1"))
    assert f"{game.grade.grade:.1f}" in str(result["Subject"])
    code = encode(game)
    assert code in body_of(result)
    assert replay(code, load_deck(deck)).grade == game.grade

    daily = pbm.ask(B, "DAILY odi\n")
    assert "The Daily XI of 2026-12-01" in body_of(daily)
    line = GAME_RE.search(body_of(daily)).group(0)  # type: ignore[union-attr]
    assert line.split()[2] == str(daily_seed("odi", "2026-12-01"))
    played = pbm.ask(B, f"{line}\n{INSTRUCTIONS}\n")
    assert "your XI grades" in str(played["Subject"]), body_of(played)

    ghost = pbm.ask(C, f"CHALLENGE {code}\n")
    assert "against a ghost" in str(ghost["Subject"])
    line = GAME_RE.search(body_of(ghost)).group(0)  # type: ignore[union-attr]
    again = pbm.ask(C, f"{line}\nname\n")
    mine = play_solo(d, d.rule, Decisions()).grade.tenths  # the dealt XI, graded as the ghost
    expected = "A tie." if mine == game.grade.tenths else (
        "You beat the ghost." if mine > game.grade.tenths else "The ghost wins.")  # fmt: skip
    assert expected in body_of(again)
    ghost = pbm.ask(C, f"CHALLENGE {code}\n")
    line = GAME_RE.search(body_of(ghost)).group(0)  # type: ignore[union-attr]
    window2 = pbm.ask(C, f"{line}\n0, 1\n")
    line = GAME_RE.search(body_of(window2)).group(0)  # type: ignore[union-attr]
    verdict = pbm.ask(C, f"{line}\nname\n")
    assert "A tie." in body_of(verdict)  # the ghost's own XI: grade for grade
    bad = pbm.ask(C, "CHALLENGE not-a-code\n")
    assert "not played" in str(bad["Subject"])


PLAYERS = [f"{n}@example.test" for n in ("ann", "bob", "cat", "dev", "eve")]
NAMES = ["Ann", "Bob", "Cat", "Dev", "Eve"]
DROPS = ["", "0", "0,1,2/11", "3,4/5", "1,2,3/11,12/13"]


def _daily_code(deck: str, day: str, drops: str) -> str:
    d = deal(load_deck(deck), daily_seed(deck, day))
    return encode(play_solo(d, d.rule, Decisions.from_text(drops)))


def test_a_week_of_the_averages_by_mail(pbm: Post) -> None:
    """Five players post a week of dailies on two decks by AVERAGES: each name's number comes
    by return and is redacted from the stored mail; the statements and season table follow."""
    numbers: dict[str, str] = {}
    days = []
    for k in range(7):
        day = pbm.clock.now().date().isoformat()
        days.append(day)
        for deck in ("t20i", "odi"):
            posted = []
            for i, (who, name) in enumerate(zip(PLAYERS, NAMES, strict=True)):
                if name == "Eve" and deck == "odi":
                    continue  # Eve plays one deck only
                code = _daily_code(deck, day, DROPS[(i + k) % len(DROPS)])
                number = f" NUMBER {numbers[name]}" if name in numbers else ""
                pbm.send(who, f"AVERAGES {code} {name}{number}\n")
                posted.append(who)
            mails = pbm.run()
            assert [str(m["To"]) for m in mails] == posted
            for m, name in zip(mails, NAMES, strict=False):
                assert "Entered in The Averages" in body_of(m), body_of(m)
                if found := re.search(r"NUMBER (\d+)", body_of(m)):
                    numbers[name] = found.group(1)
        pbm.clock.advance(timedelta(days=1))
    assert len(set(numbers.values())) == 5
    with transaction(pbm.app.sessions) as s:
        for day in days:
            assert len(day_statements(s, day, "odi")) == 4
            assert len(day_statements(s, day)) == 9
        season = season_table(s, "2026-12")
        assert {e.name for e in season} == set(NAMES)
        for e in season:
            every = [x for d in days for x in day_statements(s, d) if x.name == e.name]
            assert e.tenths == max(x.tenths for x in every)  # only the best day counts
        raws = list(s.scalars(select(InboundMail.raw)))
    assert not any(n.encode() in raw for n in numbers.values() for raw in raws)
    taken = pbm.ask("mallory@example.test", f"AVERAGES {_daily_code('odi', days[-1], '')} Ann\n")
    assert "is taken" in body_of(taken)
