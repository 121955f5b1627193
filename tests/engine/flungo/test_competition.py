"""Leagues, knockouts, the mini-tournament, the draw of pitches and round trips."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.flungo import season
from engine.flungo.formats import FORMATS, Format
from engine.flungo.ground import PITCH_NAMES
from engine.flungo.season import (
    Competition,
    CompetitionError,
    Phase,
)
from engine.flungo.season_events import (
    ByeGiven,
    CompetitionFinished,
    FixtureReady,
    FixtureScheduled,
    ResultRecorded,
    RoundCompleted,
    TeamEliminated,
)
from tests.engine.flungo.seasonkit import inn, match, play_out, results_for, teams

# --- round robin ----------------------------------------------------------------------------


@given(st.integers(2, 16), st.booleans(), st.integers(0, 2**64 - 1))
def test_every_pair_meets_once_per_cycle(n: int, double: bool, seed: int) -> None:
    """In a round robin every pair meets exactly once (twice, home and away, when double)."""
    comp, _ = season.new_league("L", teams(n), Format.T20, Dice(seed), double=double)
    meetings = Counter(frozenset((f.home.ref, f.away.ref)) for f in comp.fixtures)
    assert set(meetings) == {frozenset(p) for p in combinations(teams(n), 2)}
    assert set(meetings.values()) == {2 if double else 1}
    if double:
        assert len({(f.home.ref, f.away.ref) for f in comp.fixtures}) == len(comp.fixtures)


@given(st.integers(2, 15), st.booleans())
def test_byes_are_fair(n: int, double: bool) -> None:
    """Odd leagues give each team one bye per cycle; every team is busy once each round."""
    comp, events = season.new_league("L", teams(n), Format.T20, Dice(n), double=double)
    cycles = 2 if double else 1
    assert comp.rounds == cycles * (n if n % 2 else n - 1)
    byes = Counter(t for _, t in comp.byes)
    assert dict(byes) == (dict.fromkeys(teams(n), cycles) if n % 2 else {})
    for r in range(1, comp.rounds + 1):
        busy = [t for f in season.fixtures_for_round(comp, r) for t in (f.home.ref, f.away.ref)]
        busy += [t for rr, t in comp.byes if rr == r]
        assert sorted(busy) == sorted(teams(n))
    assert [e for e in events if isinstance(e, ByeGiven)] == [ByeGiven(r, t) for r, t in comp.byes]


def test_league_rounds_take_four_turns_each() -> None:
    """Round r of a league starting at turn 5 is turns 5+4(r-1) .. 8+4(r-1), phase by phase."""
    comp, _ = season.new_league("L", teams(4), Format.FIFTY, Dice(1), first_turn=5)
    assert season.round_turns(comp, 1) == (5, 8)
    assert season.round_turns(comp, 3) == (13, 16)
    assert season.turn_position(comp, 4) is None
    assert season.turn_position(comp, 5) == (1, Phase.INNINGS_1_TO_DRINKS)
    assert season.turn_position(comp, 10) == (2, Phase.INNINGS_1_AFTER_DRINKS)
    assert season.turn_position(comp, 16) == (3, Phase.INNINGS_2_AFTER_DRINKS)
    assert season.turn_position(comp, 17) is None
    assert season.fixtures_for_turn(comp, 11) == season.fixtures_for_round(comp, 2)
    assert season.fixtures_for_turn(comp, 99) == ()
    with pytest.raises(CompetitionError):
        season.round_turns(comp, 4)


# --- knockouts ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 5, 6, 7, 9])
def test_knockout_sizes_finish_with_one_champion(n: int) -> None:
    """A knockout of 3, 5, 6, 7 or 9 sides ends with one champion after n-1 matches."""
    comp, _ = season.new_knockout("KO", teams(n), Format.T20, Dice(n))
    while not season.is_finished(comp):
        f = season.pending_fixtures(comp)[0]
        home, away = season.fixture_teams(comp, f.id)
        assert home and away
        # the better seed always wins by a run
        better, worse = sorted((home, away), key=comp.teams.index)
        comp, _ = season.record_result(comp, match(inn(better, 101), inn(worse, 100)))
    assert season.champion(comp) == "Team 1"
    assert len(comp.results) == n - 1


@pytest.mark.slow
@given(st.data(), st.integers(2, 17), st.booleans(), st.booleans())
@settings(max_examples=60, deadline=None)
def test_knockout_properties(data: st.DataObject, n: int, third: bool, draw: bool) -> None:
    """Any knockout: byes to the top seeds in round 1 only, one champion who never lost."""
    third = third and n >= 4
    comp, _ = season.new_knockout("KO", teams(n), Format.T20, Dice(n), third_place=third, draw=draw)
    size = 1 << (n - 1).bit_length()
    assert sorted(t for _, t in comp.byes) == sorted(comp.teams[: size - n])
    assert all(r == 1 for r, _ in comp.byes)
    comp, events = play_out(data, comp)
    assert len(comp.results) == n - 1 + third
    winner = season.champion(comp)
    assert winner in comp.teams
    assert all(r.loser != winner for r in comp.results)
    eliminated = [e.team for e in events if isinstance(e, TeamEliminated)]
    assert len(eliminated) == len(set(eliminated))
    finished = events[-1]
    assert isinstance(finished, CompetitionFinished) and finished.champion == winner
    assert (finished.third is not None) == third
    rows = season.standings(comp)
    assert rows[0].team == winner and rows[1].team == finished.runner_up
    assert sorted(r.team for r in rows) == sorted(teams(n))


def test_knockout_tie_needs_super_over() -> None:
    """A tie in a knockout is settled by the Super Over winner; a bare tie is refused."""
    comp, _ = season.new_knockout("KO", ["A", "B"], Format.T20, Dice(1))
    with pytest.raises(CompetitionError, match="Super Over"):
        season.record_result(comp, match(inn("A", 150), inn("B", 150)))
    comp, events = season.record_result(comp, match(inn("A", 150), inn("B", 150), super_over="B"))
    assert season.champion(comp) == "B"
    assert events[0] == ResultRecorded(
        "R1M1", 1, "A", "B", "B", True, "Match tied; B won the Super Over"
    )


def test_league_refuses_super_over() -> None:
    """A tie stands in a league, so a Super Over result is refused."""
    comp, _ = season.new_league("L", ["A", "B"], Format.T20, Dice(1))
    with pytest.raises(CompetitionError, match="tie stands"):
        season.record_result(comp, match(inn("A", 150), inn("B", 150), super_over="B"))


def test_mini_tournament_matches_the_seed() -> None:
    """Semi-finals 1v4 and 2v3 in turns 1-4; final and 3rd/4th play-off in turns 5-8."""
    comp, events = season.mini_tournament("Cup", ["A", "B", "C", "D"], Format.FORTY, Dice(9))
    semis = season.fixtures_for_turn(comp, 1)
    assert [(f.label, f.home.ref, f.away.ref) for f in semis] == [
        ("Semi-final 1", "A", "D"),
        ("Semi-final 2", "B", "C"),
    ]
    assert all(season.fixtures_for_turn(comp, t) == semis for t in (2, 3, 4))
    finals = season.fixtures_for_turn(comp, 5)
    assert [f.label for f in finals] == ["Final", "3rd/4th play-off"]
    assert all(season.fixtures_for_turn(comp, t) == finals for t in (6, 7, 8))
    assert season.fixtures_for_turn(comp, 9) == ()
    assert season.fixture_teams(comp, "R2M1") == (None, None)
    scheduled = [e for e in events if isinstance(e, FixtureScheduled)]
    assert scheduled[2].home == "Winner of Semi-final 1"
    assert (scheduled[3].first_turn, scheduled[3].last_turn) == (5, 8)

    balls = FORMATS[Format.FORTY].balls
    comp, ev1 = season.record_result(
        comp,
        match(
            inn("D", 200, 5, balls, allotted=balls),
            inn("A", 150, 10, 200, allotted=balls, all_out=True),
        ),
    )
    assert not any(isinstance(e, FixtureReady) for e in ev1)
    comp, ev2 = season.record_result(
        comp, match(inn("B", 180, 5, balls, allotted=balls), inn("C", 181, 2, 190, allotted=balls))
    )
    ready = [e for e in ev2 if isinstance(e, FixtureReady)]
    assert [(e.label, e.home, e.away) for e in ready] == [
        ("Final", "D", "C"),
        ("3rd/4th play-off", "A", "B"),
    ]
    assert RoundCompleted(1) in ev2
    assert season.current_round(comp) == 2
    comp, _ = season.record_result(
        comp,
        match(
            inn("A", 120, 5, balls, allotted=balls),
            inn("B", 110, 10, 150, allotted=balls, all_out=True),
        ),
    )
    comp, ev4 = season.record_result(
        comp,
        match(inn("C", 160, 5, balls, allotted=balls), inn("D", 150, 9, balls, allotted=balls)),
    )
    assert ev4[-1] == CompetitionFinished("C", "D", "A")
    assert [r.team for r in season.standings(comp)] == ["C", "D", "A", "B"]
    assert season.is_finished(comp) and season.current_round(comp) is None


def test_mini_tournament_needs_four() -> None:
    """The mini-tournament preset is for exactly four teams; a play-off needs four or more."""
    with pytest.raises(CompetitionError):
        season.mini_tournament("Cup", teams(5), Format.T20, Dice(1))
    with pytest.raises(CompetitionError):
        season.new_knockout("KO", teams(3), Format.T20, Dice(1), third_place=True)


# --- recording results ----------------------------------------------------------------------


def test_record_result_refusals() -> None:
    """Unknown fixtures, repeats, wrong sides, wrong overs and unknown sides are refused."""
    comp, _ = season.new_knockout("KO", teams(4), Format.T20, Dice(1))
    ok = match(inn("Team 1", 120), inn("Team 4", 100), fixture_id="R1M1")
    with pytest.raises(CompetitionError, match="no fixture"):
        season.record_result(comp, replace(ok, fixture_id="R9M9"))
    with pytest.raises(CompetitionError, match="is Team 2 v Team 3"):
        season.record_result(comp, replace(ok, fixture_id="R1M2"))
    with pytest.raises(CompetitionError, match="not known yet"):
        season.record_result(comp, replace(ok, fixture_id="R2M1"))
    fifty = match(
        inn("Team 1", 120, 5, 300, allotted=300), inn("Team 4", 100, 5, 300, allotted=300)
    )
    with pytest.raises(CompetitionError, match="allotted 300"):
        season.record_result(comp, fifty)
    done, _ = season.record_result(comp, ok)
    with pytest.raises(CompetitionError, match="already has a result"):
        season.record_result(done, ok)
    with pytest.raises(CompetitionError, match="no fixture to play"):
        season.record_result(done, replace(ok, fixture_id=None))
    assert comp.results == ()  # values are never mutated


# --- pitches, determinism, text -------------------------------------------------------------


@given(st.integers(2, 14), st.booleans(), st.booleans(), st.integers(0, 2**64 - 1))
@settings(max_examples=60, deadline=None)
def test_no_pitch_used_twice(n: int, league: bool, double: bool, seed: int) -> None:
    """Every fixture of a competition has its own pitch, with extra names past the stock list."""
    if league:
        comp, _ = season.new_league("L", teams(n), Format.T20, Dice(seed), double=double)
    else:
        comp, _ = season.new_knockout("K", teams(n), Format.T20, Dice(seed), third_place=n >= 4)
    names = [f.pitch_name for f in comp.fixtures]
    assert len(set(names)) == len(names)
    stock = set(PITCH_NAMES)
    assert set(names) <= stock | {f"Flungo Field {k}" for k in range(41, 41 + len(names))}
    assert len([x for x in names if x in stock]) == min(len(names), len(stock))


def test_pitches_beyond_the_stock_and_excluded() -> None:
    """A 90-fixture league uses all 40 stock names and then Flungo Field 41 onwards."""
    comp, _ = season.new_league(
        "L",
        teams(10),
        Format.T20,
        Dice(5),
        double=True,
        exclude_pitches=["The Gunge Bowl", "Flungo Field 42"],
    )
    names = {f.pitch_name for f in comp.fixtures}
    assert len(names) == 90
    assert "The Gunge Bowl" not in names and "Flungo Field 42" not in names
    assert {"Flungo Field 41", "Flungo Field 43"} <= names


def test_conditions_rolled_at_creation_and_recorded() -> None:
    """Each fixture's pitch and weather are rolled when it is drawn, with recorded dice."""
    dice = Dice(77)
    comp, _ = season.mini_tournament("Cup", teams(4), Format.T20, dice)
    for f in comp.fixtures:
        assert 1 <= f.conditions.pitch_roll <= 6 and 1 <= f.conditions.weather_roll <= 6
    purposes = [r.purpose for r in dice.rolls]
    assert purposes[-8:] == [
        p for f in comp.fixtures for p in (f"pitch {f.pitch_name}", f"weather at {f.pitch_name}")
    ]
    again, _ = season.mini_tournament("Cup", teams(4), Format.T20, Dice(77))
    assert again == comp


