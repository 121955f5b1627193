"""Reading one answer by mail (issue 27): a window's answer is that window's; only then/if/;
or a step a line make instructions for the rest of the over."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalOrder, OrderError
from engine.hitforsix.answer import is_instructions, read_answer
from engine.hitforsix.deal import deal
from engine.hitforsix.over import CAPS, Hand
from tests.engine.hitforsix.synthetic import synthetic_deck

DECK = synthetic_deck(60, 7)
DEAL = deal(DECK, 2026)


def _played(drops: list[list[int]]) -> list[frozenset[int]]:
    hand, out = Hand(), []
    for w in drops:
        held = sorted(hand.held)
        chosen = frozenset(held[i % len(held)] for i in w[: CAPS[hand.window]])
        hand = hand.drop(chosen)
        out.append(chosen)
    return out


@settings(max_examples=150, deadline=None)
@given(
    before=st.lists(st.lists(st.integers(0, 10), max_size=3), max_size=2),
    pick=st.lists(st.integers(0, 10), min_size=1, max_size=3),
    lead=st.sampled_from(["", "drop ", "Drop ", "then drop "]),
    how=st.sampled_from(["position", "name", "initials"]),
)
def test_a_list_of_men_answers_the_window_in_play(
    before: list[list[int]], pick: list[int], lead: str, how: str
) -> None:
    """Any list of men held, within the window's cap, by position, name or initials, with or
    without "drop", drops exactly them in the window in play and the over goes on; with a
    "drop", the answer says it was read as this window's."""
    played = _played(before)
    hand = Hand()
    for w in played:
        hand = hand.drop(w)
    held = sorted(hand.xi)
    chosen = sorted({held[i % len(held)] for i in pick})[: CAPS[hand.window]]
    cards = DEAL.cards

    def word(p: int) -> str:
        return {"position": str(p), "name": cards[p].name, "initials": cards[p].initials}[how]

    text = lead + ", ".join(word(p) for p in chosen)
    try:
        read = read_answer(text, played, DEAL)
    except OrderError as exc:  # a name or initials two held men share: refused, never guessed
        assert how != "position" and "could be" in str(exc)
        return
    assert read.how == "window" and read.windows == (*played, frozenset(chosen))
    assert read.done == (len(played) == 2)
    assert ("'s answer" in read.read_as) == bool(lead)


@pytest.mark.parametrize(
    ("text", "instructions"),
    [
        ("drop 2, 5, 9", False),
        ("2, Kohli, AAPA", False),
        ("drop the lowest average", False),
        ("drop 2; drop 5", True),
        ("drop 2, 5\nthen drop 11", True),
        ("drop 2 then drop 11", True),
        ("if Kohli comes, keep him", True),
        ("drop 2\ndrop 3", True),
    ],
)
def test_only_the_forms_instructions_have_make_instructions(text: str, instructions: bool) -> None:
    """then, if, ';' or more than one line make instructions; a list, or one drop, does not."""
    assert is_instructions(text) is instructions


def test_instructions_run_from_the_window_in_play() -> None:
    """Instructions sent in window 2 play windows 2 and 3 after the window already played;
    one step too many for the windows left is refused with a word."""
    played = [frozenset({0, 1})]
    read = read_answer("drop 2; then drop the lowest runs", played, DEAL)
    assert read.how == "instructions" and read.done and read.windows[0] == played[0]
    assert 2 in read.windows[1] and len(read.windows) == 3
    assert "windows 2–3" in read.read_as
    with pytest.raises(IllegalOrder, match="one more than the 2 left"):
        read_answer("drop 2; drop 3; drop 4", played, DEAL)


def test_name_none_and_a_selector_alone() -> None:
    """'name' names the XI held, 'none' drops nobody this window, and a selector alone picks
    from the men held in this window only."""
    assert read_answer("name", [], DEAL).done and read_answer("name", [], DEAL).windows == ()
    none = read_answer("none", [frozenset({3})], DEAL)
    assert none.windows == (frozenset({3}), frozenset()) and not none.done
    low = read_answer("drop the 2 lowest runs", [], DEAL)
    held = sorted(range(11), key=lambda p: (DEAL.cards[p].runs, p))
    assert low.windows == (frozenset(held[:2]),) and not low.done
