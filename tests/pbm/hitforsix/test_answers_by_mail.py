"""Issue 27 through the mail door (the daemon's store door, RecordingSender): answers are read
as written, every example a mail prints is accepted where it prints it, a reply on top of
the quoted game mail is read, and the results say what to send next."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest

from engine.hitforsix.deal import deal
from pbm.core.clock import FixedClock
from pbm.core.config import ServerConfig
from pbm.daemon import Daemon
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck
from pbm.games.hitforsix.solo import Reply, deal_game, solo_answer
from pbm.outbound.render import render_email
from pbm.testing import Conversation, RecordingSender, body_of
from tests.pbm.hitforsix.mailtext import examples_of, game_line_of

A, B, C, D = "ann@example.test", "bob@example.test", "cat@example.test", "dan@example.test"
TICKET_RE = re.compile(r"YOUR SEAT TICKET: (\S+)")
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _text(reply: Reply) -> str:
    return render_email(
        reply.kind, {"server": ServerConfig(address="pbm@x.test"), **reply.ctx}
    ).text


@pytest.mark.parametrize("deck", DECK_NAMES)
def test_every_example_a_deal_mail_prints_is_accepted_where_it_prints_it(deck: str) -> None:
    """In every window of deals on every deck, each answer the mail prints, sent back under
    its game line, is played without an error: the window moves on or the XI is graded."""
    for seed in range(6):
        mail = deal_game(seed, deck)
        while mail.kind == "h6-deal":
            text = _text(mail)
            examples = examples_of(text)
            assert len(examples) >= 4 and "none" in examples and "name" in examples
            replies = [solo_answer(f"{game_line_of(text)}\n{x}\n", NOW) for x in examples]
            for x, r in zip(examples, replies, strict=True):
                assert r.kind in {"h6-deal", "h6-result"} and not r.ctx.get("errors"), (x, r.ctx)
                if r.kind == "h6-deal":
                    assert r.ctx["window"] == mail.ctx["window"] + 1, x
            mail = replies[0]  # go on by the first example, "drop …" by position


def test_drop_and_names_in_window_1_is_window_1s_answer_and_the_reply_says_so(
    daemon: Daemon, sender: RecordingSender
) -> None:
    """``drop 2, Kohli, AAPA`` (positions, surname, initials) answers window 1 alone: window 2
    follows, the reply says how it was read, and "In came:" names the three just drawn."""
    ann = Conversation(daemon, sender, A)
    [first] = ann.say("DEAL odi\n", subject="a game")
    line = game_line_of(body_of(first))
    seed = int(line.split()[2])
    d = deal(load_deck("odi"), seed)
    surname, initials = d.cards[5].name.split()[-1], d.cards[7].initials
    [second] = ann.say(f"{line}\ndrop 2, {surname}, {initials}\n", subject="Re: a game")
    text = body_of(second)
    assert "window 2" in str(second["Subject"]), text
    assert "read as window 1's answer" in " ".join(text.split())
    assert "In came: " + ", ".join(f"{d.cards[p].name} ({p})" for p in (11, 12, 13)) in " ".join(
        text.split()
    )
    # Window 2: one drop, and "In came:" now names only the man just drawn.
    [third] = ann.say(f"{game_line_of(text)}\n0\n", subject="Re: a game")
    flat = " ".join(body_of(third).split())
    assert f"In came: {d.cards[14].name} (14)" in flat and d.cards[11].name + " (11)" not in flat
    # A selector alone answers the window in play too.
    [done] = ann.say(f"{game_line_of(body_of(third))}\ndrop the lowest average\n",
                     subject="Re: a game")  # fmt: skip
    assert "grades" in str(done["Subject"]), body_of(done)
    # From window 2, steps joined by "then" are instructions for the rest of the over.
    [rest] = ann.say(f"{game_line_of(text)}\ndrop 0; then drop the lowest average\n",
                     subject="Re: a game")  # fmt: skip
    assert "grades" in str(rest["Subject"]), body_of(rest)
    assert "read as instructions for windows 2–3" in " ".join(body_of(rest).split())


def test_a_reply_on_top_of_the_quoted_game_mail_is_read(
    daemon: Daemon, sender: RecordingSender
) -> None:
    """A reply written above the quoted deal mail (its H6GAME line only in the quote) plays
    the answer above; so does a game line typed in lower case."""
    ann = Conversation(daemon, sender, A)
    [first] = ann.say("DEAL\n", subject="a game")
    quoted = "\n".join("> " + ln for ln in body_of(first).splitlines())
    [reply] = ann.say(f"0, 1\n\nOn Tue, Ann's mailer wrote:\n{quoted}\n", subject="Re: a game")
    assert "window 2" in str(reply["Subject"]), body_of(reply)
    assert "names no competition" not in body_of(reply)
    lower = game_line_of(body_of(reply)).replace("H6GAME", "h6game")
    [third] = ann.say(f"{lower}\nnone\n", subject="Re: a game")
    assert "window 3" in str(third["Subject"]), body_of(third)


def test_a_daily_result_prints_the_averages_line_and_a_random_deal_does_not(
    daemon: Daemon, sender: RecordingSender, clock: FixedClock
) -> None:
    """A Daily XI's result prints the AVERAGES line to send, which The Averages accepts as
    sent with a name; a random deal's result invites no post there."""
    ann = Conversation(daemon, sender, A)
    [daily] = ann.say("DAILY\n", subject="today")
    assert "Daily XI" in body_of(daily) and "The Averages" in " ".join(body_of(daily).split())
    [done] = ann.say(f"{game_line_of(body_of(daily))}\nname\n", subject="Re: today")
    text = body_of(done)
    [line] = [ln.strip() for ln in text.splitlines() if ln.startswith("    AVERAGES ")]
    assert line.endswith("<your name>")
    beats = re.search(r"beats (\S+) of 12,375", text)
    assert beats and (int(beats.group(1).replace(",", "")) < 1000 or "," in beats.group(1))
    [entered] = ann.say(line.replace("<your name>", "Ann Able") + "\n", subject="post")
    assert "Entered in The Averages" in body_of(entered), body_of(entered)
    [deal_mail] = ann.say("DEAL\n", subject="another")
    [result] = ann.say(f"{game_line_of(body_of(deal_mail))}\nname\n", subject="Re: another")
    assert "AVERAGES" not in body_of(result) and "CHALLENGE" in body_of(result)
    assert clock.now().date().isoformat() in text


