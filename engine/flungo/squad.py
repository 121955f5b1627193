"""Cricketers and squads: the model every part of pbm shares, and squad generation.

A squad is 18 dice-made cricketers, built by the seed's type table. A player's place in the
squad (``slot``, 1..18) is stable for the whole season; names are chosen by the manager later.

JSON shape (``Team.to_json()``; the ``pbm sim --json`` ``teams`` entries and ``SQUAD.json``)::

    {"name": "...", "players": [{"name", "role", "batting", "bowling", "fielding",
                                 "bowling_style", "injury_points"?}, ...18]}

``injury_points`` is optional on input and defaults to 0.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.dice import Dice

__all__ = [
    "SQUAD_SIZE",
    "SQUAD_TABLE",
    "BowlingStyle",
    "Player",
    "Role",
    "RoleSpec",
    "Team",
    "generate_squad",
]

SQUAD_SIZE = 18


class Role(StrEnum):
    """The squad type table's eight kinds of cricketer."""

    STAR_BATSMAN = "star_batsman"
    BATSMAN = "batsman"
    WICKETKEEPER = "wicketkeeper"
    STAR_ALL_ROUNDER = "star_all_rounder"
    BATTING_ALL_ROUNDER = "batting_all_rounder"
    BOWLING_ALL_ROUNDER = "bowling_all_rounder"
    STAR_BOWLER = "star_bowler"
    BOWLER = "bowler"

    @property
    def label(self) -> str:
        """``"Star Batsman"``, ``"Bowling All-rounder"``: the name players read."""
        return _TITLES[self]


_TITLES = {
    Role.STAR_BATSMAN: "Star Batsman",
    Role.BATSMAN: "Batsman",
    Role.WICKETKEEPER: "Wicketkeeper",
    Role.STAR_ALL_ROUNDER: "Star All-rounder",
    Role.BATTING_ALL_ROUNDER: "Batting All-rounder",
    Role.BOWLING_ALL_ROUNDER: "Bowling All-rounder",
    Role.STAR_BOWLER: "Star Bowler",
    Role.BOWLER: "Bowler",
}


class BowlingStyle(StrEnum):
    """Every squad member bowls spin, medium pace or fast (pitch and weather favour them)."""

    SPIN = "spin"
    MEDIUM = "medium"
    FAST = "fast"


@dataclass(frozen=True, slots=True)
class RoleSpec:
    """One row of the type table: how many, and each stat as ``base + dice x sides``."""

    role: Role
    count: int
    batting: tuple[int, int, int]  # (base, number of dice, sides)
    bowling: tuple[int, int, int]
    fielding: tuple[int, int, int]


# The seed's table, row for row. (base, n, sides): 20+d6 is (20, 1, 6); 2d6 is (0, 2, 6).
SQUAD_TABLE: tuple[RoleSpec, ...] = (
    RoleSpec(Role.STAR_BATSMAN, 2, (20, 1, 6), (0, 2, 6), (0, 1, 6)),
    RoleSpec(Role.BATSMAN, 4, (18, 1, 6), (0, 2, 6), (0, 1, 6)),
    RoleSpec(Role.WICKETKEEPER, 2, (16, 1, 6), (0, 1, 6), (2, 1, 4)),
    RoleSpec(Role.STAR_ALL_ROUNDER, 1, (18, 1, 6), (18, 1, 6), (2, 1, 4)),
    RoleSpec(Role.BATTING_ALL_ROUNDER, 2, (16, 1, 6), (12, 1, 6), (0, 1, 6)),
    RoleSpec(Role.BOWLING_ALL_ROUNDER, 2, (12, 1, 6), (16, 1, 6), (0, 1, 6)),
    RoleSpec(Role.STAR_BOWLER, 2, (0, 2, 6), (20, 1, 6), (0, 1, 6)),
    RoleSpec(Role.BOWLER, 3, (0, 2, 6), (18, 1, 6), (0, 1, 6)),
)

_STYLE_BY_D3 = {1: BowlingStyle.SPIN, 2: BowlingStyle.MEDIUM, 3: BowlingStyle.FAST}


@dataclass(frozen=True, slots=True)
class Player:
    """One cricketer. ``injury_points`` > 0 means injured and untreated (see helper points)."""

    name: str
    role: Role
    batting: int
    bowling: int
    fielding: int
    bowling_style: BowlingStyle
    injury_points: int = 0

    def to_json(self) -> dict[str, Any]:
        """The player as the JSON object of the squad shape."""
        return {
            "name": self.name,
            "role": self.role.value,
            "batting": self.batting,
            "bowling": self.bowling,
            "fielding": self.fielding,
            "bowling_style": self.bowling_style.value,
            "injury_points": self.injury_points,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        """Read a player object; raises ``ValueError``/``KeyError`` on a malformed one."""
        return cls(
            name=str(data["name"]),
            role=Role(data["role"]),
            batting=int(data["batting"]),
            bowling=int(data["bowling"]),
            fielding=int(data["fielding"]),
            bowling_style=BowlingStyle(data["bowling_style"]),
            injury_points=int(data.get("injury_points", 0)),
        )


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its name and its squad of 18, in slot order (slot 1 is ``players[0]``)."""

    name: str
    players: tuple[Player, ...]

    def player(self, name: str) -> Player:
        """The squad member with exactly this name (``KeyError`` if none)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def with_player(self, slot: int, player: Player) -> Team:
        """A copy with the player at 1-based ``slot`` replaced."""
        players = list(self.players)
        players[slot - 1] = player
        return replace(self, players=tuple(players))

    def to_json(self) -> dict[str, Any]:
        """The team in the squad JSON shape."""
        return {"name": self.name, "players": [p.to_json() for p in self.players]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Team:
        """Read the squad JSON shape."""
        return cls(
            name=str(data["name"]), players=tuple(Player.from_json(p) for p in data["players"])
        )


def _stat(dice: Dice, spec: tuple[int, int, int], purpose: str) -> int:
    base, n, sides = spec
    return base + sum(dice.roll(sides, purpose) for _ in range(n))


def generate_squad(dice: Dice, team_name: str = "Unnamed XI") -> Team:
    """Roll a squad of 18 by the type table.

    Order of rolls, for reproducibility: table row by row, member by member, batting then
    bowling then fielding then a D3 for bowling style (1 spin, 2 medium, 3 fast). Placeholder
    names are the role's title and a number ("Batsman 3"), unique in the squad, until the
    manager names them.
    """
    players: list[Player] = []
    for spec in SQUAD_TABLE:
        for k in range(1, spec.count + 1):
            label = f"{spec.role.label} {k}" if spec.count > 1 else spec.role.label
            players.append(
                Player(
                    name=label,
                    role=spec.role,
                    batting=_stat(dice, spec.batting, f"squad {label} batting"),
                    bowling=_stat(dice, spec.bowling, f"squad {label} bowling"),
                    fielding=_stat(dice, spec.fielding, f"squad {label} fielding"),
                    bowling_style=_STYLE_BY_D3[dice.roll(3, f"squad {label} bowling style")],
                )
            )
    return Team(name=team_name, players=tuple(players))
