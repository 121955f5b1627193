"""Selection defaults and the bowling plan: followed when legal, completed by the default."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.flungo.events import EventKind, MatchEvent
from engine.flungo.formats import FORMATS, Format
from engine.flungo.ground import Conditions
from engine.flungo.match import MatchSetup, play_match, play_turn
from engine.flungo.orders import BattingStyle, MatchOrders
from engine.flungo.plan import choose_bowler, default_plan, default_xi, select
from engine.flungo.squad import BowlingStyle, Role, Team, generate_squad
from tests.engine.flungo.helpers import Scripted, dots, orders, squad, started

SEED_H_BATS = 2


def bowled(plan: tuple[tuple[int, str], ...], overs: int = 15) -> tuple[list[str], list[str]]:
    """Play turn 0 with A bowling ``plan``; the bowler of each over and the BOWLER events."""
    state = started(seed=SEED_H_BATS, away=orders("A", bowling_plan=plan))
    res = play_turn(state, dice=Scripted(dots(90)))
    texts = [e.text for e in res.events if isinstance(e, MatchEvent) and e.kind is EventKind.BOWLER]
    return list(res.state.innings[0].over_bowlers[:overs]), texts


def test_legal_plan_is_followed() -> None:
    """Every over of a legal plan is bowled by the planned bowler, with no event."""
    plan = tuple((o, f"A {5 + o % 2}") for o in range(1, 9))
    who, texts = bowled(plan, 8)
    assert who == [f"A {5 + o % 2}" for o in range(1, 9)]
    assert not any(t.startswith("over ") and int(t.split()[1].rstrip(":")) <= 8 for t in texts)


def fixes(plan: tuple[tuple[int, str], ...]) -> list[str]:
    """The selection fixes start_match reports for A's ``plan``."""
    state = started(seed=SEED_H_BATS, away=orders("A", bowling_plan=plan))
    return [e.text for e in state.log if e.kind is EventKind.SELECTION and e.team == "A"]


def test_two_overs_in_succession_allowed_not_three() -> None:
    """A bowler may bowl two overs in succession (the seed's limit) but not a third: the plan
    is mended before the match, nearest first (his third over moves to the next free one), and
    the mend is reported once."""
    plan = ((1, "A 5"), (2, "A 5"), (3, "A 5"))
    who, _ = bowled(plan, 4)
    assert who[:2] == ["A 5", "A 5"] and who[2] != "A 5" and who[3] == "A 5"
    assert fixes(plan) == [
        "bowling plan: A 5 would bowl more than 2 overs in succession (overs 1 to 3): he "
        "bowls over 4 instead of 3."
    ]


def test_the_match_still_refuses_a_third_over_in_succession() -> None:
    """In play (an over the mended plan could not foresee, as after an amendment), the
    bowler chosen is the planned one only while legal: a third over running goes to the
    best-ranked other bowler, and why is said."""
    spec = FORMATS[Format.T20]
    rank = ("A 5", "A 1", "A 2")
    chosen, why = choose_bowler(3, "A 5", rank, {}, {"A 5": 2}, ["A 5", "A 5"], spec)
    assert chosen == "A 1"
    assert why == "A 5 may not bowl more than 2 overs in succession"


def test_quota_is_enforced() -> None:
    """A fifth over in a T20 is refused and given to the default bowler."""
    who, texts = bowled(tuple((o, "A 5") for o in (1, 3, 5, 7, 9)), 9)
    assert who.count("A 5") == 4 and who[8] != "A 5"
    assert any("A 5 has bowled his 4 overs" in t for t in texts)


def test_keeper_and_strangers_cannot_bowl() -> None:
    """The wicket-keeper cannot bowl, nor a player outside the XI: their overs leave the plan
    before the match (one fix each, saying why) and the default bowls them."""
    plan = ((1, "A 3"), (2, "A 15"))
    who, _ = bowled(plan, 2)
    assert "A 3" not in who and "A 15" not in who
    assert fixes(plan) == [
        "bowling plan: A 3 keeps wicket (over 1): over 1 goes to the default bowler.",
        "bowling plan: A 15 is not in the XI (over 2): over 2 goes to the default bowler.",
    ]


def test_missing_plan_is_one_event_and_alternates() -> None:
    """No plan at all: one event, and the captain's default plan: the opening pair from
    both ends, then the next pair, then the 5th and 6th bowlers (the keeper, A 3, never)."""
    who, texts = bowled((), 10)
    assert texts == ["no bowling plan: default bowling"]
    assert who[:10] == ["A 1", "A 2"] * 2 + ["A 4", "A 5"] * 2 + ["A 6", "A 7"]