def _latest(sender: RecordingSender, to: str, since: int = 0) -> EmailMessage:
    mine = [m for m in sender.sent[since:] if str(m["To"]) == to]
    assert mine, [str(m["To"]) for m in sender.sent[since:]]
    return mine[-1]


def _answer(example: str, wire: str, ticket: str) -> str:
    return example.replace("<your seat ticket>", ticket)


@pytest.mark.slow
def test_a_three_seat_test_by_post_by_mail_to_its_champion(
    daemon: Daemon, sender: RecordingSender, clock: FixedClock
) -> None:
    """TEST NEW 3 seats 24h, three seats by mail, every answer taken from the examples the
    over mail (or its reminder) prints, in turn: each is accepted where printed; the mails
    name the XI and say "you"; each receipt checks with the text the reveal prints; the
    champion wins exactly ten overs; joining the finished match says it is finished."""
    people = {a: Conversation(daemon, sender, a) for a in (A, B, C)}
    [joined] = people[A].say("TEST NEW 3 seats 24h\n", subject="a Test")
    assert "24 hours" in " ".join(body_of(joined).split())
    wire = re.search(r"\[H6 ([A-Z0-9]{6})\]", str(joined["Subject"])).group(1)  # type: ignore[union-attr]
    tickets = {A: TICKET_RE.findall(body_of(joined))[0]}
    joined_examples = examples_of(body_of(joined))
    assert joined_examples[0] == f"TEST {wire} {tickets[A]}"
    for who in (B, C):
        replies = people[who].say(f"TEST JOIN {wire}\n", subject="me too")
        tickets[who] = TICKET_RE.findall(body_of(replies[0]))[0]
    turn = 0
    reveals: list[str] = []
    everything: list[str] = []
    reminded = False
    for over in range(1, 200):
        clock.advance(timedelta(hours=1))  # each over well inside its day, and the rate limit
        for seat, who in enumerate((A, B, C), start=1):
            mail = _latest(sender, who)
            assert f"over {over}, window 1" in str(mail["Subject"]), str(mail["Subject"])
            if over == 1 and who == C and not reminded:
                clock.advance(timedelta(hours=19))  # a quarter of 24 hours left: the reminder
                before = len(sender.sent)
                daemon.run_once()
                mail = _latest(sender, who, before)
                assert "waiting for you" in str(mail["Subject"])
                reminded = True
            text = body_of(mail)
            assert f"you are seat {seat} of 3" in text or "not sealed yet" in text
            while True:
                examples = [x for x in examples_of(text) if not x.startswith("TEST ")]
                if over == 1 and who == A and mail is not None and turn == 0:
                    pick = joined_examples[1]  # the joined mail's own example, in window 1
                else:
                    pick = examples[turn % len(examples)]
                turn += 1
                got = people[who].say(f"TEST {wire} {tickets[who]}\n{pick}\n",
                                      subject=f"Re: [H6 {wire}] over {over}")  # fmt: skip
                mine = [body_of(m) for m in got]
                assert not any("could not be played" in t for t in mine), (pick, mine)
                assert not any("not played" in str(m["Subject"]) for m in got), (pick, mine)
                sealed = [
                    t for t, m in zip(mine, got, strict=True) if "sealed" in str(m["Subject"])
                ]
                if sealed:
                    flat = " ".join(sealed[0].split())
                    assert "Your XI:" in sealed[0] and "sha256sum" in flat
                    assert f"h6-receipt:{wire}:{over}:{seat}:" in flat
                    break
                text = mine[0]
                assert "window" in str(got[0]["Subject"])
        reveals = [
            t for t in map(body_of, sender.sent) if t.startswith(f"Match {wire}, over {over} (")
        ]
        assert len(reveals) == 3  # one to each seat
        everything += reveals
        if any("champion" in t for t in reveals):
            break
    last = reveals
    for text in last:
        you = int(re.search(r"You\s+are\s+seat\s+(\d)", text).group(1))  # type: ignore[union-attr]
        assert f"Seat {you} (you):" in text
        for receipt, check in re.findall(
            r"receipt ([0-9a-f]{64})\n.*\n.*\n    printf '%s' '([^']+)' \| sha256sum", text
        ):
            assert hashlib.sha256(check.encode()).hexdigest() == receipt
        assert "XI: " in text
    [won] = [t for t in last if "are champion" in " ".join(t.split())]
    assert "10 overs won" in won and re.search(r"\(you\): 20 wickets, \d+ runs?, 10 overs won", won)
    assert any(re.search(r"1 wicket\b|, 1 run,|: \d+ wickets, \d+ runs?, 1 over won", t)
               for t in everything)  # fmt: skip
    assert any("(The Toss" in t for t in everything) <= all(
        "the Rule revealed" in t for t in everything if "(The Toss" in t
    )
    [refused] = Conversation(daemon, sender, D).say(f"TEST JOIN {wire}\n", subject="late")
    assert "is finished" in body_of(refused) and "full" not in body_of(refused)
