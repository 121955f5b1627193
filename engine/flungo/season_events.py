"""Events between matches: draws, results, eliminations, treatments, boosts, injuries.

Each event is a small frozen dataclass of plain values (str, int, bool, None) with a ``kind``
and a JSON form ``{"event": kind, ...fields}`` that :func:`event_from_json` reads back, so the
zine can narrate a season from stored events without re-running anything.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, cast

__all__ = [
    "ByeGiven",
    "CompetitionFinished",
    "FixtureReady",
    "FixtureScheduled",
    "HelperPointsLost",
    "InjuryTreated",
    "PlayerHealed",
    "PlayerInjured",
    "PlayerSitsOut",
    "ResultRecorded",
    "RoundCompleted",
    "SeasonEvent",
    "StatBoosted",
    "TeamEliminated",
    "event_from_json",
]


@dataclass(frozen=True, slots=True)
class _Event:
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """``{"event": kind, **fields}``."""
        return {"event": self.kind, **asdict(self)}


@dataclass(frozen=True, slots=True)
class FixtureScheduled(_Event):
    """A fixture is drawn, with its pitch and conditions (sides may be "Winner of R1M2")."""

    kind: ClassVar[str] = "fixture_scheduled"
    fixture_id: str
    round: int
    label: str
    home: str
    away: str
    pitch_name: str
    pitch: str
    weather: str
    first_turn: int
    last_turn: int


@dataclass(frozen=True, slots=True)
class ByeGiven(_Event):
    """``team`` has no match in ``round`` (odd league, or a knockout bye to the next round)."""

    kind: ClassVar[str] = "bye_given"
    round: int
    team: str


@dataclass(frozen=True, slots=True)
class FixtureReady(_Event):
    """Both sides of a knockout fixture are now known."""

    kind: ClassVar[str] = "fixture_ready"
    fixture_id: str
    label: str
    home: str
    away: str
    pitch_name: str


@dataclass(frozen=True, slots=True)
class ResultRecorded(_Event):
    """A match result entered into the competition."""

    kind: ClassVar[str] = "result_recorded"
    fixture_id: str
    round: int
    home: str
    away: str
    winner: str | None
    super_over: bool
    text: str


@dataclass(frozen=True, slots=True)
class TeamEliminated(_Event):
    """A knockout loser with no further match."""

    kind: ClassVar[str] = "team_eliminated"
    team: str
    fixture_id: str
    round: int


@dataclass(frozen=True, slots=True)
class RoundCompleted(_Event):
    """Every fixture of ``round`` has a result."""

    kind: ClassVar[str] = "round_completed"
    round: int


@dataclass(frozen=True, slots=True)
class CompetitionFinished(_Event):
    """The last result is in. ``runner_up``/``third`` are ``None`` when not decided."""

    kind: ClassVar[str] = "competition_finished"
    champion: str
    runner_up: str | None
    third: str | None


@dataclass(frozen=True, slots=True)
class InjuryTreated(_Event):
    """Helper points spent on an injured player; ``remaining`` injury points are left."""

    kind: ClassVar[str] = "injury_treated"
    team: str
    player: str
    points: int
    remaining: int


@dataclass(frozen=True, slots=True)
class StatBoosted(_Event):
    """One helper point raised a stat by one; ``by_default`` when the default spend chose it."""

    kind: ClassVar[str] = "stat_boosted"
    team: str
    player: str
    stat: str
    before: int
    after: int
    by_default: bool


@dataclass(frozen=True, slots=True)
class HelperPointsLost(_Event):
    """Helper points that could not be spent (nobody left to improve)."""

    kind: ClassVar[str] = "helper_points_lost"
    team: str
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerSitsOut(_Event):
    """An injured player not fully treated misses the next match."""

    kind: ClassVar[str] = "player_sits_out"
    team: str
    player: str
    injury_points: int


@dataclass(frozen=True, slots=True)
class PlayerInjured(_Event):
    """A player was hurt in a match; 0 points means fit for the next match anyway."""

    kind: ClassVar[str] = "player_injured"
    team: str
    player: str
    points: int


@dataclass(frozen=True, slots=True)
class PlayerHealed(_Event):
    """A player who sat out a match is healed after it."""

    kind: ClassVar[str] = "player_healed"
    team: str
    player: str


SeasonEvent = (
    FixtureScheduled
    | ByeGiven
    | FixtureReady
    | ResultRecorded
    | TeamEliminated
    | RoundCompleted
    | CompetitionFinished
    | InjuryTreated
    | StatBoosted
    | HelperPointsLost
    | PlayerSitsOut
    | PlayerInjured
    | PlayerHealed
)

_BY_KIND: dict[str, type[_Event]] = {
    cls.kind: cls
    for cls in (
        FixtureScheduled,
        ByeGiven,
        FixtureReady,
        ResultRecorded,
        TeamEliminated,
        RoundCompleted,
        CompetitionFinished,
        InjuryTreated,
        StatBoosted,
        HelperPointsLost,
        PlayerSitsOut,
        PlayerInjured,
        PlayerHealed,
    )
}


def event_from_json(data: dict[str, Any]) -> SeasonEvent:
    """Read an event written by ``to_json()``; ``KeyError`` for an unknown kind or field."""
    cls = _BY_KIND[data["event"]]
    # every registered class is a member of the SeasonEvent union
    return cast(SeasonEvent, cls(**{f.name: data[f.name] for f in fields(cls)}))