@pytest.mark.parametrize("fmt", list(Format))
def test_default_plan_shares_the_fifth_bowlers_overs_with_a_sixth(fmt: Format) -> None:
    """The best four bowl their quotas; the 5th and 6th share the rest (about 9% each), and
    nobody bowls two overs running (nor, in The Hundred, two sets across a change of ends)."""
    spec = FORMATS[fmt]
    plan = default_plan(["B1", "B2", "B3", "B4", "B5", "B6", "B7"], spec)
    assert sorted(plan) == list(range(1, spec.overs + 1))
    counts = Counter(plan.values())
    assert [counts[f"B{i}"] for i in range(1, 5)] == [spec.max_overs_per_bowler] * 4
    assert counts["B5"] == counts["B6"] and 0.08 <= counts["B6"] / spec.overs <= 0.11
    assert "B7" not in counts
    block = 2 if spec.is_hundred else 1
    for o in range(1 + block, spec.overs + 1, block):
        assert plan[o] != plan[o - 1]


def test_default_xi_picks_bowlers_for_the_pitch() -> None:
    """On a cracked pitch (spin +2) the default XI's 5th bowler is the spinner, not the
    slightly better seamer it picks on an average pitch."""
    team = squad("H")
    players = []
    strong = 0
    for p in team.players:
        if p.role is Role.WICKETKEEPER:
            players.append(p)
            continue
        strong += 1
        p = replace(p, bowling=20 if strong <= 4 else 0, batting=10)
        if p.name == "H 17":
            p = replace(p, bowling=11, batting=0, bowling_style=BowlingStyle.FAST)
        if p.name == "H 18":
            p = replace(p, bowling=10, batting=0, bowling_style=BowlingStyle.SPIN)
        players.append(p)
    team = replace(team, players=tuple(players))
    average, cracked = Conditions("G", 3, 1), Conditions("G", 5, 1)
    assert "H 17" in default_xi(team, average) and "H 18" not in default_xi(team, average)
    assert "H 18" in default_xi(team, cracked) and "H 17" not in default_xi(team, cracked)


def test_hurt_player_cannot_bowl() -> None:
    """A player retired hurt cannot bowl: his planned overs go to the default bowler."""
    home = orders("H", bowling_plan=((1, "H 1"), (2, "H 2")))
    state = started(seed=SEED_H_BATS, home=home)
    state = play_turn(state, dice=Scripted([5, 5, 10, 6, 2, 1, *dots(90)])).state
    assert state.injuries == (("H", "H 1", 1),)
    state = play_turn(state, dice=Scripted(dots(30))).state
    res = play_turn(state, dice=Scripted(dots(90)))
    texts = [e.text for e in res.events if isinstance(e, MatchEvent)]
    assert "over 1: H 1 is retired hurt, out of the match; H 2 bowls" in texts
    inn = res.state.innings[1]
    assert "H 1" not in inn.over_bowlers
    assert ("H", "sub (H 1)", 2, "H 1") in res.state.subs


def test_default_xi_picks_fit_keeper_bowlers_batsmen() -> None:
    """Default XI: fit players, one keeper, five best bowlers, best batsmen; in order."""
    team = generate_squad(Dice(11), "T")
    injured = replace(team.players[0], injury_points=2)
    team = team.with_player(1, injured)
    xi = default_xi(team)
    players = [team.player(n) for n in xi]
    assert len(xi) == 11 and injured.name not in xi
    assert sum(p.role is Role.WICKETKEEPER for p in players) == 1
    assert [p.batting for p in players] == sorted((p.batting for p in players), reverse=True)
    others = [p for p in team.players if p.role is not Role.WICKETKEEPER and p.injury_points == 0]
    top5 = sorted(others, key=lambda p: -p.bowling)[:5]
    assert all(p.name in xi for p in top5)


def test_select_fixes_bad_orders() -> None:
    """Bad names, injured players, repeats and a short XI are fixed and reported."""
    team = squad("H")
    team = team.with_player(5, replace(team.players[4], injury_points=1))
    given = MatchOrders(
        xi=("H 1", "H 1", "H 5", "Nobody", "H 2"), captain="H 17", wicketkeeper="H 16"
    )
    sel, fixes = select(team, given)
    assert len(sel.xi) == 11 and "H 5" not in sel.xi and sel.xi[0] == "H 1"
    assert sel.captain in sel.xi and sel.wicketkeeper == "H 3"
    assert sel.replacements == (("H 5", "H 3"),)
    assert (
        "H 5 is injured (1 injury point, not treated) and sits out: H 3 plays in his place "
        "(the best fit batsman left)"
    ) in fixes
    assert "Nobody is not in the squad: left out" in fixes
    assert "H 1 named twice in the XI" in fixes


def test_batting_order_fixes() -> None:
    """Batsmen missing from the given order bat last; names not in the XI are ignored."""
    sel, fixes = select(squad("H"), orders("H", batting_order=("H 11", "H 10", "X")))
    assert sel.xi[:2] == ("H 11", "H 10") and len(sel.xi) == 11
    assert any("X in the batting order ignored" in f for f in fixes)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), fmt=st.sampled_from(list(Format)))
