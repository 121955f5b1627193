"""The over of changes (law 3) and its reachability figures (law 4.03's Selectors' Note)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalOrder, InvalidOrder
from engine.hitforsix.over import (
    Decisions,
    Hand,
    all_xis,
    is_reachable,
    play_over,
    reachable_xis,
    route_to,
)


def _brute_force() -> set[frozenset[int]]:
    """Every hand any sequence of window drops can end with, simulated directly."""
    ends: set[frozenset[int]] = set()

    def go(held: frozenset[int], window: int, nxt: int) -> None:
        ends.add(held)
        if window == 3:
            return
        cap = (3, 2, 1)[window]
        for k in range(cap + 1):
            for out in combinations(sorted(held), k):
                go((held - set(out)) | set(range(nxt, nxt + k)), window + 1, nxt + k)

    go(frozenset(range(11)), 0, 11)
    return ends


def test_reachability_figures() -> None:
    """Of the 12,376 XIs exactly 11,133 are reachable and 1,243 are not."""
    assert len(all_xis()) == 12376
    assert len(reachable_xis()) == 11133
    assert len(all_xis()) - len(reachable_xis()) == 1243


def test_brute_force_agrees_with_engine() -> None:
    """A brute force over all decision sequences reaches exactly the engine's reachable XIs."""
    brute = _brute_force()
    assert {frozenset(xi) for xi in reachable_xis()} == brute
    assert all(is_reachable(xi) == (frozenset(xi) in brute) for xi in all_xis())


def test_unreachable_example() -> None:
    """Keeping replacements 11, 13 and 16 but not 12, 14, 15 is unreachable."""
    assert not is_reachable((0, 1, 2, 3, 4, 5, 6, 7, 11, 13, 16))
    with pytest.raises(IllegalOrder, match="no legal over"):
        route_to((0, 1, 2, 3, 4, 5, 6, 7, 11, 13, 16))


@given(st.sampled_from(sorted(reachable_xis())))
def test_route_to_reaches(xi: tuple[int, ...]) -> None:
    """route_to gives legal decisions that end holding the XI asked for."""
    assert play_over(route_to(xi)).xi == xi


def test_windows_draw_in_order() -> None:
    """Each window draws as many of the next replacements as it drops, in order."""
    hand = Hand().drop({0, 1, 2})
    assert hand.held == frozenset(range(3, 14))
    hand = hand.drop({11, 3})
    assert hand.held == frozenset({*range(4, 11), 12, 13, 14, 15})
    hand = hand.drop({12})
    assert hand.xi == (4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16)


def test_empty_windows_and_naming_early() -> None:
    """Empty windows draw nothing; fewer windows names the XI early."""
    assert play_over(Decisions.from_text("0,4//")).xi == (*range(1, 4), *range(5, 13))
    assert play_over(Decisions.from_text("")).xi == tuple(range(11))
    assert play_over(Decisions.from_text("0")).xi == (*range(1, 12),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0,1,2,3", "at most 3"),
        ("0/1,2,3", "at most 2"),
        ("0/1/2,3", "at most 1"),
        ("11", "not held"),
        ("0/0", "not held"),
        ("0,0", "dropped twice"),
    ],
)
def test_illegal_drops(text: str, message: str) -> None:
    """Over the cap, not held and duplicate drops are IllegalOrder with a clear message."""
    with pytest.raises(IllegalOrder, match=message):
        play_over(Decisions.from_text(text))


@pytest.mark.parametrize("text", ["a", "0,,1", "17", "0/1/2/3", "-1"])
def test_malformed_drops(text: str) -> None:
    """Text that is not positions in at most three windows is InvalidOrder with a caret."""
    with pytest.raises(InvalidOrder) as info:
        Decisions.from_text(text)
    assert "^" in str(info.value)


def test_drawn_replacement_can_be_dropped_later() -> None:
    """A replacement drawn in window 1 may be dropped in window 2."""
    hand = play_over(Decisions.of([0], [11], []))
    assert 11 not in hand.held and 12 in hand.held


@given(st.lists(st.sets(st.integers(0, 16), max_size=3), max_size=3))
def test_decisions_text_round_trips(windows: list[set[int]]) -> None:
    """Decisions' canonical text parses back to the same decisions."""
    d = Decisions.of(*windows)
    assert Decisions.from_text(d.to_text()) == d
