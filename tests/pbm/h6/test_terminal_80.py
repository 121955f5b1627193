"""Hit for Six at a terminal 80 columns wide (a real pseudo-terminal): the hand stays
playable, the position always shows, every figure a Rule reads is there under one name each,
and the game gives the engine's grade and code."""

from __future__ import annotations

import re

import pytest

from engine.hitforsix.code import encode
from engine.hitforsix.deal import deal, parse_seed
from engine.hitforsix.game import play_solo
from engine.hitforsix.over import Decisions
from engine.hitforsix.rules import Rule
from engine.hitforsix.testmatch import over_deal
from pbm.games.hitforsix.decks.load import load_deck
from tests.pbm.h6.terminal import Terminal

ROW = re.compile(r"^\s*(\d{1,2})\*? ")


def _rows(screen: str) -> list[str]:
    return [ln for ln in screen.splitlines() if ROW.match(ln)]


def test_a_hand_played_at_80_columns() -> None:
    """``pbm h6 play`` on an 80-column pty: no line is wider than 80, each table row starts
    with its position, batting shows BF and bowling BB (never a bare "Balls"), the attack is
    marked, the replacements just drawn are named, and the grade and code are the engine's."""
    term = Terminal(["h6", "play", "--deck", "test", "--seed", "42"], columns=80)
    first = term.expect("Window 1, drop:")  # the prompt itself: type only once it shows
    assert "BF" in first and "BB" in first and "Balls" not in first.replace("balls", "")
    assert "Ctry" in first and "Fingerprint" in first
    rows = _rows(first)
    assert len(rows) == 22, first  # eleven men, batting and bowling: each with its position
    bowling = _rows(first.split(": bowling")[1])
    assert sum(1 for r in bowling if re.search(r"(?:-|\d\.\d)\s+[Aa]\s+\S+\s*$", r)) == 5
    term.send("0, 1, 2")
    second = term.expect("Window 2, drop:")
    d = deal(load_deck("test"), parse_seed("42"))
    assert f"In came: {d.cards[11].name} (11)" in " ".join(second.split())
    term.send("3")
    term.expect("Window 3, drop:")
    term.send("name")
    screen = term.close()
    assert term.proc.returncode == 0
    assert max(len(ln) for ln in screen.splitlines()) <= 80, [
        ln for ln in screen.splitlines() if len(ln) > 80
    ]
    game = play_solo(d, d.rule, Decisions.from_text("0,1,2/3"))
    assert f"Grade: {game.grade.grade:.1f}" in screen
    assert f"Challenge code: {encode(game)}" in screen
    assert f"beats {game.grade.beats:,} of 12,375" in screen


@pytest.mark.slow
def test_deal_says_it_is_the_daily_xi_and_the_line_only_under_six_and_out() -> None:
    """``pbm h6 deal`` with nothing said names the deal the Daily XI; the Six and Out line is
    printed only when the Rule is Six and Out; every row keeps its position at 80 columns."""
    term = Terminal(["h6", "deal"], columns=80)
    screen = term.close()
    assert "The Daily XI of" in screen
    assert len(_rows(screen)) == 2 * 17
    seed = next(s for s in range(200) if deal(load_deck("t20i"), s).rule is not Rule.SIX_AND_OUT)
    other = Terminal(["h6", "deal", "--seed", str(seed)], columns=80).close()
    assert "line" not in other.split("Rule:")[-1] and "Daily XI" not in other
    six = next(s for s in range(200) if deal(load_deck("t20i"), s).rule is Rule.SIX_AND_OUT)
    shown = Terminal(["h6", "deal", "--seed", str(six)], columns=80).close()
    assert "Six and Out (the line:" in shown


# A Test Match played in a pty; the loop keeps the pty hand above and
# tests/pbm/test_h6_cli.py's reveal under The Toss.
@pytest.mark.slow
def test_the_toss_in_a_test_match_reveals_its_rule() -> None:
    """A Test Match's over under The Toss shows the Rule it hid, as solo play does."""
    deck = load_deck("t20i")
    seed = next(
        s for s in range(500) if any(over_deal(deck, s, n).rule is Rule.THE_TOSS for n in (1, 2))
    )
    screen = Terminal(
        ["h6", "test", "--auto", "--seats", "2", "--seed", str(seed), "--max-overs", "2"],
        columns=80,
    ).close()
    toss = [ln for ln in screen.splitlines() if "The Toss" in ln]
    assert toss and all("(revealed: " in ln for ln in toss), screen
