"""The one source of randomness in the engine: a seeded, recorded, documented dice stream.

Algorithm (so that another implementation — a phone, a web page — can reproduce a match or a
deal from the test vectors in ``tests/engine/test_dice.py`` and ``docs/rules/dice.md``):

* The state is one unsigned 64-bit integer, initialised to ``seed mod 2**64``.
* ``next_u64()`` is **SplitMix64** (Steele, Lea & Flood 2014)::

      state = (state + 0x9E3779B97F4A7C15) mod 2**64
      z = state
      z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
      z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2**64
      return z ^ (z >> 31)

* ``below(n)`` (a uniform integer in ``0 .. n-1``) is Lemire's multiply-shift with rejection::

      m = next_u64() * n ;  low = m mod 2**64
      if low < n:
          t = (2**64 - n) mod n
          while low < t:  m = next_u64() * n ;  low = m mod 2**64
      return m >> 64

* ``roll(sides, purpose)`` is ``below(sides) + 1``; it is recorded as ``Roll(sides, value,
  purpose)``. A coin is ``roll(2, ...)`` (1 = heads).
* Text seeds become integers by ``seed_from_text``: the first 8 bytes, big-endian, of the
  SHA-256 of the UTF-8 text. ``derive(label)`` makes an independent child stream seeded by
  ``seed_from_text(f"{seed}:{label}")``, e.g. one per turn: ``Dice(game_seed).derive("turn:3")``;
  the child is of the parent's kind (``UnrecordedDice`` derives ``UnrecordedDice``).

Nothing here reads a clock or Python's global ``random``; the same seed gives the same numbers
on every machine and every supported Python.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import NamedTuple, Self

__all__ = ["MASK64", "Dice", "Roll", "UnrecordedDice", "seed_from_text"]

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB


class Roll(NamedTuple):
    """One recorded roll: the die's number of sides, the value rolled, and what it was for."""

    die: int
    value: int
    purpose: str


_new_roll = tuple.__new__  # a Roll without NamedTuple's keyword-handling constructor


def seed_from_text(text: str) -> int:
    """Turn any text (a date and deck, a game code) into a 64-bit seed, documented above."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


class Dice:
    """A seeded SplitMix64 stream whose every roll is appended to :attr:`rolls`.

    >>> d = Dice(42)
    >>> [d.roll(6, "test") for _ in range(3)]
    [5, 1, 2]
    >>> d.rolls[0]
    Roll(die=6, value=5, purpose='test')
    """

    __slots__ = ("_keep", "_state", "rolls", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed & MASK64
        self._state = self.seed
        self.rolls: list[Roll] = []
        self._keep = True  # False in UnrecordedDice

    def __repr__(self) -> str:
        return f"Dice({self.seed}) after {len(self.rolls)} rolls"

    def next_u64(self) -> int:
        """The next raw 64-bit output of SplitMix64 (not recorded)."""
        s = (self._state + _GOLDEN) & MASK64
        self._state = s
        z = ((s ^ (s >> 30)) * _MUL1) & MASK64
        z = ((z ^ (z >> 27)) * _MUL2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (not recorded; use :meth:`roll` for dice)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        m = self.next_u64() * n
        low = m & MASK64
        if low < n:
            t = ((1 << 64) - n) % n
            while low < t:
                m = self.next_u64() * n
                low = m & MASK64
        return m >> 64

    def roll(self, sides: int, purpose: str) -> int:
        """Roll a ``sides``-sided die (1..sides) and record it with its purpose.

        ``below(sides) + 1``, written out: a match rolls some 1,300 dice an innings, and the
        two calls it saves were a tenth of the time of a match."""
        if sides <= 0:
            raise ValueError(f"below() needs a positive bound, got {sides}")
        s = (self._state + _GOLDEN) & MASK64
        self._state = s
        z = ((s ^ (s >> 30)) * _MUL1) & MASK64
        z = ((z ^ (z >> 27)) * _MUL2) & MASK64
        m = (z ^ (z >> 31)) * sides
        low = m & MASK64
        if low < sides:  # Lemire's rejection, as in below(): rare
            t = ((1 << 64) - sides) % sides
            while low < t:
                m = self.next_u64() * sides
                low = m & MASK64
        value = (m >> 64) + 1
        if self._keep:
            self.rolls.append(_new_roll(Roll, (sides, value, purpose)))
        return value

    def mark(self) -> int:
        """A bookmark into :attr:`rolls`; ``rolls_since(mark)`` gives what was rolled after it."""
        return len(self.rolls)

    def rolls_since(self, mark: int) -> list[Roll]:
        """The rolls recorded since ``mark`` (see :meth:`mark`)."""
        return self.rolls[mark:]

    def derive(self, label: str) -> Self:
        """An independent child stream for ``label`` (a turn, a match, a deal), of this
        stream's own kind: an unrecorded stream derives unrecorded ones."""
        return type(self)(seed_from_text(f"{self.seed}:{label}"))


