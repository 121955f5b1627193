"""Helper points between matches: treatment, boosts, the default spend, injuries and healing."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.flungo.orders import HelperSpend, Stat
from engine.flungo.season import (
    HELPER_POINTS,
    InjuryError,
    after_match,
    apply_helper_spend,
    check_helper_spend,
    event_from_json,
    record_injuries,
    unavailable,
)
from engine.flungo.season_events import (
    HelperPointsLost,
    InjuryTreated,
    PlayerHealed,
    PlayerInjured,
    PlayerSitsOut,
    StatBoosted,
)
from engine.flungo.squad import Team, generate_squad


def squad(seed: int = 1, fieldings: list[int] | None = None) -> Team:
    """A generated squad, optionally with the given fielding scores slot by slot."""
    team = generate_squad(Dice(seed), "Zoggers")
    if fieldings is not None:
        team = replace(
            team,
            players=tuple(
                replace(p, fielding=f) for p, f in zip(team.players, fieldings, strict=True)
            ),
        )
    return team


def injure(team: Team, **points: int) -> Team:
    """The team with these members (by slot name, underscores for spaces) injured."""
    for key, value in points.items():
        name = key.replace("_", " ")
        slot = next(i for i, p in enumerate(team.players, 1) if p.name == name)
        team = team.with_player(slot, replace(team.players[slot - 1], injury_points=value))
    return team


FIELDINGS = [5, 3, 6, 2, 3, 1, 4, 6, 3, 2, 5, 4, 6, 3, 1, 6, 2, 4]


def test_default_spend_boosts_six_lowest_fielders() -> None:
    """With no orders, the six lowest fielders (ties by squad slot) each get +1 fielding."""
    team = squad(fieldings=FIELDINGS)
    new, events = apply_helper_spend(team, None)
    # lowest: slot 6 (1), 15 (1), 4 (2), 10 (2), 17 (2), then 3s: slot 2 first
    expected_slots = [6, 15, 4, 10, 17, 2]
    boosted = [e for e in events if isinstance(e, StatBoosted)]
    assert [e.player for e in boosted] == [team.players[s - 1].name for s in expected_slots]
    assert all(e.by_default and e.stat == "fielding" and e.after == e.before + 1 for e in boosted)
    for slot, (old, now) in enumerate(zip(team.players, new.players, strict=True), 1):
        assert now.fielding == old.fielding + (slot in expected_slots)


def test_default_spend_skips_those_at_six_and_loses_the_rest() -> None:
    """Members at fielding 6 are skipped; if fewer than six can improve, the rest is lost."""
    team = squad(fieldings=[6] * 14 + [5, 6, 4, 6])
    new, events = apply_helper_spend(team, HelperSpend())
    assert [e.player for e in events if isinstance(e, StatBoosted)] == [
        team.players[16].name,
        team.players[14].name,
    ]
    assert events[-1] == HelperPointsLost("Zoggers", 4, "no squad member left to improve")
    assert max(p.fielding for p in new.players) == 6


def test_unassigned_points_go_to_the_default() -> None:
    """Points the manager leaves unassigned go on fielding, never twice on one member."""
    team = squad(fieldings=FIELDINGS)
    lowest = team.players[5].name  # fielding 1, first in the default order
    spend = HelperSpend(boosts=((lowest, Stat.BATTING), (team.players[0].name, Stat.BOWLING)))
    new, events = apply_helper_spend(team, spend)
    boosted = [e for e in events if isinstance(e, StatBoosted)]
    assert [(e.player, e.stat, e.by_default) for e in boosted[:2]] == [
        (lowest, "batting", False),
        (team.players[0].name, "bowling", False),
    ]
    defaults = [e.player for e in boosted[2:]]
    assert len(defaults) == 4 and lowest not in defaults
    assert new.players[5].batting == team.players[5].batting + 1
    assert new.players[5].fielding == 1


def test_full_treatment_makes_a_player_available() -> None:
    """Treating every injury point means the player can play the next match."""
    team = injure(squad(), Batsman_1=3)
    assert unavailable(team) == ("Batsman 1",)
    new, events = apply_helper_spend(team, HelperSpend(treatments=(("Batsman 1", 3),)))
    assert unavailable(new) == ()
    assert events[0] == InjuryTreated("Zoggers", "Batsman 1", 3, 0)
    assert sum(isinstance(e, StatBoosted) for e in events) == HELPER_POINTS - 3
    assert not any(isinstance(e, PlayerSitsOut) for e in events)


def test_partial_treatment_reduces_points_but_still_sits_out() -> None:
    """Partial treatment lowers the injury points; the player still misses the next match."""
    team = injure(squad(), Bowler_2=5)
    new, events = apply_helper_spend(team, HelperSpend(treatments=(("Bowler 2", 2),)))
    assert new.player("Bowler 2").injury_points == 3
    assert unavailable(new) == ("Bowler 2",)
    assert PlayerSitsOut("Zoggers", "Bowler 2", 3) in events


def test_untreated_injury_sits_out_then_heals() -> None:
    """An untreated injured player sits out the next match and is healed after it."""
    team = injure(squad(), Wicketkeeper_1=2, Batsman_4=1)
    team, events = apply_helper_spend(team, None)  # default spend never treats
    assert unavailable(team) == ("Batsman 4", "Wicketkeeper 1")
    assert {e.player for e in events if isinstance(e, PlayerSitsOut)} == set(unavailable(team))
    team, events = after_match(team, {"Star Bowler 1": 4, "Batsman 1": 0})
    assert events == (
        PlayerHealed("Zoggers", "Batsman 4"),
        PlayerHealed("Zoggers", "Wicketkeeper 1"),
        PlayerInjured("Zoggers", "Batsman 1", 0),
        PlayerInjured("Zoggers", "Star Bowler 1", 4),
    )
    assert unavailable(team) == ("Star Bowler 1",)  # 0 points: fit for the next match


def test_injuries_for_players_who_sat_out_are_refused() -> None:
    """A player who sat the match out injured cannot be hurt in it; unknown names are refused."""
    team = injure(squad(), Batsman_2=2)
    with pytest.raises(InjuryError, match="sat the match out"):
        record_injuries(team, {"Batsman 2": 1})
    with pytest.raises(InjuryError, match="no squad member"):
        record_injuries(team, {"Nobody": 1})
    with pytest.raises(InjuryError, match="negative"):
        record_injuries(team, {"Batsman 1": -1})


@pytest.mark.parametrize(
    ("spend", "message"),
    [
        (HelperSpend(boosts=(("Batsmn 1", Stat.BATTING),)), "no squad member called 'Batsmn 1'"),
        (HelperSpend(treatments=(("Batsman 1", 1),)), "Batsman 1 is not injured"),
        (HelperSpend(treatments=(("Bowler 1", 3),)), "more than needed"),
        (HelperSpend(treatments=(("Bowler 1", 0),)), "at least one point"),
        (
            HelperSpend(boosts=(("Batsman 1", Stat.BATTING), ("Batsman 1", Stat.FIELDING))),
            "only one helper point per squad member",
        ),
        (HelperSpend(boosts=(("Star Batsman 1", Stat.FIELDING),)), "cannot go above 6"),
        (HelperSpend(boosts=(("Star Batsman 2", Stat.BATTING),)), "cannot go above 30"),
        (
            HelperSpend(
                treatments=(("Bowler 1", 2),),
                boosts=(
                    *((f"Batsman {i}", Stat.BATTING) for i in range(1, 5)),
                    ("Bowler 2", Stat.BOWLING),
                ),
            ),
            "spends 7 helper points; a team has 6",
        ),
    ],
)
def test_illegal_spends(spend: HelperSpend, message: str) -> None:
    """Each illegal spend is reported with a clear message and refused by apply."""
    team = injure(squad(), Bowler_1=2)
    team = team.with_player(1, replace(team.players[0], fielding=6))
    team = team.with_player(2, replace(team.players[1], batting=30))
    errors = check_helper_spend(team, spend)
    assert any(message in e.message for e in errors), [e.message for e in errors]
    with pytest.raises(IllegalOrder):
        apply_helper_spend(team, spend)


def test_unknown_name_gets_a_hint_and_all_errors_are_collected() -> None:
    """check_helper_spend reports every problem at once, with did-you-mean hints."""
    team = squad()
    spend = HelperSpend(
        treatments=(("Batsman 1", 1),),
        boosts=(("Batsmn 2", Stat.BATTING), *((f"Bowler {i}", Stat.BOWLING) for i in (1, 2, 3))),
    )
    errors = check_helper_spend(team, spend)
    assert [e.message for e in errors] == [
        "Batsman 1 is not injured, so needs no treatment",
        "Zoggers has no squad member called 'Batsmn 2'",
    ]
    assert errors[1].hint == "did you mean 'Batsman 2'?"
    assert "did you mean 'Batsman 2'?" in str(errors[1])


NAMES = [p.name for p in squad().players]


@st.composite
def spends(draw: st.DrawFn) -> HelperSpend:
    """Arbitrary (often illegal) spends over the squad's names and a stranger."""
    name = st.sampled_from([*NAMES, "Stranger"])
    treatments = draw(st.lists(st.tuples(name, st.integers(-1, 5)), max_size=4))
    boosts = draw(st.lists(st.tuples(name, st.sampled_from(list(Stat))), max_size=8))
    return HelperSpend(tuple(treatments), tuple(boosts))


