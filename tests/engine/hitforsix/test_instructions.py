"""Conditional instructions for a whole over (Test by Post): the grammar, its errors, its play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.errors import AmbiguousOrder, IllegalOrder, InvalidOrder
from engine.hitforsix.cards import Deck
from engine.hitforsix.deal import deal
from engine.hitforsix.instructions import parse_instructions, run_instructions
from engine.hitforsix.over import Decisions
from tests.engine.hitforsix.synthetic import synthetic_deck

BASE = synthetic_deck(40, 4)
SURNAMES = ["Kohli", "Root", "Warner", "Williamson", "Babar", "Stokes", "Rashid", "Bumrah"]


def _deck() -> Deck:
    """A deck with real-looking names; the deal's first two face-up men are both Smiths."""
    first_two = deal(BASE, 12).indices[:2]
    cards = []
    for i, c in enumerate(BASE.cards):
        surname = "Smith" if i in first_two else f"{SURNAMES[i % len(SURNAMES)]}{i}"
        name = f"{chr(65 + i % 26)}{chr(65 + i // 26)} {surname}"
        cards.append(replace(c, name=name, initials=name.split()[0] + surname[0]))
    return replace(BASE, cards=tuple(cards))


DECK = _deck()
DEAL = deal(DECK, 12)


def _run(text: str) -> Decisions:
    return run_instructions(parse_instructions(text, DECK), DEAL).decisions


def test_the_issue_example_parses_and_plays() -> None:
    """'drop 2, 5, 9; then if X comes, keep him, else drop the lowest average' plays two windows."""
    came = DEAL.cards[11].name.split()[-1]
    absent = next(
        c.name.split()[-1] for c in DECK.cards if c not in DEAL.cards and "Smith" not in c.name
    )
    kept = _run(f"drop 2, 5, 9; then if {came} comes, keep him, else drop the lowest average")
    assert kept == Decisions.from_text("2,5,9")  # he came: window 2 keeps everyone
    other = _run(f"drop 2, 5, 9; then if {absent} comes, keep him, else drop the lowest average")
    held = sorted({0, 1, 3, 4, 6, 7, 8, 10, 11, 12, 13})
    lowest = min(held, key=lambda p: (DEAL.cards[p].runs / max(1, DEAL.cards[p].dismissals), p))
    assert other == Decisions.of([2, 5, 9], [lowest])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name", ""),
        ("name the XI", ""),
        ("pass; drop 3", "/3"),
        ("drop 0, 1\nkeep\ndrop 12", "0,1//12"),
        ("drop the 2 lowest runs; stand", "__two_lowest__"),
        ("DROP 4; THEN DROP NONE; then drop 11", "4//11"),
    ],
)
def test_steps(text: str, expected: str) -> None:
    """Each step form makes the decisions it says."""
    got = _run(text)
    if expected == "__two_lowest__":
        lowest = sorted(range(11), key=lambda p: (DEAL.cards[p].runs, p))[:2]
        assert got == Decisions.of(lowest)
    else:
        assert got == Decisions.from_text(expected)


def test_names_and_initials_drop_the_man_held() -> None:
    """A name or the card's initials finds the man held; one not held is skipped with a note."""
    c0, c1 = DEAL.cards[0], DEAL.cards[1]
    out = run_instructions(parse_instructions(f"drop {c0.name}, {c1.initials}", DECK), DEAL)
    assert out.decisions == Decisions.of([0, 1])
    gone = next(c for c in DECK.cards if c not in DEAL.cards and "Smith" not in c.name)
    out = run_instructions(parse_instructions(f"drop {gone.name}", DECK), DEAL)
    assert out.decisions == Decisions() and "not held" in out.notes[0]


@pytest.mark.parametrize(
    ("text", "kind", "message", "column"),
    [
        ("drop 1, 2, 3, 4", IllegalOrder, "window 1 drops at most 3", 1),
        ("drop 1; drop 2, 3, 4", IllegalOrder, "window 2 drops at most 2", 9),
        ("pass; pass; pass; pass", IllegalOrder, "fourth", 19),
        ("name; drop 3", IllegalOrder, "nothing follows", 7),
        ("drop 40", InvalidOrder, "not a deal position", 6),
        ("drop Zzyzx", InvalidOrder, "no card of the t20i deck", 6),
        ("drop 1,", InvalidOrder, "stop too soon", 8),
        ("if Kohli arrives, pass", InvalidOrder, "expected comes, does not come, is held", 17),
    ],
)
def test_errors_point_at_the_trouble(
    text: str, kind: type[Exception], message: str, column: int
) -> None:
    """Errors are invalid or illegal, with line, column and a caret under the trouble."""
    with pytest.raises(kind, match=message) as info:
        parse_instructions(text, DECK)
    err = info.value
    assert err.span is not None and err.span.column == column  # type: ignore[attr-defined]
    assert "^" in str(err) and f"column {column}" in str(err)


def test_errors_on_a_later_line_name_it() -> None:
    """An error on line 2 says line 2 and quotes that line."""
    with pytest.raises(InvalidOrder) as info:
        parse_instructions("drop 1\ndrop Zzyzx", DECK)
    assert "line 2, column 6" in str(info.value) and "drop Zzyzx\n     ^" in str(info.value)


def test_a_name_fitting_two_men_held_is_ambiguous() -> None:
    """'Smith' fits two men: if both are held, dropping 'Smith' is ambiguous."""
    assert [p for p, c in enumerate(DEAL.cards) if "Smith" in c.name] == [0, 1]
    with pytest.raises(AmbiguousOrder, match="could be"):
        run_instructions(parse_instructions("drop Smith", DECK), DEAL)
