"""The practice's fast path (the XIs settled once, dice drawn ahead and unrecorded, no ball
kept) gives exactly what playing its matches the documented way gives: the engine's own
start_match and play_turn on each turn's recorded stream, read ball by ball."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import Dice, UnrecordedDice, seed_from_text
from engine.flungo.events import Ball, Event, MatchEvent, RuleFired, RuleReverted, RuleSpent
from engine.flungo.formats import FORMATS, Format
from engine.flungo.ground import Conditions
from engine.flungo.match import Quiet, play_turn, settle, start_match, turn_dice
from engine.flungo.orders import MatchOrders
from engine.flungo.practice import (
    BATTING,
    BOWLING,
    Outcome,
    OutcomeKind,
    Practice,
    RulePractice,
    _bowling,
    _label,
    _never,
    _paths,
    _scores,
    _sides,
    practise,
)
from engine.flungo.rules import rule_at
from engine.flungo.squad import Team, generate_squad
from engine.flungo.state import MatchSetup, MatchState
from tests.engine.orders.squad import fixture_team
from tests.engine.orders.strategies import match_orders

TEAM = fixture_team()
OPPONENT = generate_squad(Dice(2), "Snodge Stars")


def _seen(turns: list[list[Event]], index: int, team: str, number: str) -> Outcome | None:
    """The reference reading: the first firing of rule ``number`` in innings ``index``, with
    the score summed over the balls bowled before it."""
    runs = wickets = 0
    for events in turns[2 * index : 2 * index + 2]:
        for e in events:
            if isinstance(e, Ball):
                runs += e.runs + e.extra_runs
                wickets += e.wicket is not None and e.wicket != "retired hurt"
            elif isinstance(e, RuleFired | RuleSpent) and e.team == team and e.rule == number:
                kind = OutcomeKind.FIRED if isinstance(e, RuleFired) else OutcomeKind.SPENT
                return Outcome(kind, e.at_ball, wickets, runs)
    return None


def reference(
    team: Team,
    orders: MatchOrders | None,
    opponent: Team,
    fmt: Format,
    conditions: Conditions,
    seed: int,
    opponent_xi: tuple[str, ...] | None,
) -> Practice:
    """The practice as it was first written: each match settled, tossed and played turn by
    turn with the match's own recorded dice, every ball kept and read."""
    opp = MatchOrders(xi=opponent_xi) if opponent_xi is not None else None
    matches: list[tuple[MatchState, list[list[Event]]]] = []
    for k in (1, 2, 3):
        setup = MatchSetup(fmt, seed_from_text(f"{seed}:practice {k}"), conditions, team, opponent)
        state = start_match(setup, orders, opp).state
        turns: list[list[Event]] = []
        while not state.is_over:
            res = play_turn(state)
            state = res.state
            turns.append(list(res.events))
        matches.append((state, turns))
    first = matches[0][0]
    rules = first.orders[0].rules
    found = []
    for path in _paths(rules):
        rule = rule_at(rules, path)
        number = ".".join(str(p + 1) for p in path)
        parent = ".".join(str(p + 1) for p in path[:-1])
        per_side: dict[str, list[Outcome]] = {s: [] for s in _sides(rule)}
        for state, turns in matches:
            for inn in state.innings[:2]:
                side = BATTING if inn.batting_side == 0 else BOWLING
                if side not in per_side:
                    continue
                seen = _seen(turns, inn.index, team.name, number)
                if seen is None:
                    before = _seen(turns, inn.index, team.name, parent) if parent else None
                    waited = len(path) == 1 or (
                        before is not None and before.kind is OutcomeKind.FIRED
                    )
                    seen = _never(rule, inn, state, waited)
                per_side[side].append(seen)
        outcomes = tuple((s, tuple(o)) for s, o in per_side.items())
        found.append(RulePractice(path, _label(rules, path), outcomes))
    return Practice(
        seed,
        first.setup.spec,
        tuple(found),
        tuple(_bowling(s, t) for s, t in matches),
        tuple(_scores(s) for s, _ in matches),
        bool(first.orders[0].bowling_plan),
        opponent.name,
    )