class UnrecordedDice(Dice):
    """The same stream as :class:`Dice`, roll for roll, with no roll kept (``rolls`` stays
    empty): for a practice, whose answer shows what each ball did and never its dice.

    SplitMix64's n-th output depends only on ``seed + n * golden``, so the raw outputs are
    drawn ahead in blocks by :func:`_outputs` (numpy, the same arithmetic mod 2**64, one
    vector for the block) and a roll is one multiply of the next of them: Lemire's
    multiply-shift and rejection exactly as :meth:`Dice.roll`. ``_state`` is the state before
    the block's first output; ``block`` is the block and ``at`` the index of the next output
    in it, public so that a hot loop (a practice's innings) may read a roll's output itself,
    as :meth:`roll` does, and move ``at`` on. :meth:`together` draws the first block of many
    streams as one vector."""

    __slots__ = ("at", "block")

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._keep = False
        self.block: list[int] = []
        self.at = 0

    @classmethod
    def together(cls, seeds: Sequence[int], ahead: int) -> list[Self]:
        """Streams for ``seeds``, each with its first ``ahead`` outputs drawn already, all as
        one numpy vector (a practice's twelve turns: numpy's cost is mostly per call)."""
        streams = [cls(seed) for seed in seeds]
        for stream, block in zip(
            streams, _outputs_of([s.seed for s in streams], ahead), strict=True
        ):
            stream.block = block
        return streams

    def _next_block(self) -> list[int]:
        self._state = (self._state + len(self.block) * _GOLDEN) & MASK64
        self.block = _outputs(self._state, _BLOCK)
        self.at = 0
        return self.block

    def next_u64(self) -> int:
        """The next raw 64-bit output of SplitMix64 (from the block drawn ahead)."""
        i, block = self.at, self.block
        if i == len(block):
            block, i = self._next_block(), 0
        self.at = i + 1
        return block[i]

    def roll(self, sides: int, purpose: str) -> int:
        """As :meth:`Dice.roll`, from the block drawn ahead, and not recorded."""
        if sides <= 0:
            raise ValueError(f"below() needs a positive bound, got {sides}")
        i, block = self.at, self.block
        if i == len(block):
            block, i = self._next_block(), 0
        self.at = i + 1
        m = block[i] * sides
        if m & MASK64 < sides:  # Lemire's rejection, as in below(): rare
            t = ((1 << 64) - sides) % sides
            while m & MASK64 < t:
                m = self.next_u64() * sides
        return (m >> 64) + 1


# A block past the numbers drawn ahead (together): a practice's turn draws about as many as
# its balls take; a turn that runs longer needs only a few more.
_BLOCK = 64


def _outputs(state: int, n: int) -> list[int]:
    """SplitMix64's next ``n`` outputs after ``state``, computed as one numpy vector."""
    return _outputs_of([state], n)[0]


def _outputs_of(states: Sequence[int], n: int) -> list[list[int]]:
    """SplitMix64's next ``n`` outputs after each of ``states``, as one numpy array."""
    import numpy as np  # here: only a practice needs it, and it costs an import

    u64 = np.uint64
    start = np.array(states, dtype=u64).reshape(-1, 1)
    s = np.arange(1, n + 1, dtype=u64) * u64(_GOLDEN) + start
    z = (s ^ (s >> u64(30))) * u64(_MUL1)
    z = (z ^ (z >> u64(27))) * u64(_MUL2)
    out: list[list[int]] = (z ^ (z >> u64(31))).tolist()
    return out
