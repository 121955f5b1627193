"""Conditions on runs needed and balls left, read from text and obeyed in a played match."""

from __future__ import annotations

from engine.flungo.events import EventKind, MatchEvent
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import parse_orders
from engine.flungo.match import MatchState, Resolution, play_turn
from engine.flungo.orders import Rule
from tests.engine.flungo.helpers import Scripted, dots, orders, squad, started

SEED_H_BATS = 2


def rules(text: str, side: str) -> tuple[Rule, ...]:
    """The rules of ``text`` read against the helper squad ``side`` ("H 1" .. "H 18")."""
    result = parse_orders(text, squad(side), FORMATS[Format.T20])
    assert result.errors == (), [str(e) for e in result.errors]
    assert result.orders.match is not None
    return result.orders.match.rules


def kinds(res: Resolution) -> list[EventKind]:
    return [e.kind for e in res.events if isinstance(e, MatchEvent) and e.kind.name[:4] == "RULE"]


def first_innings(text: str) -> Resolution:
    state = started(seed=SEED_H_BATS, home=orders("H", rules=rules(text, "H")))
    return play_turn(state, dice=Scripted(dots(90)))


def test_balls_left_condition_holds_in_a_match() -> None:
    """ "if more than 100 balls are left" holds after 1 ball of 120: the rule fires."""
    res = first_innings("after 1 ball, if more than 100 balls are left: all batsmen wahoo")
    assert kinds(res) == [EventKind.RULE_FIRED]
    balls = res.state.innings[0].balls
    assert (balls[0].style, balls[1].style) == ("normal", "wahoo")


def test_balls_left_condition_fails_in_a_match() -> None:
    """ "if balls left < 100" fails after 1 ball of 120: the rule is spent."""
    res = first_innings("after 1 ball, if balls left < 100: all batsmen wahoo")
    assert kinds(res) == [EventKind.RULE_SPENT]
    assert {b.style for b in res.state.innings[0].balls} == {"normal"}


def second_innings(text: str) -> Resolution:
    """A (batting second) has the rule; innings 1 is all dots, so A needs 1 to win."""
    state: MatchState = started(seed=SEED_H_BATS, away=orders("A", rules=rules(text, "A")))
    for n in (90, 30):
        state = play_turn(state, dice=Scripted(dots(n))).state
    return play_turn(state, dice=Scripted([6, 5, 1, 1]))


def test_runs_needed_condition_holds_in_the_chase() -> None:
    """ "if we need 1 or more" holds at the start of the chase for 1: the rule fires."""
    res = second_innings("after 0 balls, if we need 1 or more: all batsmen wahoo")
    assert kinds(res) == [EventKind.RULE_FIRED]
    assert res.state.innings[1].balls[0].style == "wahoo"


def test_runs_needed_condition_fails_in_the_chase() -> None:
    """ "if runs needed >= 2" fails when 1 is needed: the rule is spent."""
    res = second_innings("after 0 balls, if runs needed >= 2: all batsmen wahoo")
    assert kinds(res) == [EventKind.RULE_SPENT]
    assert res.state.innings[1].balls[0].style == "normal"


def test_runs_needed_means_nothing_in_the_first_innings() -> None:
    """With no target, a condition on runs needed does not hold: the rule is spent."""
    res = first_innings("after 1 ball, if runs needed < 1000: all batsmen wahoo")
    assert kinds(res) == [EventKind.RULE_SPENT]