@given(st.data(), st.integers(2, 7), st.booleans(), st.integers(0, 5))
@settings(max_examples=40, deadline=None)
def test_text_round_trip(data: st.DataObject, n: int, league: bool, played: int) -> None:
    """to_text/from_text round-trips a competition at any stage, and the events' JSON too."""
    maker = season.new_league if league else season.new_knockout
    comp, events = maker("C", teams(n), Format.HUNDRED, Dice(n))
    balls = FORMATS[Format.HUNDRED].balls
    all_events = list(events)
    for _ in range(played):
        if season.is_finished(comp):
            break
        f = season.pending_fixtures(comp)[0]
        home, away = season.fixture_teams(comp, f.id)
        assert home and away
        comp, evs = season.record_result(
            comp, data.draw(results_for(home, away, not league, balls))
        )
        all_events.extend(evs)
    assert Competition.from_text(comp.to_text()) == comp
    assert Competition.from_text(comp.to_text()).to_text() == comp.to_text()
    for e in all_events:
        assert season.event_from_json(e.to_json()) == e


def test_draw_shuffles_deterministically() -> None:
    """draw=True shuffles the seeding with dice: same seed, same draw; the teams are kept."""
    a, _ = season.new_knockout("K", teams(8), Format.T20, Dice(4), draw=True)
    b, _ = season.new_knockout("K", teams(8), Format.T20, Dice(4), draw=True)
    assert a == b and sorted(a.teams) == teams(8)
    assert a.teams != tuple(teams(8))


