"""A season's deadlines are exactly its schedule's own slots, whatever time each stage runs.

The slots are worked out here from the calendar, independently of :mod:`pbm.games.flungo.schedule`:
a wall time on each local date the cadence names, found by asking the zone which UTC instants
show it (the spring gap: none, so the wall time moves on by the gap; the autumn fold: two, the
first is taken). A season is played by running each stage between 1 day early and 3 days late,
and every deadline it is given must be the first slot after both its previous deadline and the
moment the stage ran.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.games.flungo.schedule import deadline_after, next_deadline, parse_schedule

ZONES = [
    "Europe/London",
    "America/New_York",
    "Australia/Sydney",
    "Asia/Kolkata",
    "Australia/Adelaide",  # half an hour off the hour, with DST
    "Asia/Kathmandu",  # 45 minutes off the hour
    "Australia/Lord_Howe",  # a DST change of half an hour
    "UTC",
]
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def wall_slot(day: date, at: time, tz: ZoneInfo) -> datetime:
    """The instant the zone's clocks show ``at`` on ``day``: the first of two in a fold; in a
    gap, the wall time moved on by the gap (read with the offset from before the change)."""
    naive = datetime.combine(day, at)
    offsets = {tz.utcoffset(naive + timedelta(hours=h)) for h in (-30, -6, 0, 6, 30)}
    shown = sorted(
        t
        for off in offsets
        if off is not None
        for t in [(naive - off).replace(tzinfo=UTC)]
        if t.astimezone(tz).replace(tzinfo=None) == naive
    )
    if shown:
        return shown[0]
    before = tz.utcoffset(naive - timedelta(hours=6))
    assert before is not None
    return (naive - before).replace(tzinfo=UTC)


def slots(text: str, first: datetime, until: datetime) -> list[datetime]:
    """Every slot of cadence ``text`` from its first deadline ``first`` to ``until``."""
    c = parse_schedule(text)
    if c.every is not None and c.at is None:
        n = int((until - first) / c.every) + 2
        return [first + k * c.every for k in range(n)]
    assert c.at is not None
    tz = ZoneInfo(c.tz)
    start = first.astimezone(tz).date()
    out = []
    for k in range((until - first).days + 3):
        day = start + timedelta(days=k)
        if c.weekdays and day.weekday() not in c.weekdays:
            continue
        if c.every is not None and k % c.every.days:
            continue
        out.append(wall_slot(day, c.at, tz))
    return out


wall_times = st.sampled_from([time(0, 30), time(1, 30), time(2, 0), time(2, 30), time(20, 0)]) | (
    st.builds(time, st.integers(0, 23), st.sampled_from([0, 15, 30, 45]))
)


@st.composite
def cadences(draw: st.DrawFn) -> str:
    """A schedule text of every kind: weekdays, daily, every N days at a time, every interval."""
    tz = draw(st.sampled_from(ZONES))
    at = draw(wall_times).strftime("%H:%M")
    kind = draw(st.sampled_from(["weekdays", "daily", "days", "interval"]))
    if kind == "weekdays":
        days = draw(st.sets(st.sampled_from(DAYS), min_size=1, max_size=4))
        return f"{','.join(sorted(days, key=DAYS.index))} {at} {tz}"
    if kind == "daily":
        return f"daily {at} {tz}"
    if kind == "days":
        return f"every {draw(st.integers(1, 3))}d {at} {tz}"
    return f"every {draw(st.sampled_from(['90s', '3m', '1h', '5h']))}"


@settings(max_examples=300, deadline=None)
@given(
    text=cadences(),
    start=st.datetimes(
        min_value=datetime(2026, 1, 1), max_value=datetime(2026, 12, 20), timezones=st.just(UTC)
    ),
    lateness=st.lists(
        st.one_of(
            st.just(0.0),
            st.just(30.0),
            st.floats(0, 3 * 86400),
            st.floats(-86400, 0),  # early: every order in
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_every_deadline_is_a_slot_of_the_schedule(
    text: str, start: datetime, lateness: list[float]
) -> None:
    """However late (or early) each stage runs, its successor's deadline is the schedule's
    first slot after both the previous deadline and the moment the stage ran; the slots
    skipped are counted, and none is invented or lost across a DST change."""
    first = next_deadline(text, start)
    horizon = first + timedelta(days=5 + 8 * len(lateness))
    calendar = slots(text, first, horizon)
    assert first in calendar, (text, first)
    previous = first
    for late in lateness:
        ran = previous + timedelta(seconds=late)
        got = deadline_after(text, previous, ran)
        floor = max(previous, ran)
        want = min(s for s in calendar if s > floor)
        assert got.deadline == want, (text, previous, ran)
        assert got.skipped == sum(1 for s in calendar if previous < s <= ran)
        previous = got.deadline


def test_daily_in_london_keeps_the_spring_sunday() -> None:
    """``daily 20:00 Europe/London`` from Saturday 28 March 2026 20:00 GMT goes to Sunday 29
    March 20:00 BST (19:00 UTC), a day of 23 hours, not to the Monday."""
    sat = datetime(2026, 3, 28, 20, tzinfo=UTC)
    sun = next_deadline("daily 20:00 Europe/London", sat)
    assert sun == datetime(2026, 3, 29, 19, tzinfo=UTC)
    autumn = next_deadline("daily 20:00 Europe/London", datetime(2026, 10, 24, 19, tzinfo=UTC))
    assert autumn == datetime(2026, 10, 25, 20, tzinfo=UTC)


def test_a_late_stage_keeps_the_cadence_and_a_very_late_one_skips_to_the_next_slot() -> None:
    """``every 2d 20:00 UTC`` run 30 s late stays every two days; run three days late, it
    gets the first slot still ahead, and says which slot it missed."""
    dl = datetime(2026, 12, 3, 20, tzinfo=UTC)
    on = deadline_after("every 2d 20:00 UTC", dl, dl + timedelta(seconds=30))
    assert (on.deadline, on.skipped) == (dl + timedelta(days=2), 0)
    late = deadline_after("every 2d 20:00 UTC", dl, dl + timedelta(days=3))
    assert late.deadline == dl + timedelta(days=4)
    assert (late.skipped, late.missed) == (1, dl + timedelta(days=2))