@given(
    st.integers(0, 2**32),
    st.dictionaries(st.sampled_from(NAMES), st.integers(1, 5), max_size=4),
    st.one_of(st.none(), spends()),
)
@settings(max_examples=300, deadline=None)
def test_helper_point_invariants(
    seed: int, injuries: dict[str, int], spend: HelperSpend | None
) -> None:
    """Legal or not: never more than 6 points, fielding never above 6, one boost per member."""
    team = generate_squad(Dice(seed), "Zoggers")
    team = team.with_player(1, replace(team.players[0], fielding=6))
    for name, points in injuries.items():
        team = injure(team, **{name.replace(" ", "_"): points})
    errors = check_helper_spend(team, spend or HelperSpend())
    event("illegal" if errors else "legal")
    if errors:
        with pytest.raises(IllegalOrder):
            apply_helper_spend(team, spend)
        return
    new, events = apply_helper_spend(team, spend)
    treated = sum(e.points for e in events if isinstance(e, InjuryTreated))
    boosts = [e for e in events if isinstance(e, StatBoosted)]
    lost = sum(e.points for e in events if isinstance(e, HelperPointsLost))
    assert treated + len(boosts) + lost == HELPER_POINTS
    assert max(Counter(e.player for e in boosts).values(), default=0) <= 1
    assert all(p.fielding <= 6 and p.batting <= 30 and p.bowling <= 30 for p in new.players)
    assert all(p.injury_points >= 0 for p in new.players)
    for old, now in zip(team.players, new.players, strict=True):
        gained = (now.batting - old.batting) + (now.bowling - old.bowling)
        gained += now.fielding - old.fielding
        assert gained == sum(e.player == old.name for e in boosts)
        assert old.injury_points - now.injury_points == sum(
            e.points for e in events if isinstance(e, InjuryTreated) and e.player == old.name
        )
    assert set(unavailable(new)) == {e.player for e in events if isinstance(e, PlayerSitsOut)}
    for e in events:
        assert event_from_json(e.to_json()) == e