def test_default_bowling_is_always_legal(seed: int, fmt: Format) -> None:
    """Default bowling keeps the quota and succession limit; no keeper or hurt bowls."""
    setup = MatchSetup(
        fmt,
        seed,
        Conditions("G", 1 + seed % 6, 1 + seed // 7 % 6),
        generate_squad(Dice(seed).derive("h"), "H"),
        generate_squad(Dice(seed).derive("a"), "A"),
    )
    state = play_match(setup).state
    spec = FORMATS[fmt]
    for inn in state.innings[:2]:
        who = inn.over_bowlers
        fielding = state.team(1 - inn.batting_side).name
        # Only the side batting first can have been hurt before it fields.
        hurt = {n for t, n, _ in state.injuries if t == fielding and inn.index == 1}
        keeper = state.selections[1 - inn.batting_side].wicketkeeper
        assert keeper not in who and not hurt & set(who)
        assert max(who.count(b) for b in who) <= spec.max_overs_per_bowler
        assert all(not (a == b == c) for a, b, c in zip(who, who[1:], who[2:], strict=False))


def test_missing_plan_not_repeated_after_drinks() -> None:
    """With no plan, the turn after drinks reports no default bowler over by over."""
    state = started(seed=SEED_H_BATS)
    state = play_turn(state, dice=Scripted(dots(90))).state
    res = play_turn(state, dice=Scripted(dots(30)))
    assert not [e for e in res.events if isinstance(e, MatchEvent) and e.kind is EventKind.BOWLER]


def _hurt(team: Team, name: str, points: int = 2) -> Team:
    slot = next(i for i, p in enumerate(team.players, start=1) if p.name == name)
    return team.with_player(slot, replace(team.players[slot - 1], injury_points=points))


def test_an_injured_player_is_replaced_in_his_slot_and_the_orders_stand() -> None:
    """An injured batsman in the given XI is replaced by the best fit batsman left, in his
    place in the XI and batting order, with his style; captain, keeper, order and styles of
    the others stand, and the fix says who replaced whom and why."""
    team = generate_squad(Dice(5), "T")
    xi = default_xi(team)
    order = tuple(reversed(xi))
    out = next(n for n in xi[1:] if team.player(n).role is Role.BATSMAN)
    given = MatchOrders(
        xi=xi,
        captain=xi[-1],
        wicketkeeper=next(n for n in xi if team.player(n).role is Role.WICKETKEEPER),
        batting_order=order,
        styles=((out, BattingStyle.WAHOO), (xi[0], BattingStyle.DEFENSIVE)),
    )
    hurt = _hurt(team, out)
    sel, fixes = select(hurt, given)
    [(gone, sub)] = sel.replacements
    spare = [p for p in team.players if p.name not in xi]
    best = max(spare, key=lambda p: (p.batting, -spare.index(p)))
    assert gone == out and sub == best.name
    assert sel.xi == tuple(sub if n == out else n for n in order)
    assert sel.captain == given.captain and sel.wicketkeeper == given.wicketkeeper
    assert dict(sel.styles)[sub] is BattingStyle.WAHOO
    assert dict(sel.styles)[xi[0]] is BattingStyle.DEFENSIVE
    assert f"{out} is injured (2 injury points, not treated) and sits out: {sub} plays" in (
        " ".join(fixes)
    )
    assert "no XI given: the default XI plays" not in fixes


def test_an_injured_keeper_is_replaced_by_a_keeper_and_a_bowler_by_a_bowler() -> None:
    """Keeper for keeper (who then keeps); a bowler for a bowler, best for the day's pitch and
    weather, who takes his planned overs when the match starts."""
    team = generate_squad(Dice(9), "T")
    xi = default_xi(team)
    keeper = next(n for n in xi if team.player(n).role is Role.WICKETKEEPER)
    spare_keeper = next(
        p.name for p in team.players if p.role is Role.WICKETKEEPER and p.name not in xi
    )
    bowler = next(n for n in xi if team.player(n).role is Role.STAR_BOWLER)
    plan = tuple((o, bowler if o % 2 else xi[0]) for o in range(1, 8))
    given = MatchOrders(xi=xi, captain=xi[0], wicketkeeper=keeper, bowling_plan=plan)
    cracked = Conditions("G", 5, 1)
    hurt = _hurt(_hurt(team, keeper, 1), bowler, 3)
    sel, fixes = select(hurt, given, cracked)
    subs = dict(sel.replacements)
    assert subs[keeper] == spare_keeper and sel.wicketkeeper == spare_keeper
    spare = [p for p in team.players if p.name not in xi and p.role is not Role.WICKETKEEPER]
    best = max(spare, key=lambda p: (p.bowling + cracked.modifier(p.bowling_style), p.batting)).name
    assert subs[bowler] == best
    assert f"{spare_keeper} keeps wicket in place of {keeper}" in fixes
    state = play_match(MatchSetup(Format.T20, 3, cracked, hurt, generate_squad(Dice(2))), given)
    assert dict(state.state.orders[0].bowling_plan)[1] == best
    assert all(b != bowler for b in dict(state.state.orders[0].bowling_plan).values())
