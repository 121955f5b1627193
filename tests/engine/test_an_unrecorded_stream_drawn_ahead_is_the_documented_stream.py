"""The practice's dice, drawn ahead in numpy blocks and never recorded, are the documented
SplitMix64 stream number for number, across block ends and Lemire's rejections; a stream
derived from them is of their kind and the stream :meth:`Dice.derive` documents."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice, UnrecordedDice
from engine.flungo.formats import Format
from engine.flungo.ground import Conditions
from engine.flungo.match import start_match, turn_dice, turn_seed
from engine.flungo.squad import generate_squad
from engine.flungo.state import MatchSetup

# 2**63 + 1 rejects about half its draws: Lemire's loop is taken, not just its test
BOUNDS = [1, 2, 3, 4, 6, 8, 10, 20, 2**63 + 1, 2**64 - 1, 2**64]
OPS = st.one_of(
    st.tuples(st.just("roll"), st.sampled_from([b for b in BOUNDS if b < 2**64])),
    st.tuples(st.just("below"), st.one_of(st.sampled_from(BOUNDS), st.integers(1, 2**64))),
    st.tuples(st.just("u64"), st.integers(1, 700)),  # many at once: past a block's end
)


def _do(d: Dice, op: tuple[str, int]) -> list[int]:
    kind, n = op
    if kind == "roll":
        return [d.roll(n, "x")]
    if kind == "below":
        return [d.below(n)]
    return [d.next_u64() for _ in range(n)]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 1), st.lists(OPS, max_size=40))
def test_an_unrecorded_stream_is_the_recorded_one_across_blocks(
    seed: int, ops: list[tuple[str, int]]
) -> None:
    """Any mix of rolls, bounded draws and raw outputs gives the same numbers from both
    kinds of dice, however many blocks are drawn; the unrecorded one keeps no roll."""
    kept, quiet = Dice(seed), UnrecordedDice(seed)
    for op in ops:
        assert _do(quiet, op) == _do(kept, op)
    assert quiet.rolls == []
    assert quiet.next_u64() == kept.next_u64()


@given(st.integers(0, 2**64 - 1), st.text(max_size=20))
def test_a_derived_stream_is_of_its_parents_kind_and_the_documented_one(
    seed: int, label: str
) -> None:
    """``derive`` gives a stream of the parent's own kind on the documented child seed, so
    ``UnrecordedDice(seed).derive(label)`` rolls what ``Dice(seed).derive(label)`` rolls."""
    quiet, kept = UnrecordedDice(seed).derive(label), Dice(seed).derive(label)
    assert type(quiet) is UnrecordedDice and type(kept) is Dice
    assert quiet.seed == kept.seed
    assert [quiet.roll(6, "x") for _ in range(300)] == [kept.roll(6, "x") for _ in range(300)]


@given(st.integers(0, 2**64 - 1), st.integers(0, 3))
def test_the_practice_turn_dice_are_the_match_turn_dice(seed: int, turn: int) -> None:
    """A turn's dice of either kind are ``Dice(seed).derive(f"turn {t}")``, the stream the
    match plays that turn with."""
    home, away = generate_squad(Dice(1), "Home"), generate_squad(Dice(2), "Away")
    setup = MatchSetup(Format.T20, seed, Conditions("The Gunge Bowl", 3, 1), home, away)
    state = start_match(setup).state
    state = replace(state, turn=turn)
    doc = Dice(seed).derive(f"turn {turn}")
    quiet, kept = turn_dice(state, UnrecordedDice), turn_dice(state, Dice)
    assert type(quiet) is UnrecordedDice and type(kept) is Dice
    want = [doc.roll(10, "x") for _ in range(50)]
    assert [quiet.roll(10, "x") for _ in range(50)] == want
    assert [kept.roll(10, "x") for _ in range(50)] == want


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=12),
    st.integers(1, 300),
    st.lists(OPS, max_size=20),
)
def test_streams_drawn_ahead_together_are_each_the_documented_stream(
    seeds: list[int], ahead: int, ops: list[tuple[str, int]]
) -> None:
    """Streams whose first blocks are drawn together as one vector (a practice's twelve
    turns) each give what ``Dice(seed)`` gives, past their first block's end too."""
    streams = UnrecordedDice.together(seeds, ahead)
    for seed, quiet in zip(seeds, streams, strict=True):
        kept = Dice(seed)
        for op in ops:
            assert _do(quiet, op) == _do(kept, op)
        assert [quiet.next_u64() for _ in range(ahead)] == [kept.next_u64() for _ in range(ahead)]


@given(st.integers(0, 2**64 - 1), st.integers(0, 3))
def test_a_turn_seed_is_the_seed_of_the_turn_dice(seed: int, turn: int) -> None:
    """``turn_seed`` (the practice's turns, drawn ahead together) seeds the stream
    ``Dice(seed).derive(f"turn {t}")`` the match's turn plays with."""
    assert turn_seed(seed, turn) == Dice(seed).derive(f"turn {turn}").seed