def test_team_names_must_be_unique_and_two_or_more() -> None:
    """A competition needs two or more differently named teams."""
    with pytest.raises(CompetitionError):
        season.new_league("L", ["A"], Format.T20, Dice(1))
    with pytest.raises(CompetitionError):
        season.new_knockout("K", ["A", "A"], Format.T20, Dice(1))


def test_next_fixture_byes_and_fixture_text() -> None:
    """Each team can be told its next fixture, pitch and conditions; byes are listed by round."""
    comp, _ = season.new_league("L", ["A", "B", "C"], Format.T20, Dice(3))
    assert [season.byes_for_round(comp, r) for r in (1, 2, 3)] == [("A",), ("B",), ("C",)]
    f = season.next_fixture(comp, "A")
    assert f is not None and f.round == 2 and "A" in season.fixture_teams(comp, f.id)
    c = f.conditions
    assert season.fixture_text(comp, f) == (
        f"Round 2: {f.home.ref} v {f.away.ref} at {f.pitch_name} "
        f"({c.pitch.name}; {c.weather.name}), turns 5-8"
    )
    cup, _ = season.mini_tournament("Cup", ["A", "B", "C", "D"], Format.T20, Dice(3))
    final = cup.fixture("R2M1")
    assert season.fixture_text(cup, final).startswith(
        "Final: Winner of Semi-final 1 v Winner of Semi-final 2 at "
    )
    cup, _ = season.record_result(cup, match(inn("A", 120), inn("D", 100)))
    assert season.next_fixture(cup, "A") == final  # its opponent is not known yet
    assert season.next_fixture(cup, "D") == cup.fixture("R2M2")
    assert season.next_fixture(cup, "B") == cup.fixture("R1M2")
    assert season.fixture_text(cup, cup.fixture("R1M1")).endswith(": A won by 20 runs")


