"""A practice's innings reads a ball's dice off the numbers drawn ahead itself (no call of
``roll``), so it must read them exactly as the documented ``roll`` does: where Lemire's
rejection applies (a number the check may reject) and where a block ends in the middle of a
ball, the turn is still the turn the recorded stream plays, ball for ball."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import MASK64, Dice, Roll, UnrecordedDice
from engine.flungo.events import Ball
from engine.flungo.formats import FORMATS, Format
from engine.flungo.ground import Conditions
from engine.flungo.match import Quiet, play_turn, settle, start_match
from engine.flungo.squad import generate_squad
from engine.flungo.state import MatchSetup
from tests.engine.orders.squad import fixture_team
from tests.engine.orders.strategies import match_orders

TEAM = fixture_team()
OPPONENT = generate_squad(Dice(2), "Snodge Stars")


class _Scripted(Dice):
    """The recorded stream of the documented algorithm over given numbers (docs/rules/
    dice.md: ``roll`` is Lemire's multiply-shift with rejection over ``next_u64``)."""

    def __init__(self, numbers: list[int]) -> None:
        super().__init__(0)
        self._numbers = iter(numbers)

    def next_u64(self) -> int:
        return next(self._numbers)

    def roll(self, sides: int, purpose: str) -> int:
        m = self.next_u64() * sides
        if m & MASK64 < sides:
            t = ((1 << 64) - sides) % sides
            while m & MASK64 < t:
                m = self.next_u64() * sides
        value = (m >> 64) + 1
        self.rolls.append(Roll(sides, value, purpose))
        return value


class _Chunked(UnrecordedDice):
    """The same numbers drawn ahead in blocks of the given sizes (a block may end in the
    middle of a ball's dice)."""

    def __init__(self, numbers: list[int], sizes: list[int]) -> None:
        super().__init__(0)
        self._rest, self._sizes = numbers, sizes
        self._next_block()

    def _next_block(self) -> list[int]:
        n = self._sizes.pop() if self._sizes else 1000
        self.block, self._rest, self.at = self._rest[:n], self._rest[n:], 0
        return self.block


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    fmt=st.sampled_from(list(Format)),
    seed=st.integers(0, 2**64 - 1),
    zeros=st.lists(st.integers(0, 700), max_size=30),
    sizes=st.lists(st.integers(1, 40), max_size=40),
)
def test_a_practice_turn_reads_its_dice_as_roll_does(
    data: st.DataObject, fmt: Format, seed: int, zeros: list[int], sizes: list[int]
) -> None:
    """Over numbers with zeros among them (a zero is rejected for a D6, a D10, a D20, not for
    a D8 or a D4) and blocks of any size, each turn of a practice is the turn the recorded
    stream of the same numbers plays, but for the balls."""
    orders = data.draw(st.none() | match_orders(FORMATS[fmt]))
    setup = MatchSetup(fmt, seed, Conditions("The Gunge Bowl", 3, 1), TEAM, OPPONENT)
    quiet = Quiet(settle(setup, orders))
    full = start_match(setup, orders).state
    fast = start_match(setup, settled=quiet.settled).state
    source = Dice(seed)
    while not full.is_over:
        numbers = [source.next_u64() for _ in range(3000)]
        for z in sorted(zeros, reverse=True):
            numbers.insert(z, 0)
        ref = play_turn(full, dice=_Scripted(numbers))
        quiet.scores = []
        res = play_turn(fast, dice=_Chunked(numbers, list(sizes)), quiet=quiet)
        no_balls = tuple(replace(i, balls=()) for i in ref.state.innings)
        assert res.state == replace(ref.state, innings=no_balls)
        assert res.events == tuple(e for e in ref.events if not isinstance(e, Ball))
        full, fast = ref.state, res.state
