"""One delivery's dice, exactly as the seed's tables say (see ``docs/rules/flungo.md``).

:func:`deliver` rolls dice 1 and dice 2 (a D8 for defensive and aggressive batsmen, a D10 for
wahoo), reads the result table, and follows a HOWZAT through the dismissal type, the chance
check, catches, the umpire and reviews. It knows nothing of overs, strike or scores: the
innings does that with what it returns.

Order of rolls (each recorded with the purpose in brackets), for anyone replaying by hand:
``dice 1`` D6, ``dice 2`` D6/D8/D10; then, as the result needs it: ``3-3 runs`` D6, ``big hit``
D6, ``extras`` D6 then ``byes`` / ``leg byes`` D6; for a HOWZAT ``dismissal`` D10 (and
``dismissal other`` D6 on a 10), then ``run out fielder`` D10 and ``run out`` D6; or ``injury``
D6 and ``substitute fielding`` D4; or ``chance`` D20, then ``catch`` D6, ``catcher`` D10 (not
for the keeper), ``hard catch`` D6; or ``umpire`` D6 and ``review`` D6.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.dice import Dice
from engine.flungo.orders import BattingStyle

__all__ = [
    "BYE_RUNS",
    "EXTRAS",
    "EXTRA_KIND",
    "REVIEW_BATTING_FAILED",
    "REVIEW_BATTING_OVERTURNED",
    "REVIEW_BOWLING_FAILED",
    "REVIEW_BOWLING_OVERTURNED",
    "REVIEW_NONE",
    "SECOND_DIE",
    "SIMPLE",
    "SIMPLE_RUNS",
    "THIRD_DIE_RUNS",
    "Delivery",
    "chance_threshold",
    "deliver",
    "effective_pair",
    "follow",
]

# Result codes of the 2D6 table.
_DOT, _ONE, _TWO, _THREE3, _FOUR, _HOWZAT, _BIG, _EXTRAS = range(8)

SECOND_DIE: dict[str, int] = {
    BattingStyle.DEFENSIVE: 8,
    BattingStyle.NORMAL: 6,
    BattingStyle.AGGRESSIVE: 8,
    BattingStyle.WAHOO: 10,
}

# Run-out D6 modifiers by the striker's style.
_RUN_OUT_MOD: dict[str, int] = {
    BattingStyle.DEFENSIVE: 0,
    BattingStyle.NORMAL: 0,
    BattingStyle.AGGRESSIVE: -1,
    BattingStyle.WAHOO: -2,
}

REVIEW_NONE = 0
REVIEW_BATTING_FAILED = 1  # out stands; the batting side loses a review
REVIEW_BATTING_OVERTURNED = 2  # given not out on review; the review is kept
REVIEW_BOWLING_FAILED = 3
REVIEW_BOWLING_OVERTURNED = 4


def effective_pair(style: str, d1: int, d2: int) -> tuple[int, int] | None:
    """The (dice 1, dice 2) pair the table is read with, or ``None`` for a forced dot ball.

    A defensive 7 or 8 is a dot ball; an aggressive 7/8 or wahoo 7..10 matches dice 1.
    """
    if d2 <= 6:
        return d1, d2
    if style == BattingStyle.DEFENSIVE:
        return None
    return d1, d1


def _table_code(pair: tuple[int, int] | None) -> int:
    if pair is None:
        return _DOT
    return {
        (1, 1): _ONE,
        (1, 2): _ONE,
        (2, 1): _ONE,
        (2, 2): _TWO,
        (3, 3): _THREE3,
        (4, 4): _FOUR,
        (5, 5): _HOWZAT,
        (6, 6): _BIG,
        (1, 4): _EXTRAS,
    }.get(pair, _DOT)


# Precomputed: (style, d1, d2) -> result code, so the hot path does one dict lookup.
_CODES: dict[tuple[str, int, int], int] = {
    (str(style), d1, d2): _table_code(effective_pair(style, d1, d2))
    for style in BattingStyle
    for d1 in range(1, 7)
    for d2 in range(1, SECOND_DIE[style] + 1)
}

_THREE3_RUNS = (0, 1, 2, 3, 3, 3, 4)  # by D6: 1 = 1; 2 = 2; 3,4,5 = 3; 6 = all run four
_BIG_RUNS = (0, 4, 4, 4, 4, 6, 6)
_BYE_RUNS = (0, 1, 1, 1, 2, 2, 4)
_EXTRA_KIND = (None, "no_ball", "no_ball", "bye", "leg_bye", "leg_bye", "wide")


class Delivery(NamedTuple):
    """What one delivery did. ``fielder`` is a name or ``None``; ``injury`` is the hurt
    batsman's injury points (−1 if not hurt) and ``sub_fielding`` his substitute's fielding."""

    d1: int
    d2: int
    runs: int
    boundary: bool
    extra: str | None
    extra_runs: int
    wicket: str | None
    fielder: str | None
    injury: int
    sub_fielding: int
    review: int
    note: str


# tuple.__new__: a Delivery without NamedTuple's keyword-handling constructor (one for every
# ball that is not simple)
_new_delivery = tuple.__new__

# Deliveries that need no more dice (dots, ones, twos, 4-4 fours) are values: built once.
# (style, dice 1, dice 2) -> the delivery
_SIMPLE_RUNS = {_DOT: 0, _ONE: 1, _TWO: 2, _FOUR: 4}
SIMPLE: dict[tuple[str, int, int], Delivery] = {
    key: Delivery(
        key[1], key[2], _SIMPLE_RUNS[code], code == _FOUR, None, 0, None, None, -1, 0, 0, ""
    )
    for key, code in _CODES.items()
    if code in _SIMPLE_RUNS
}


# The same for a loop that reads the dice itself (a practice's innings): by style, dice 2's
# sides and, at ``(dice 1 - 1) << 4 | (dice 2 - 1)``, the runs of the simple delivery, or
# where one more die says the runs and nothing else happens (a 3-3, a big hit), the negative
# index of that die's runs table in THIRD_DIE_RUNS, or MORE where the dice need more
# (EXTRAS: then EXTRA_KIND by the third die and, for byes, BYE_RUNS by a fourth)
MORE, EXTRAS = -3, -4
THIRD_DIE_RUNS: tuple[tuple[int, ...], ...] = ((), _THREE3_RUNS, _BIG_RUNS)
_THIRD = {_THREE3: -1, _BIG: -2, _EXTRAS: EXTRAS}  # by code: -k is THIRD_DIE_RUNS[k]
EXTRA_KIND, BYE_RUNS = _EXTRA_KIND, _BYE_RUNS
SIMPLE_RUNS: dict[str, tuple[int, tuple[int, ...]]] = {
    str(style): (
        SECOND_DIE[style],
        tuple(
            SIMPLE[key].runs
            if (key := (str(style), (k >> 4) + 1, (k & 15) + 1)) in SIMPLE
            else _THIRD.get(_CODES.get(key, -1), MORE)
            for k in range(6 << 4)
        ),
    )
    for style in BattingStyle
}


def chance_threshold(bowling: int, modifier: int, batting: int) -> int:
    """H = 10 + bowler's skill (with pitch and weather modifier) − batsman's skill."""
    return 10 + bowling + modifier - batting


def _chance(dice: Dice, h: int) -> tuple[bool, str]:
    c = dice.roll(20, "chance")
    # The issue fixes the seed's "20 is always in" as: 1 is always a chance, 20 never.
    if c == 1 or (c != 20 and c <= h):
        return True, ""
    return False, f"no chance (D20 {c} > H {h})" if c != 20 else "no chance (D20 20)"


def deliver(
    dice: Dice,
    style: str,
    h: int,
    field: tuple[tuple[str, int], ...],
    keeper: tuple[str, int],
    bat_review: bool,
    bowl_review: bool,
) -> Delivery:
    """Roll one delivery to a batsman batting ``style`` with chance threshold ``h``.

    ``field`` is the ten fielders the D10 picks from (1 = ``field[0]``), ``keeper`` the
    wicket-keeper; ``bat_review``/``bowl_review`` say whether each side would review an lbw
    decision against it now (policy allows and a review is left).
    """
    roll = dice.roll
    d1 = roll(6, "dice 1")
    d2 = roll(SECOND_DIE[style], "dice 2")
    simple = SIMPLE.get((style, d1, d2))
    if simple is not None:
        return simple
    return follow(dice, d1, d2, style, h, field, keeper, bat_review, bowl_review)


def follow(
    dice: Dice,
    d1: int,
    d2: int,
    style: str,
    h: int,
    field: tuple[tuple[str, int], ...],
    keeper: tuple[str, int],
    bat_review: bool,
    bowl_review: bool,
) -> Delivery:
    """What :func:`deliver` does after dice 1 and 2 when they are not a :data:`SIMPLE`
    delivery: the 3-3, the big hit, the extras, a HOWZAT. The innings rolls the two dice
    itself (the simple ones are seven deliveries in eight) and works out whether each side
    would review an lbw only for the others."""
    roll = dice.roll
    code = _CODES[(style, d1, d2)]
    if code == _THREE3:
        runs = _THREE3_RUNS[roll(6, "3-3 runs")]
        note = "all run four" if runs == 4 else ""
        return _new_delivery(
            Delivery, (d1, d2, runs, False, None, 0, None, None, -1, 0, REVIEW_NONE, note)
        )
    if code == _BIG:
        runs = _BIG_RUNS[roll(6, "big hit")]
        return _new_delivery(
            Delivery, (d1, d2, runs, True, None, 0, None, None, -1, 0, REVIEW_NONE, "")
        )
    if code == _EXTRAS:
        kind = _EXTRA_KIND[roll(6, "extras")]
        if kind == "bye":
            n = _BYE_RUNS[roll(6, "byes")]
        elif kind == "leg_bye":
            n = _BYE_RUNS[roll(6, "leg byes")]
        else:
            n = 1  # a wide or no ball is one penalty run, and the ball is bowled again
        return _new_delivery(
            Delivery, (d1, d2, 0, False, kind, n, None, None, -1, 0, REVIEW_NONE, "")
        )
    return _howzat(dice, d1, d2, style, h, field, keeper, bat_review, bowl_review)


def _howzat(
    dice: Dice,
    d1: int,
    d2: int,
    style: str,
    h: int,
    field: tuple[tuple[str, int], ...],
    keeper: tuple[str, int],
    bat_review: bool,
    bowl_review: bool,
) -> Delivery:
    roll = dice.roll
    t = roll(10, "dismissal")
    kind: str
    if t == 10:
        other = roll(6, "dismissal other")
        kind = ("run out", "run out", "stumped", "stumped", "hit wicket", "retired hurt")[other - 1]
    else:
        kind = (
            "caught keeper",
            "caught keeper",
            "caught",
            "caught",
            "caught",
            "bowled",
            "bowled",
            "lbw",
            "run out",
        )[t - 1]

    def result(wicket: str | None, fielder: str | None, note: str, review: int = 0) -> Delivery:
        return _new_delivery(
            Delivery, (d1, d2, 0, False, None, 0, wicket, fielder, -1, 0, review, note)
        )

    if kind == "run out":
        name, fielding = field[roll(10, "run out fielder") - 1]
        throw = roll(6, "run out") + _RUN_OUT_MOD[style]
        if throw <= fielding:
            return result("run out", name, f"run out by {name}")
        return result(None, None, f"run out chance: {name} missed the stumps")
    if kind == "retired hurt":
        points = roll(6, "injury") - 1
        sub = 1 + roll(4, "substitute fielding")
        return _new_delivery(
            Delivery, (d1, d2, 0, False, None, 0, "retired hurt", None, points, sub, 0, "hurt")
        )
    ok, why = _chance(dice, h)
    if not ok:
        return result(None, None, f"{kind.replace(' keeper', '')}: {why}")
    if kind in ("caught", "caught keeper"):
        easy = roll(6, "catch") <= 4
        if kind == "caught keeper":
            name, fielding = keeper
        else:
            name, fielding = field[roll(10, "catcher") - 1]
        if easy:
            return result("caught", name, f"easy catch to {name}")
        if roll(6, "hard catch") <= fielding:
            return result("caught", name, f"hard catch held by {name}")
        return result(None, None, f"hard chance dropped by {name}")
    if kind == "stumped":
        return result("stumped", keeper[0], "")
    if kind != "lbw":
        return result(kind, None, "")  # bowled, hit wicket: always out
    out = roll(6, "umpire") > 2
    if out and bat_review:
        if roll(6, "review") <= 2:
            return result(None, None, "lbw given, overturned on review", REVIEW_BATTING_OVERTURNED)
        return result("lbw", None, "lbw; batting side's review failed", REVIEW_BATTING_FAILED)
    if not out and bowl_review:
        if roll(6, "review") <= 2:
            return result("lbw", None, "not out, overturned on review", REVIEW_BOWLING_OVERTURNED)
        return result(None, None, "not out; bowling side's review failed", REVIEW_BOWLING_FAILED)
    if out:
        return result("lbw", None, "")
    return result(None, None, "lbw: not out, benefit of the doubt")