def test_draw_is_pinned_for_a_seed() -> None:
    """The mini-tournament drawn from seed 1 never changes (other implementations check this)."""
    comp, _ = season.mini_tournament("Cup", ["A", "B", "C", "D"], Format.T20, Dice(1))
    drawn = [
        (f.id, f.pitch_name, f.conditions.pitch_roll, f.conditions.weather_roll)
        for f in comp.fixtures
    ]
    assert drawn == [
        ("R1M1", "Backward Point Plateau", 2, 4),
        ("R1M2", "Doosra Dell", 6, 6),
        ("R2M1", "Far Distant Meadow", 2, 1),
        ("R2M2", "Nightwatchman's Rest", 6, 6),
    ]
    assert comp.lots == ("A", "B", "D", "C")


@settings(max_examples=25, deadline=None)
@given(
    kind=st.sampled_from(["knockout", "league"]),
    n=st.integers(2, 9),
    data=st.data(),
)
def test_every_teams_next_fixture_at_once_is_each_asked_alone(
    kind: str, n: int, data: st.DataObject
) -> None:
    """``next_fixtures`` (one pass, for reports to every team) gives each team the fixture a
    scan of the fixtures finds for it alone, at every point of a season played out."""
    from engine.flungo.competition import fixture_teams, next_fixtures, result_of

    names = teams(n)
    if kind == "knockout":
        comp, _ = season.new_knockout("K", names, Format.T20, Dice(n))
    else:
        comp, _ = season.new_league("L", names, Format.T20, Dice(n))
    knockout = kind == "knockout"
    while True:
        alone = {}
        for t in names:
            for f in comp.fixtures:  # the definition: the first unplayed fixture with the team
                if result_of(comp, f.id) is None and t in fixture_teams(comp, f.id):
                    alone[t] = f
                    break
        assert next_fixtures(comp) == alone
        if season.is_finished(comp):
            break
        fixture = season.pending_fixtures(comp)[0]
        home, away = season.fixture_teams(comp, fixture.id)
        assert home is not None and away is not None
        comp, _ = season.record_result(comp, data.draw(results_for(home, away, knockout)))
