"""Hit for Six's deadlines in the reader's zone, through the mail door: a player who asked for
his zone with ZONE (in a Flungo competition: the zone is the player's, not the game's) reads
each Test by Post deadline (the over mail, its reminder, the next over after the reveal) in
that zone with UTC beside it, across a change of the clocks; a player with no zone reads UTC."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.testing import Conversation, RecordingSender, body_of
from tests.pbm.helpers import join

ZONED, PLAIN = "ann@example.test", "bob@example.test"


def _flat(m: EmailMessage) -> str:
    return " ".join(body_of(m).split())


def _deadline_of(m: EmailMessage) -> str:
    """The deadline an over mail or a reminder prints."""
    found = re.search(r"(?:Deadline: |The deadline is )(.+?)(?:\. A seat|; if nothing)", _flat(m))
    assert found, body_of(m)
    return found.group(1)


def _to(sender: RecordingSender, address: str, since: int, word: str) -> list[EmailMessage]:
    return [
        m
        for m in sender.sent[since:]
        if str(m["To"]) == address and word in str(m["Subject"]) + body_of(m)
    ]


def _set_zone(
    daemon: Daemon, sender: RecordingSender, app: App, clock: FixedClock, tz: str
) -> None:
    """ZONED joins a Flungo competition and sets his zone there, as a player does."""
    with transaction(app.sessions) as s:
        create_competition(s, clock, code="ZONES", name="Zone Cup", fmt="t20", teams=4,
                           naming_deadline=clock.now() + timedelta(days=60))  # fmt: skip
    secret = join(daemon, sender, ZONED, "ZONES")
    Conversation(daemon, sender, ZONED).say(
        f"SECRET {secret}\nZONE {tz}\n", subject="[ZONES] zone", expect=f"shown in {tz} too"
    )


@pytest.mark.parametrize(
    ("tz", "opened", "first", "second"),
    [
        # London springs forward on 29 March: dealt at 12:00 GMT, due at 13:00 BST.
        ("Europe/London", datetime(2026, 3, 27, 12, tzinfo=UTC),
         "Sunday 29 March 2026, 13:00 BST (12:00 UTC)",
         "Tuesday 31 March 2026, 13:00 BST (12:00 UTC)"),
        # ... and falls back on 25 October: dealt at 13:00 BST, due at 12:00 GMT (UTC's time).
        ("Europe/London", datetime(2026, 10, 23, 12, tzinfo=UTC),
         "Sunday 25 October 2026, 12:00 GMT",
         "Tuesday 27 October 2026, 12:00 GMT"),
        # Sydney springs forward on 4 October: dealt at 22:00 AEST, due at 23:00 AEDT.
        ("Australia/Sydney", datetime(2026, 10, 2, 12, tzinfo=UTC),
         "Sunday 4 October 2026, 23:00 AEDT (12:00 UTC)",
         "Tuesday 6 October 2026, 23:00 AEDT (12:00 UTC)"),
        # ... and falls back on 5 April: dealt at 15:00 AEDT, due at 14:00 AEST.
        ("Australia/Sydney", datetime(2026, 4, 3, 4, tzinfo=UTC),
         "Sunday 5 April 2026, 14:00 AEST (04:00 UTC)",
         "Tuesday 7 April 2026, 14:00 AEST (04:00 UTC)"),
    ],
)  # fmt: skip
def test_a_test_by_post_deadline_is_shown_in_the_players_zone_across_a_clock_change(
    daemon: Daemon,
    sender: RecordingSender,
    app: App,
    clock: FixedClock,
    tz: str,
    opened: datetime,
    first: str,
    second: str,
) -> None:
    """The over mail, its reminder and the next over's mail give the zoned player the
    deadline in his zone's local time as it will be on the day (the clocks' change between
    the deal and the deadline counted), with UTC beside it; the other seat reads UTC."""
    clock.set(opened - timedelta(hours=1))
    _set_zone(daemon, sender, app, clock, tz)
    clock.set(opened)
    [joined] = Conversation(daemon, sender, ZONED).say("TEST NEW 2\n", subject="a Test")
    found = re.search(r"\[H6 ([A-Z0-9]{6})\]", str(joined["Subject"]))
    assert found, str(joined["Subject"])
    since = len(sender.sent)
    Conversation(daemon, sender, PLAIN).say(f"TEST JOIN {found.group(1)}\n", subject="me too")
    [zoned] = _to(sender, ZONED, since, "over 1")
    [plain] = _to(sender, PLAIN, since, "Deadline")
    assert _deadline_of(zoned) == first
    due = opened + timedelta(hours=48)
    assert _deadline_of(plain) == f"{due:%A} {due.day} {due:%B %Y, %H:%M} UTC"

    clock.set(opened + timedelta(hours=37))  # a quarter of the 48 hours left: the reminder
    since = len(sender.sent)
    daemon.run_once()
    [reminder] = _to(sender, ZONED, since, "not sealed yet")
    assert _deadline_of(reminder) == first

    clock.set(due)  # the deadline: sealed, revealed, over 2 dealt
    since = len(sender.sent)
    daemon.run_once()
    daemon.run_once()  # a loaded machine may leave some of the mails to the next pass
    [over2] = _to(sender, ZONED, since, "Deadline")
    assert "over 2" in str(over2["Subject"]) and _deadline_of(over2) == second
