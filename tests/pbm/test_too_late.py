"""A mail that comes after its stage has run: the stage ran early (every team's orders were
in) and a manager's follow-up arrives seconds later. The reply says plainly that it is too
late for that stage and which stage it now counts for; the orders are kept for that one."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from pbm.testing import body_of
from tests.pbm.season import MINI_TEAMS, Season, drawn_mini


@pytest.fixture
def season(tmp_path: Path) -> Iterator[Season]:
    """A drawn mini-tournament whose stages run a minute after the last team's orders."""
    settings = {"naming_after_full": 600, "early": 60, "reminders": [], "hold_share": 1.0}
    with drawn_mini(tmp_path, "EARLY", settings) as s:
        yield s


def test_a_follow_up_after_an_early_stage_is_told_it_is_too_late(season: Season) -> None:
    """All four teams send their selection; the stage runs a minute later, well before its
    deadline. Alpha's second thoughts, seconds after, are answered: too late for the
    selection (played early), counted for Turn 1 with its deadline."""
    for address, _, prefix in MINI_TEAMS:
        season.orders(address, f"captain: {prefix} 2")
    deadline = season.deadline()
    season.clock.advance(timedelta(seconds=61))
    season.pump()
    assert season.show()["turn"]["key"] == "T1"  # the selection ran early
    assert season.clock.now() < deadline
    season.clock.advance(timedelta(seconds=5))
    a1, _, p1 = MINI_TEAMS[0]
    [reply] = season.orders(a1, f"{p1} 1 aggressive")
    words = " ".join(body_of(reply).split())
    assert words.startswith("Too late for Round 1: selection and toss"), words  # read first
    assert "played early, as every team's orders were in" in words
    assert "Your orders count for Turn 1 (deadline" in words


def test_orders_in_good_time_get_no_such_word(season: Season) -> None:
    """A mail to the open stage (hourly), half an hour after the stage before ran, has no
    too-late note: it was sent knowing that stage was over."""
    season.clock.set(season.deadline() + timedelta(seconds=30))
    season.pump()
    season.clock.advance(timedelta(minutes=30))
    a1, _, p1 = MINI_TEAMS[0]
    [reply] = season.orders(a1, f"{p1} 1 aggressive")
    assert "Too late" not in body_of(reply)


def test_a_mail_just_after_the_deadline_is_told_it_missed_it(season: Season) -> None:
    """The stage ran 30 s after its deadline; a mail 2 minutes after is answered: too late
    for it, at its deadline, and counted for the next."""
    season.clock.set(season.deadline() + timedelta(seconds=30))
    season.pump()
    season.clock.advance(timedelta(minutes=2))
    a2, _, p2 = MINI_TEAMS[1]
    [reply] = season.orders(a2, f"{p2} 1 aggressive")
    words = " ".join(body_of(reply).split())
    assert "Too late for Round 1: selection and toss: it was played at its deadline" in words
    assert "Your orders count for Turn 1" in words
