"""Many seeded practices and real matches are pinned, ball for ball, across every format.

Pinned before the practice's second halving (issue 28): a faster ball loop, dice drawn ahead
another way, or anything shared between the three practices must not change one roll, one
ball, one line of a practice's text, nor any ball of a real match (the replays and the audit
read those).
"""

from __future__ import annotations

import hashlib

from engine.dice import Dice
from engine.flungo.formats import Format
from engine.flungo.ground import Conditions
from engine.flungo.match import play_match
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
from engine.flungo.practice import practice_lines, practise
from engine.flungo.squad import Team, generate_squad
from engine.flungo.state import MatchSetup

ALL = StyleTarget(TargetKind.ALL)
FORMATS = (Format.T20, Format.HUNDRED, Format.FORTY, Format.FIFTY)
GROUNDS = (
    Conditions("The Gunge Bowl", 3, 1),
    Conditions("Wahoo Fields", 1, 5),
    Conditions("The Protoplasm", 6, 6),
)


def _orders(team: Team, k: int, fmt: Format) -> MatchOrders | None:
    """Orders of several shapes, by ``k``: none; styles, a plan and rules of every kind the
    practice reports; a plan alone."""
    if k % 3 == 0:
        return None
    xi = tuple(p.name for p in team.players[:11])
    overs = 10 if fmt is Format.HUNDRED else 5 + k % 4
    plan = tuple((o, xi[8 + o % 3]) for o in range(1, 9))
    if k % 3 == 2:
        return MatchOrders(xi=xi, bowling_plan=plan)
    rules = (
        Rule(
            Trigger(TriggerKind.AFTER_OVERS, overs),
            conditions=(Condition(Quantity.WICKETS, Comparison.LE, 2 + k % 3),),
            actions=(StyleChange(ALL, BattingStyle.AGGRESSIVE),),
            then=(
                Rule(
                    Trigger(TriggerKind.WICKET, 5),
                    actions=(StyleChange(ALL, BattingStyle.DEFENSIVE),),
                ),
            ),
        ),
        Rule(
            Trigger(TriggerKind.BALLS_LEFT, 12 + k), actions=(StyleChange(ALL, BattingStyle.WAHOO),)
        ),
        Rule(
            Trigger(TriggerKind.WICKET, 2 + k % 2), actions=(BowlingChange(xi[10], (overs + 1,)),)
        ),
        Rule(
            Trigger(TriggerKind.SCORE_REACHES, 40 + 7 * k),
            actions=(ReviewsChange(ReviewPolicy(ReviewMode.NEVER)),),
        ),
    )
    styles = ((xi[0], BattingStyle.AGGRESSIVE), (xi[3], BattingStyle.DEFENSIVE))
    return MatchOrders(xi=xi, bowling_plan=plan, rules=rules, styles=styles)


def practices_digest(n: int) -> str:
    """A digest of ``n`` practices in each format: every value of each and its lines."""
    h = hashlib.sha256()
    for fmt in FORMATS:
        for k in range(n):
            home = generate_squad(Dice(100 + k), "Gunge Giants")
            away = generate_squad(Dice(200 + k), "Snodge Stars")
            ground = GROUNDS[k % len(GROUNDS)]
            p = practise(home, _orders(home, k, fmt), away, fmt, ground, 7919 * k + 1)
            h.update(repr(p).encode())
            h.update("\n".join(practice_lines(p)).encode())
    return h.hexdigest()


def matches_digest(n: int) -> str:
    """A digest of ``n`` real matches in each format (knockouts among them), every event
    with every ball and its rolls, and the final state."""
    h = hashlib.sha256()
    for fmt in FORMATS:
        for k in range(n):
            home = generate_squad(Dice(300 + k), "Gunge Giants")
            away = generate_squad(Dice(400 + k), "Snodge Stars")
            ground = GROUNDS[k % len(GROUNDS)]
            setup = MatchSetup(fmt, 104729 * k + 5, ground, home, away, knockout=k % 2 == 1)
            res = play_match(setup, _orders(home, k, fmt), _orders(away, k + 1, fmt))
            h.update(repr(res.events).encode())
            h.update(repr(res.state).encode())
    return h.hexdigest()


PRACTICES = "790b9e2f272e7f549002a821dc902d47d8afbfc7b2888144875a6cbdb3dbce7d"
MATCHES = "5f6709b1b0636cb26227f3ae006299bb8f14deecfe015284e378c50754b68887"


def test_seeded_practices_are_unchanged() -> None:
    """Twelve practices in each of the four formats, of orders of every shape, are what
    they were when pinned: every outcome, bowler, score and line."""
    assert practices_digest(12) == PRACTICES


def test_seeded_real_matches_are_unchanged_ball_for_ball() -> None:
    """Eight real matches in each format, knockouts among them, are what they were when
    pinned: every event, every ball with its dice, and the final state."""
    assert matches_digest(8) == MATCHES
