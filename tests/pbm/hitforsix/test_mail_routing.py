"""Hit for Six through the daemon's own pipeline (the store door, RecordingSender): HELP lists
the commands, Test by Post routes by wire code (line, subject tag, plus-address), seat tickets
are redacted, and the scheduler runs each over's reminder and deadline once by key."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, JobRun
from pbm.db.session import transaction
from pbm.games.hitforsix import schedule
from pbm.testing import Conversation, RecordingSender, body_of

A, B = "ann@example.test", "bob@example.test"
TICKET_RE = re.compile(r"YOUR SEAT TICKET: (\S+)")


def test_help_lists_the_hit_for_six_commands(daemon: Daemon, sender: RecordingSender) -> None:
    """HELP, sent with no game code, lists every Hit for Six command with its usage."""
    [reply] = Conversation(daemon, sender, A).say("HELP\n", subject="what can I do")
    text = body_of(reply)
    for usage in ("DEAL [deck]", "DAILY [deck]", "CHALLENGE <code>", "TEST NEW", "AVERAGES <code>"):
        assert usage in text, text


def test_a_flungo_code_keeps_its_mail(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """A mail naming a Flungo competition is never read as a Hit for Six command."""
    replies = Conversation(daemon, sender, A).say("DEAL\n", subject=f"[{demo}] deal")
    assert all("Hit for Six" not in str(m["Subject"]) for m in replies)


def _open(daemon: Daemon, sender: RecordingSender) -> tuple[str, dict[str, str]]:
    [joined] = Conversation(daemon, sender, A).say("TEST NEW 2\n", subject="a Test")
    found = re.search(r"\[H6 ([A-Z0-9]{6})\]", str(joined["Subject"]))
    assert found
    wire = found.group(1)
    tickets = {A: TICKET_RE.findall(body_of(joined))[0]}
    # Bob joins by the plus-address alone.
    replies = Conversation(daemon, sender, B).say(
        "TEST JOIN\n", subject="me too", to=f"pbm+h6-{wire.lower()}@example.test"
    )
    assert [str(m["Subject"]).count("over 1") for m in replies] == [0, 1]
    tickets[B] = TICKET_RE.findall(body_of(replies[0]))[0]
    return wire, tickets


def test_routing_and_redaction(daemon: Daemon, sender: RecordingSender, app: App) -> None:
    """Wire code on the line or in the subject tag; ticket on the line or a SECRET line; a
    wrong ticket is refused; no ticket, right or wrong, stays in the stored mail."""
    wire, tickets = _open(daemon, sender)
    ann, bob = Conversation(daemon, sender, A), Conversation(daemon, sender, B)
    wrong = "ABCD-EFGH-JKLM-NPQR"
    [refused] = ann.say(f"TEST {wire} {wrong}\nname\n")
    assert "not a seat ticket" in body_of(refused)
    [empty] = ann.say(f"TEST {wire} {tickets[A]}\n")
    assert "answer was missing" in body_of(empty)
    [sealed] = ann.say(f"TEST\nSECRET {tickets[A]}\nname\n", subject=f"Re: [H6 {wire}] over 1")
    assert "sealed" in str(sealed["Subject"])
    replies = bob.say(f"TEST {wire}\n{tickets[B]}\ndrop 0, 1; name\n")  # the ticket alone
    assert [m["Subject"] for m in replies if "revealed" in body_of(m)], [
        body_of(m) for m in replies
    ]
    assert any("over 1" in str(m["Subject"]) for m in sender.sent if str(m["To"]) == A)
    with transaction(app.sessions) as s:
        raws = list(s.scalars(select(InboundMail.raw)))
    for secret in (*tickets.values(), wrong):
        assert not any(secret.encode() in raw for raw in raws)


def test_reminder_and_deadline_run_once_by_key(
    daemon: Daemon, sender: RecordingSender, app: App, clock: FixedClock
) -> None:
    """The over's reminder (a quarter of its 48 hours left) and deadline are scheduler jobs,
    each run once by key; the next one is what the daemon's wait looks at."""
    wire, _tickets = _open(daemon, sender)
    start = clock.now()
    with transaction(app.sessions) as s:
        assert schedule.next_due(s, start) == start + timedelta(hours=36)
    clock.advance(timedelta(hours=37))
    before = len(sender.sent)
    daemon.run_once()
    assert [str(m["To"]) for m in sender.sent[before:]] == [A, B]  # both reminded
    daemon.run_once()
    assert len(sender.sent) == before + 2  # a job runs once
    with transaction(app.sessions) as s:
        assert schedule.next_due(s, clock.now()) == start + timedelta(hours=48)
    clock.advance(timedelta(minutes=90))  # past the GM's digest hour (23:00): it is sent
    daemon.run_once()
    waiting = Daemon(app, sender, max_wait=10**7)._wait_seconds()
    assert waiting == (start + timedelta(hours=48) - clock.now()).total_seconds()  # 9.5 h
    clock.advance(timedelta(hours=9, minutes=30))
    before = len(sender.sent)
    daemon.run_once()
    daemon.run_once()  # a loaded machine may leave some of the six mails to the next pass
    subjects = [str(m["Subject"]) for m in sender.sent[before:]]
    assert sum("sealed" in x for x in subjects) == 2, subjects
    assert sum("over 2" in x for x in subjects) == 2, subjects
    with transaction(app.sessions) as s:
        keys = set(s.scalars(select(JobRun.key)))
    assert {f"h6-reminder:{wire}:1", f"h6-deadline:{wire}:1"} <= keys


def test_hostile_mail_stays_in_the_body(daemon: Daemon, sender: RecordingSender) -> None:
    """A subject whose encoded word hides a header break, and a name that is markup, reach no
    header of the reply: the subject is cleaned and the name refused."""
    hostile = "[H6 ABCDEF] =?utf-8?q?x=0D=0ABcc=3A_evil=40example=2Etest?="
    [reply] = Conversation(daemon, sender, A).say("TEST ABCDEF ABCD-EFGH-JKLM-NPQR\nname\n",
                                                  subject=hostile)  # fmt: skip
    assert reply["Bcc"] is None and "\n" not in str(reply["Subject"])
    assert "no match ABCDEF" in body_of(reply)
    [named] = Conversation(daemon, sender, B).say("AVERAGES AAAA <script>alert(1)</script>\n")
    assert "not played" in str(named["Subject"]) and "<script>" not in str(named["Subject"])