FORMATS_ = st.sampled_from(list(Format))
CONDITIONS = st.builds(Conditions, st.just("The Gunge Bowl"), st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    fmt=FORMATS_,
    conditions=CONDITIONS,
    seed=st.integers(0, 2**64 - 1),
    known_xi=st.booleans(),
)
def test_the_fast_practice_is_the_reference_practice(
    data: st.DataObject, fmt: Format, conditions: Conditions, seed: int, known_xi: bool
) -> None:
    """For any orders (conditional ones, plans, reviews), format, pitch, weather and seed,
    with or without the opponent's XI known, the practice equals the reference one."""
    orders = data.draw(st.none() | match_orders(FORMATS[fmt]))
    opponent_xi = tuple(p.name for p in OPPONENT.players[2:13]) if known_xi else None
    got = practise(TEAM, orders, OPPONENT, fmt, conditions, seed, opponent_xi=opponent_xi)
    want = reference(TEAM, orders, OPPONENT, fmt, conditions, seed, opponent_xi)
    assert got == want


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), fmt=FORMATS_, conditions=CONDITIONS, seed=st.integers(0, 2**64 - 1))
def test_a_turn_without_its_balls_is_the_turn_with_them(
    data: st.DataObject, fmt: Format, conditions: Conditions, seed: int
) -> None:
    """A turn played for a practice (``quiet``, unrecorded dice) leaves the state the turn
    leaves, but for the balls; its events are the turn's but for the balls; and each event
    of the orders is listed with the runs and wickets the balls before it add up to."""
    orders = data.draw(st.none() | match_orders(FORMATS[fmt]))
    setup = MatchSetup(fmt, seed, conditions, TEAM, OPPONENT)
    quiet = Quiet(settle(setup, orders))
    full = start_match(setup, orders).state
    fast = start_match(setup, settled=quiet.settled).state
    assert fast == full
    while not full.is_over:
        ref = play_turn(full)
        scores: list[tuple[MatchEvent, int, int]] = []
        quiet.scores = scores
        res = play_turn(fast, dice=turn_dice(fast, UnrecordedDice), quiet=quiet)
        no_balls = tuple(replace(i, balls=()) for i in ref.state.innings)
        assert res.state == replace(ref.state, innings=no_balls)
        assert res.events == tuple(e for e in ref.events if not isinstance(e, Ball))
        index = full.turn // 2
        started = full.innings[index] if len(full.innings) > index else None
        runs, wickets = (started.runs, started.wickets) if started else (0, 0)
        said: list[tuple[MatchEvent, int, int]] = []
        for e in ref.events:
            if isinstance(e, Ball):
                runs += e.total
                wickets += e.wicket is not None and e.wicket != "retired hurt"
            elif isinstance(e, RuleFired | RuleSpent | RuleReverted):
                said.append((e, runs, wickets))
        assert scores == said
        full, fast = ref.state, res.state
    assert fast.result == full.result


def test_a_knockout_keeps_its_balls() -> None:
    """A knockout's tie goes to Super Overs, decided on the boundaries in the balls: a turn
    of one is never played without them."""
    setup = MatchSetup(Format.T20, 1, Conditions("The Gunge Bowl", 3, 1), TEAM, OPPONENT, True)
    state = start_match(setup).state
    with pytest.raises(ValueError, match="knockout"):
        play_turn(state, quiet=Quiet(settle(setup)))


def test_a_settlement_serves_only_matches_that_differ_in_their_seed() -> None:
    """What settle() made for one match starts another on another seed as start_match would
    settle it itself; for another pitch, format or opponent it is refused."""
    ground = Conditions("The Gunge Bowl", 3, 1)
    setup = MatchSetup(Format.T20, 1, ground, TEAM, OPPONENT)
    settled = settle(setup)
    other_seed = replace(setup, seed=2)
    assert start_match(other_seed, settled=settled) == start_match(other_seed)
    for other in (
        replace(setup, conditions=Conditions("The Gunge Bowl", 5, 6)),
        replace(setup, format=Format.FIFTY),
        replace(setup, away=generate_squad(Dice(3), "Snodge Stars")),
    ):
        with pytest.raises(ValueError, match="only the seed"):
            start_match(other, settled=settled)


def test_an_until_met_by_the_ball_that_fired_its_rule_is_asked_at_the_next_ball() -> None:
    """A rule whose "until" is its own trigger ("when the 1st wicket falls ...; but when the
    1st wicket falls ...") is undone before the next ball in a practice as in the match: the
    practice's run of simple balls stops where the rules are asked before every ball (found
    by hypothesis: the practice undid it five balls late, at the over's end)."""
    from engine.flungo.orders import (
        BattingStyle,
        Rule,
        StyleChange,
        StyleTarget,
        TargetKind,
        Trigger,
        TriggerKind,
    )

    everyone = StyleTarget(TargetKind.ALL, (), 0, ())
    rule = Rule(
        Trigger(TriggerKind.WICKET, 1),
        (),
        (StyleChange(everyone, BattingStyle.DEFENSIVE),),
        Trigger(TriggerKind.WICKET, 1),
    )
    setup = MatchSetup(Format.T20, 2, Conditions("The Gunge Bowl", 1, 1), TEAM, OPPONENT)
    orders = MatchOrders(rules=(rule,))
    quiet = Quiet(settle(setup, orders))
    full = start_match(setup, orders).state
    fast = start_match(setup, settled=quiet.settled).state
    while not full.is_over:
        ref = play_turn(full)
        quiet.scores = []
        res = play_turn(fast, dice=turn_dice(fast, UnrecordedDice), quiet=quiet)
        assert res.state.log == ref.state.log
        full, fast = ref.state, res.state
