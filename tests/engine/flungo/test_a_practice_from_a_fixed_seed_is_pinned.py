"""A practice from a fixed seed is pinned: its lines, and a digest of every value it holds.

Pinned before the practice was made cheaper, so that no change of speed changes a roll: the
practice must stay the engine's own match on its documented seeds, ball for ball.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.dice import Dice
from engine.flungo.formats import Format
from engine.flungo.ground import Conditions
from engine.flungo.orders import (
    BattingStyle,
    BowlingChange,
    Comparison,
    Condition,
    MatchOrders,
    Quantity,
    ReviewMode,
    ReviewPolicy,
    ReviewsChange,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from engine.flungo.practice import Practice, practice_lines, practise
from engine.flungo.squad import generate_squad

GOLDEN = Path(__file__).parent / "golden"
HOME = generate_squad(Dice(21), "Gunge Giants")
AWAY = generate_squad(Dice(22), "Snodge Stars")
ALL = StyleTarget(TargetKind.ALL)
XI = tuple(p.name for p in HOME.players[:11])


def _orders(fmt: Format) -> MatchOrders:
    """Orders that touch every part the practice reports: a plan that runs out, batting
    rules with conditions and a "but", a bowling change, a reviews change."""
    a, b, c = XI[8], XI[9], XI[10]
    plan = ((1, a), (2, b), (3, a), (4, b), (5, c), (6, c))
    overs = 10 if fmt is Format.HUNDRED else 4
    batting = Rule(
        Trigger(TriggerKind.AFTER_OVERS, overs),
        conditions=(Condition(Quantity.WICKETS, Comparison.LE, 3),),
        actions=(StyleChange(ALL, BattingStyle.AGGRESSIVE),),
        then=(
            Rule(Trigger(TriggerKind.WICKET, 5), actions=(StyleChange(ALL, BattingStyle.NORMAL),)),
        ),
    )
    wahoo = Rule(
        Trigger(TriggerKind.BALLS_LEFT, 18), actions=(StyleChange(ALL, BattingStyle.WAHOO),)
    )
    bowling = Rule(Trigger(TriggerKind.WICKET, 2), actions=(BowlingChange(c, (overs + 1,)),))
    reviews = Rule(
        Trigger(TriggerKind.SCORE_REACHES, 60),
        actions=(ReviewsChange(ReviewPolicy(ReviewMode.NEVER)),),
    )
    return MatchOrders(xi=XI, bowling_plan=plan, rules=(batting, wahoo, bowling, reviews))


CASES = {
    "t20": (Format.T20, 20261204, Conditions("The Gunge Bowl", 5, 6)),
    "hundred": (Format.HUNDRED, 7, Conditions("Wahoo Fields", 1, 5)),
    "fifty": (Format.FIFTY, 2**64 - 3, Conditions("The Protoplasm", 3, 1)),
}


def play(name: str) -> tuple[Practice, list[str]]:
    """The pinned case ``name``: its practice and its lines."""
    fmt, seed, ground = CASES[name]
    p = practise(HOME, _orders(fmt), AWAY, fmt, ground, seed)
    return p, practice_lines(p)


def reference_matches(name: str) -> str:
    """A digest of the three practice matches of case ``name`` played the documented way
    (the engine's start_match and play_turn, each turn on its own derived stream): every
    event, every ball and the final state, scorecards included."""
    from engine.dice import seed_from_text
    from engine.flungo.match import play_turn, start_match
    from engine.flungo.state import MatchSetup

    fmt, seed, ground = CASES[name]
    h = hashlib.sha256()
    for k in (1, 2, 3):
        setup = MatchSetup(
            fmt, seed_from_text(f"{seed}:practice {k}"), ground, HOME, AWAY, knockout=False
        )
        res = start_match(setup, _orders(fmt), None)
        while not res.state.is_over:
            dice = Dice(setup.seed).derive(f"turn {res.state.turn}")
            res = play_turn(res.state, dice=dice)
            h.update(repr(res.events).encode())
        h.update(repr(res.state).encode())
    return h.hexdigest()


# (digest of the Practice value, digest of its three matches played turn by turn)
PINNED = {
    "t20": (
        "a170676994b24ca6dc44aef0aec3eaac5c412879f5a7f61915bdc7aed2c5bd3a",
        "462a9c2fb5ce049e47fddbbfee9094cdfaef8866b0d860b1a0ae80ea45ac61fa",
    ),
    "hundred": (
        "2613b0f537990b47afbaa0a643d71fdfe35941f3fbbf2611e57628ac85d676b0",
        "07075ed911decbfcb21762659b1df43bfdc85f8041a1f7f935be774e0a5dbaa7",
    ),
    "fifty": (
        "29c6daeed6eb13f68e9778298d1b2706e674ac256df31b454f2744d24f012263",
        "bcbd5263c55b2afe6b120efb42efe1b9fb0744714b09de4f5656dbc026d40265",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_practice_from_a_fixed_seed_is_unchanged(name: str) -> None:
    """The practice's lines (golden/practice_NAME.txt) and every value it holds are what
    they were when pinned."""
    p, lines = play(name)
    assert "\n".join(lines) + "\n" == (GOLDEN / f"practice_{name}.txt").read_text("utf-8")
    assert hashlib.sha256(repr(p).encode()).hexdigest() == PINNED[name][0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_practice_matches_played_the_documented_way_are_unchanged(name: str) -> None:
    """Its three matches played turn by turn by the engine, every event and ball and the
    final state with its scorecards, are what they were when pinned."""
    assert reference_matches(name) == PINNED[name][1]
