"""One delivery's dice, table by table, as the seed says (docs/rules/flungo.md)."""

from __future__ import annotations

import pytest

from engine.flungo.ball import (
    REVIEW_BATTING_FAILED,
    REVIEW_BATTING_OVERTURNED,
    REVIEW_BOWLING_FAILED,
    REVIEW_BOWLING_OVERTURNED,
    REVIEW_NONE,
    Delivery,
    deliver,
    effective_pair,
)
from tests.engine.flungo.helpers import Scripted

FIELD = tuple((f"F{i}", i % 7) for i in range(1, 11))  # F1 fielding 1 ... F6 6, F7 0, ...
KEEPER = ("K", 4)


def go(
    values: list[int], style: str = "normal", h: int = 10, bat: bool = False, bowl: bool = False
) -> Delivery:
    dice = Scripted(values)
    d = deliver(dice, style, h, FIELD, KEEPER, bat, bowl)
    assert dice.values == [], "every scripted roll was used"
    return d


@pytest.mark.parametrize(
    ("d1", "d2", "runs"),
    [(1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 2), (4, 4, 4), (1, 3, 0), (4, 1, 0), (6, 5, 0)],
)
def test_result_table_simple_cells(d1: int, d2: int, runs: int) -> None:
    """The 2D6 table: 1-1, 1-2, 2-1 one run; 2-2 two; 4-4 a boundary four; others dot (4-1 too)."""
    d = go([d1, d2])
    assert (d.runs, d.extra, d.wicket) == (runs, None, None)
    assert d.boundary == (runs == 4)


@pytest.mark.parametrize(("roll", "runs"), [(1, 1), (2, 2), (3, 3), (4, 3), (5, 3), (6, 4)])
def test_three_three_runs_table(roll: int, runs: int) -> None:
    """3-3: D6 1 = 1, 2 = 2, 3-5 = 3, 6 = all run four (not a boundary)."""
    d = go([3, 3, roll])
    assert d.runs == runs and not d.boundary


@pytest.mark.parametrize(("roll", "runs"), [(1, 4), (4, 4), (5, 6), (6, 6)])
def test_big_hit(roll: int, runs: int) -> None:
    """6-6 big hit: D6 1-4 four, 5-6 six, both boundaries."""
    d = go([6, 6, roll])
    assert d.runs == runs and d.boundary


@pytest.mark.parametrize(
    ("rolls", "kind", "n"),
    [
        ([1, 4, 1], "no_ball", 1),
        ([1, 4, 2], "no_ball", 1),
        ([1, 4, 3, 3], "bye", 1),
        ([1, 4, 3, 4], "bye", 2),
        ([1, 4, 4, 5], "leg_bye", 2),
        ([1, 4, 5, 6], "leg_bye", 4),
        ([1, 4, 6], "wide", 1),
    ],
)
def test_extras_table_and_wide_no_ball_runs(rolls: list[int], kind: str, n: int) -> None:
    """1-4 extras: D6 picks the kind, byes use their D6 table, a wide or no ball is one run."""
    d = go(rolls)
    assert (d.extra, d.extra_runs, d.runs) == (kind, n, 0)


def test_defensive_seven_or_eight_is_a_dot() -> None:
    """Defensive: dice 2 is a D8 and 7 or 8 is a dot ball even after a 5."""
    assert effective_pair("defensive", 5, 7) is None
    d = go([5, 8], "defensive")
    assert (d.runs, d.wicket, d.note) == (0, None, "")


def test_aggressive_seven_matches_dice_one() -> None:
    """Aggressive: a D8 7 or 8 matches dice 1, so 5,7 is a HOWZAT (here bowled)."""
    d = go([5, 7, 6, 5], "aggressive")  # dismissal 6 = bowled, D20 5 <= H 10
    assert d.wicket == "bowled"


def test_wahoo_uses_a_d10_and_nine_matches() -> None:
    """Wahoo: dice 2 is a D10; 6,9 reads as 6-6, a big hit."""
    dice = Scripted([6, 9, 5])
    d = deliver(dice, "wahoo", 10, FIELD, KEEPER, False, False)
    assert d.runs == 6 and dice.rolls[1].die == 10


def test_second_die_sizes_by_style() -> None:
    """Dice 2 is a D6 normal, D8 defensive and aggressive, D10 wahoo."""
    for style, die in (("normal", 6), ("defensive", 8), ("aggressive", 8), ("wahoo", 10)):
        dice = Scripted([2, 3])
        deliver(dice, style, 10, FIELD, KEEPER, False, False)
        assert dice.rolls[1].die == die


def test_chance_d20_above_h_is_no_chance() -> None:
    """Bowled needs a chance: D20 above H means no chance."""
    d = go([5, 5, 6, 11], h=10)
    assert d.wicket is None and "no chance" in d.note


