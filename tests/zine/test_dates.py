"""The zine's dates are written for people: the day a stage was played, never a raw ISO stamp
and never the deadline dressed up as the day of play; the Atom feed's entries carry the same
dates, the first issue's included (not 1 January 2000)."""

from __future__ import annotations

from dataclasses import replace

from pbm.games.flungo.zine.atom import atom_feed
from pbm.games.flungo.zine.model import build_issue, when
from pbm.games.flungo.zine.source import TurnReport


def test_iso_stamps_of_any_precision_read_as_people_write_dates() -> None:
    """A stamp with microseconds and an offset (a deadline set to "now" by PROCESS) reads
    like any other; text that is not a stamp is left as it is."""
    assert when("2026-12-02T17:11:23.436088+00:00") == "Wednesday 2 December 2026, 17:11 UTC"
    assert when("2027-01-05T18:00:00Z") == "Tuesday 5 January 2027, 18:00 UTC"
    assert when("2027-01-05") == "5 January 2027"
    assert when("soon") == "soon"
    assert when(None) == ""


def test_an_issue_is_dated_when_its_stage_was_played(league: list[TurnReport]) -> None:
    """The issue carries the moment the daemon resolved the stage, the first issue too, and
    the feed dates every entry by it."""
    first = replace(league[0], played_at="2026-12-03T20:00:31+00:00")
    second = replace(league[1], played_at="2026-12-04T20:00:29+00:00")
    one = build_issue(first, [], code="LG1", number=1)
    two = build_issue(second, [first], code="LG1", number=2)
    assert one.date == "Thursday 3 December 2026, 20:00 UTC"
    assert two.date == "Friday 4 December 2026, 20:00 UTC"
    assert (one.updated, two.updated) == ("2026-12-03T20:00:31Z", "2026-12-04T20:00:29Z")
    feed = atom_feed([one, two])
    assert "2000-01-01" not in feed
    assert "<updated>2026-12-03T20:00:31Z</updated>" in feed


def test_an_issue_without_a_date_borrows_the_feeds_earliest(league: list[TurnReport]) -> None:
    """A report stored before stages recorded when they were played: the first issue has no
    date of its own, and its feed entry takes the earliest the feed knows, not 2000."""
    one = build_issue(replace(league[0], played_at=None), [], code="LG1", number=1)
    two = build_issue(league[1], [league[0]], code="LG1", number=2)
    assert one.date == "" and one.updated == ""
    feed = atom_feed([one, two])
    assert "2000-01-01" not in feed and two.updated and feed.count(two.updated) >= 2
