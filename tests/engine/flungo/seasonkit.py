"""Builders for season tests: innings, results, hypothesis strategies for whole competitions."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.flungo import season
from engine.flungo.formats import FORMATS, Format
from engine.flungo.season import (
    Competition,
    InningsSummary,
    MatchSummary,
)

T20 = FORMATS[Format.T20].balls


def inn(
    team: str,
    runs: int,
    wickets: int = 5,
    balls: int = T20,
    *,
    allotted: int = T20,
    all_out: bool = False,
) -> InningsSummary:
    """An innings for tests."""
    return InningsSummary(team, runs, wickets, balls, allotted, all_out)


def match(
    first: InningsSummary,
    second: InningsSummary,
    *,
    super_over: str | None = None,
    fixture_id: str | None = None,
) -> MatchSummary:
    """A summary whose winner follows from the runs (or the Super Over on a tie)."""
    if first.runs == second.runs:
        winner = super_over
    else:
        winner = first.batting if first.runs > second.runs else second.batting
    return MatchSummary(
        first.batting, second.batting, (first, second), winner, super_over is not None, fixture_id
    )


def teams(n: int) -> list[str]:
    """n distinct team names."""
    return [f"Team {i}" for i in range(1, n + 1)]


@st.composite
def results_for(
    draw: st.DrawFn, home: str, away: str, knockout: bool, balls: int = T20
) -> MatchSummary:
    """Any consistent result between two sides (knockout ties go to a Super Over)."""
    first, second = draw(st.permutations([home, away]))
    r1 = draw(st.integers(0, 300))
    all_out1 = draw(st.booleans())
    b1 = draw(st.integers(1, balls)) if all_out1 else balls
    one = InningsSummary(
        first, r1, 10 if all_out1 else draw(st.integers(0, 9)), b1, balls, all_out1
    )
    r2 = draw(st.integers(0, r1 + 6))
    if r2 > r1:
        two = InningsSummary(
            second, r2, draw(st.integers(0, 9)), draw(st.integers(1, balls)), balls
        )
    else:
        all_out2 = draw(st.booleans())
        b2 = draw(st.integers(1, balls)) if all_out2 else balls
        two = InningsSummary(second, r2, 10 if all_out2 else 3, b2, balls, all_out2)
    so = draw(st.sampled_from([home, away])) if knockout and r1 == r2 else None
    return match(one, two, super_over=so)


def play_out(data: st.DataObject, comp: Competition) -> tuple[Competition, list[object]]:
    """Play every fixture with hypothesis-drawn results, in the order they become playable."""
    events: list[object] = []
    knockout = comp.kind is season.CompetitionKind.KNOCKOUT
    balls = FORMATS[comp.format].balls
    while not season.is_finished(comp):
        fixture = season.pending_fixtures(comp)[0]
        home, away = season.fixture_teams(comp, fixture.id)
        assert home is not None and away is not None
        summary = data.draw(results_for(home, away, knockout, balls))
        comp, evs = season.record_result(comp, summary)
        events.extend(evs)
    return comp, events
