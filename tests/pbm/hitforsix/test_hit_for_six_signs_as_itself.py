"""Hit for Six is its own game by mail: its mail is from "Hit for Six" and signed so, never
Cosmic Celebrity Cricket; HELP from an address that plays only Hit for Six speaks of Hit for
Six alone, and one that plays both games hears of both."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage

from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.testing import Conversation, RecordingSender, body_of
from tests.pbm.helpers import join

A, B = "ann@example.test", "bob@example.test"


def _signed_as_hit_for_six(mail: EmailMessage) -> None:
    assert mail["From"].addresses[0].display_name == "Hit for Six", mail["From"]
    text = body_of(mail)
    assert "Cosmic Celebrity Cricket" not in text, text
    assert "\n-- \nHit for Six (pbm)" in text, text


def _open_match(daemon: Daemon, sender: RecordingSender) -> list[EmailMessage]:
    [joined] = Conversation(daemon, sender, A).say("TEST NEW 2\n", subject="a Test")
    wire = re.search(r"\[H6 ([A-Z0-9]{6})\]", str(joined["Subject"]))
    assert wire
    return [joined, *Conversation(daemon, sender, B).say(f"TEST JOIN {wire.group(1)}\n")]


def test_every_hit_for_six_mail_is_from_and_signed_hit_for_six(
    daemon: Daemon, sender: RecordingSender
) -> None:
    """A solo deal, a refusal, a seat's ticket and the first over (to both seats, one of them
    not the sender) all come from "Hit for Six" and are signed "Hit for Six"."""
    mails = [
        *Conversation(daemon, sender, A).say("DEAL\n", subject="deal me in"),
        *Conversation(daemon, sender, A).say("CHALLENGE\n"),
        *_open_match(daemon, sender),
    ]
    assert len(mails) == 5
    for mail in mails:
        _signed_as_hit_for_six(mail)


def test_the_schedulers_hit_for_six_mail_is_from_and_signed_hit_for_six(
    daemon: Daemon, sender: RecordingSender, clock: FixedClock
) -> None:
    """The mail no player's mail caused (an over's reminder to both seats, then the sealed
    over and the next over at its deadline) is from and signed "Hit for Six" too."""
    _open_match(daemon, sender)
    before = len(sender.sent)
    clock.advance(timedelta(hours=37))  # a quarter of the over's 48 hours left
    daemon.run_once()
    clock.advance(timedelta(hours=12))  # past the deadline
    daemon.run_once()
    daemon.run_once()  # a loaded machine may leave some of the mails to the next pass
    mails = [m for m in sender.sent[before:] if str(m["To"]) in (A, B)]
    assert len(mails) >= 4, [str(m["Subject"]) for m in mails]
    for mail in mails:
        _signed_as_hit_for_six(mail)


def test_help_for_an_address_that_plays_only_hit_for_six(
    daemon: Daemon, sender: RecordingSender
) -> None:
    """A Test by Post seat's HELP is Hit for Six's: its commands, from and signed Hit for Six,
    with nothing of Cosmic Celebrity Cricket's squads and orders."""
    _open_match(daemon, sender)
    [help_] = Conversation(daemon, sender, A).say("HELP\n", subject="what now")
    _signed_as_hit_for_six(help_)
    assert str(help_["Subject"]) == "Re: what now — Hit for Six: how to play by mail"
    text = body_of(help_)
    for usage in ("DEAL [deck]", "TEST NEW", "AVERAGES <code>", "HELP"):
        assert usage in text, text
    assert "TEAM NAME" not in text and "ZINE" not in text, text


def test_help_for_an_address_that_plays_both_games_speaks_of_both(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """An address with a Flungo team and a Test by Post seat gets the whole HELP: both games'
    commands, from the server's own name."""
    join(daemon, sender, A, demo)
    _open_match(daemon, sender)
    [help_] = Conversation(daemon, sender, A).say("HELP\n", subject="what now")
    assert help_["From"].addresses[0].display_name == "Cosmic Celebrity Cricket"
    text = body_of(help_)
    for usage in ("TEAM NAME", "ZINE", "DEAL [deck]", "TEST NEW"):
        assert usage in text, text
