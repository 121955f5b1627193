"""Fixtures and draws: who plays whom, in which round, on which named pitch, in which turns.

* **Turns.** Every match takes four turns, one per :class:`Phase` (innings 1 to drinks, innings 1
  after drinks, innings 2 to drinks, innings 2 after drinks). All the fixtures of a round are
  played concurrently, so round ``r`` of a competition starting at turn ``t`` occupies turns
  ``t + 4(r-1)`` to ``t + 4(r-1) + 3``.
* **Round robin** by the circle method: team 1 stays put, the others rotate one place a round;
  with an odd number of teams a dummy "bye" joins, so each team has exactly one bye per cycle.
* **Knockout** brackets are padded to the next power of two with byes; seed ``k`` meets seed
  ``size + 1 - k`` in the first round, in the standard bracket order (1 v 8, 4 v 5, 2 v 7,
  3 v 6 for eight), so the byes go to the top seeds, no two byes meet, and seeds 1 and 2 can
  only meet in the final.
* **Pitches.** Each fixture gets its own pitch, drawn in a dice-shuffled order from
  :data:`~engine.flungo.ground.PITCH_NAMES`; if a competition has more fixtures than names,
  "Flungo Field 41", "Flungo Field 42", ... follow. Its condition and weather are rolled when the
  fixture is made, so they are known before selection.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any, TypeVar

from engine.dice import Dice
from engine.flungo.ground import PITCH_NAMES, Conditions

__all__ = [
    "TURNS_PER_MATCH",
    "Entrant",
    "EntrantKind",
    "Fixture",
    "Phase",
    "bracket_order",
    "draw_pitch_names",
    "round_robin",
    "shuffled",
]

TURNS_PER_MATCH = 4

T = TypeVar("T")


class Phase(IntEnum):
    """The four turns of a match, in order."""

    INNINGS_1_TO_DRINKS = 1
    INNINGS_1_AFTER_DRINKS = 2
    INNINGS_2_TO_DRINKS = 3
    INNINGS_2_AFTER_DRINKS = 4


class EntrantKind(StrEnum):
    """A fixture side is a named team, or the winner or loser of an earlier fixture."""

    TEAM = "team"
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class Entrant:
    """One side of a fixture; text form ``team:Name``, ``winner:R1M2`` or ``loser:R2M1``."""

    kind: EntrantKind
    ref: str

    @classmethod
    def team(cls, name: str) -> Entrant:
        """A side known by name."""
        return cls(EntrantKind.TEAM, name)

    def to_text(self) -> str:
        """``kind:ref``."""
        return f"{self.kind.value}:{self.ref}"

    @classmethod
    def from_text(cls, text: str) -> Entrant:
        """Read ``kind:ref`` (team names may themselves contain colons)."""
        kind, sep, ref = text.partition(":")
        if not sep or not ref:
            raise ValueError(f"not an entrant: {text!r}")
        return cls(EntrantKind(kind), ref)


@dataclass(frozen=True, slots=True)
class Fixture:
    """A match in a competition: id (``R2M1``), round, label, sides and conditions."""

    id: str
    round: int
    label: str
    home: Entrant
    away: Entrant
    conditions: Conditions

    @property
    def pitch_name(self) -> str:
        """The named pitch this fixture is played on."""
        return self.conditions.pitch_name

    def to_json(self) -> dict[str, Any]:
        """The fixture as a JSON object (condition names are for readers; rolls are the truth)."""
        c = self.conditions
        return {
            "id": self.id,
            "round": self.round,
            "label": self.label,
            "home": self.home.to_text(),
            "away": self.away.to_text(),
            "pitch": {"name": c.pitch_name, "roll": c.pitch_roll, "description": c.pitch.name},
            "weather": {"roll": c.weather_roll, "description": c.weather.name},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fixture:
        """Read a fixture object."""
        pitch, weather = data["pitch"], data["weather"]
        return cls(
            id=str(data["id"]),
            round=int(data["round"]),
            label=str(data["label"]),
            home=Entrant.from_text(str(data["home"])),
            away=Entrant.from_text(str(data["away"])),
            conditions=Conditions(str(pitch["name"]), int(pitch["roll"]), int(weather["roll"])),
        )


def shuffled(dice: Dice, items: Sequence[T], purpose: str) -> list[T]:
    """A Fisher-Yates shuffle with recorded dice: for ``i`` from the last index down to 1,
    swap item ``i`` with item ``roll(i + 1) - 1``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = dice.roll(i + 1, purpose) - 1
        out[i], out[j] = out[j], out[i]
    return out


def draw_pitch_names(dice: Dice, count: int, exclude: Iterable[str] = ()) -> list[str]:
    """``count`` distinct pitch names: the stock names shuffled, then "Flungo Field N" names.

    ``exclude`` removes names already used (by an earlier competition, say). Generated names
    are numbered on from the stock list's length, skipping any excluded.
    """
    used = set(exclude)
    names = shuffled(dice, [n for n in PITCH_NAMES if n not in used], "pitch draw")
    k = len(PITCH_NAMES) + 1
    while len(names) < count:
        name = f"Flungo Field {k}"
        if name not in used:
            names.append(name)
        k += 1
    return names[:count]


def round_robin(teams: Sequence[str]) -> list[list[tuple[str | None, str | None]]]:
    """One cycle of the circle method: a list of rounds, each a list of (home, away) pairs.

    With an odd number of teams one side of one pair per round is ``None``: that team's bye.
    The fixed first team alternates home and away; elsewhere the earlier slot is at home.
    """
    slots: list[str | None] = list(teams)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    rounds: list[list[tuple[str | None, str | None]]] = []
    for r in range(n - 1):
        pairs = [(slots[i], slots[n - 1 - i]) for i in range(n // 2)]
        if r % 2:
            pairs[0] = (pairs[0][1], pairs[0][0])
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two ``size``: 8 gives 1,8,4,5,2,7,3,6."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order