def test_chance_one_always_twenty_never() -> None:
    """A D20 of 1 is always a chance (H negative), a 20 never (H 30): the issue's reading."""
    assert go([5, 5, 7, 1], h=-5).wicket == "bowled"
    assert go([5, 5, 7, 20], h=30).wicket is None


def test_caught_by_keeper_easy_and_hard() -> None:
    """Dismissal 1-2: keeper; D6 1-4 easy (out); 5-6 hard, held if D6 <= keeper's fielding."""
    assert go([5, 5, 1, 3, 4]) == Delivery(
        5, 5, 0, False, None, 0, "caught", "K", -1, 0, 0, "easy catch to K"
    )
    assert go([5, 5, 2, 3, 5, 4]).wicket == "caught"  # hard, 4 <= fielding 4
    assert go([5, 5, 2, 3, 6, 5]).wicket is None  # hard, 5 > 4: dropped


def test_catcher_d10_numbering() -> None:
    """For a fielder's catch the D10 picks field[n-1]; a hard catch needs D6 <= his fielding."""
    d = go([5, 5, 3, 2, 1, 7])  # easy, catcher 7 (fielding 0): easy catches are always made
    assert (d.wicket, d.fielder) == ("caught", "F7")
    assert go([5, 5, 4, 2, 5, 7, 1]).wicket is None  # hard to F7 (fielding 0): dropped
    assert go([5, 5, 5, 2, 6, 6, 6]).fielder == "F6"  # hard to F6 (fielding 6): held


def test_run_out_no_chance_check_and_style_modifier() -> None:
    """Run out (9): no D20; D10 fielder; D6 (−1 aggressive, −2 wahoo) <= his fielding is out."""
    assert go([5, 5, 9, 3, 4]).wicket is None  # F3 fielding 3, D6 4
    assert go([5, 7, 9, 3, 4], "aggressive").wicket == "run out"  # 4-1 = 3 <= 3
    d = go([5, 7, 9, 2, 4], "wahoo")  # 4-2 = 2 <= F2's 2
    assert (d.wicket, d.fielder) == ("run out", "F2")


def test_other_dismissals() -> None:
    """10 then D6: 1-2 run out, 3-4 stumped (chance, always out), 5 hit wicket, 6 hurt."""
    assert go([5, 5, 10, 1, 1, 1]).wicket == "run out"
    d = go([5, 5, 10, 3, 10])
    assert (d.wicket, d.fielder) == ("stumped", "K")
    assert go([5, 5, 10, 4, 11]).wicket is None
    assert go([5, 5, 10, 5, 2]).wicket == "hit wicket"


def test_hurt_injury_points_and_substitute() -> None:
    """Hurt: injury D6 − 1 points, retired hurt, and a substitute with fielding 1 + D4."""
    d = go([5, 5, 10, 6, 1, 4])
    assert (d.wicket, d.injury, d.sub_fielding) == ("retired hurt", 0, 5)
    assert go([5, 5, 10, 6, 6, 1]).injury == 5


def test_lbw_benefit_of_the_doubt() -> None:
    """Lbw: out unless the umpire's D6 is 1 or 2 (benefit of the doubt); no review asked."""
    assert go([5, 5, 8, 5, 3]).wicket == "lbw"
    d = go([5, 5, 8, 5, 2])
    assert d.wicket is None and d.review == REVIEW_NONE and "benefit" in d.note


def test_reviews_batting_side() -> None:
    """Given out, the batting side reviews: D6 1-2 overturns (kept), else the review fails."""
    d = go([5, 5, 8, 5, 3, 2], bat=True)
    assert (d.wicket, d.review) == (None, REVIEW_BATTING_OVERTURNED)
    d = go([5, 5, 8, 5, 3, 3], bat=True)
    assert (d.wicket, d.review) == ("lbw", REVIEW_BATTING_FAILED)


def test_reviews_bowling_side() -> None:
    """Given not out, the bowling side reviews: D6 1-2 overturns to out, else it fails."""
    d = go([5, 5, 8, 5, 1, 1], bowl=True)
    assert (d.wicket, d.review) == ("lbw", REVIEW_BOWLING_OVERTURNED)
    d = go([5, 5, 8, 5, 1, 6], bowl=True)
    assert (d.wicket, d.review) == (None, REVIEW_BOWLING_FAILED)


def test_reviews_only_for_lbw() -> None:
    """A side with reviews does not review a bowled: no review die is rolled."""
    d = go([5, 5, 6, 5], bat=True, bowl=True)
    assert (d.wicket, d.review) == ("bowled", REVIEW_NONE)
