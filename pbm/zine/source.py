"""Where the zine's data comes from: one :class:`TurnReport` per resolved turn of a competition.

The shapes mirror the lead's ``engine.flungo.turn`` (``TurnReport``, ``Stage``, ``MatchTurn``)
field for field, so that on merge this module can re-export those and nothing else changes.
Every read of the database goes through :func:`load_reports`; until the turn pipeline has its
own table the reports are kept, as JSON, in the competition's ``state["turn_reports"]`` list
(:func:`store_report` appends one there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.flungo.competition import Competition
from engine.flungo.events import Event, MatchEvent, ball_from_json, event_from_json
from engine.flungo.season_events import SeasonEvent
from engine.flungo.season_events import event_from_json as season_event_from_json
from engine.flungo.squad import Team
from engine.flungo.state import MatchState

__all__ = [
    "MatchTurn",
    "Stage",
    "TurnReport",
    "competition_codes",
    "load_reports",
    "store_report",
]

REPORTS_KEY = "turn_reports"


@dataclass(frozen=True, slots=True)
class Stage:
    """Where a turn sits: ``round``, ``turn`` in the seed's numbering, and ``selection`` for the
    XI/toss step before a round's first turn."""

    round: int
    turn: int
    selection: bool

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {"round": self.round, "turn": self.turn, "selection": self.selection}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Stage:
        """Read :meth:`to_json`."""
        return cls(int(data["round"]), int(data["turn"]), bool(data["selection"]))


def _event_json(e: Event) -> dict[str, Any]:
    return e.to_json()


def _event_read(data: dict[str, Any]) -> Event:
    return ball_from_json(data) if "dice" in data else event_from_json(data)


@dataclass(frozen=True, slots=True)
class MatchTurn:
    """One match in a turn: ``state`` is the match after the turn, ``events`` what the turn
    produced, ``defaults`` the teams that played on defaults; ``seed`` is revealed once the
    match is over (before that only its SHA-256 commitment is public)."""

    fixture_id: str
    label: str
    state: MatchState
    events: tuple[Event, ...]
    defaults: tuple[str, ...]
    seed_sha256: str
    seed: int | None

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "fixture_id": self.fixture_id,
            "label": self.label,
            "state": self.state.to_json(),
            "events": [_event_json(e) for e in self.events],
            "defaults": list(self.defaults),
            "seed_sha256": self.seed_sha256,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchTurn:
        """Read :meth:`to_json`."""
        seed = data.get("seed")
        return cls(
            str(data["fixture_id"]),
            str(data["label"]),
            MatchState.from_json(data["state"]),
            tuple(_event_read(e) for e in data["events"]),
            tuple(str(t) for t in data["defaults"]),
            str(data["seed_sha256"]),
            None if seed is None else int(seed),
        )


@dataclass(frozen=True, slots=True)
class TurnReport:
    """Everything one resolved turn of a competition produced (the lead's shape)."""

    stage: Stage
    competition: Competition
    matches: tuple[MatchTurn, ...]
    season_events: tuple[SeasonEvent, ...]
    squads: tuple[Team, ...]
    byes: tuple[str, ...]
    next_deadline: str | None = None
    editorial: str = ""
    rulings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "stage": self.stage.to_json(),
            "competition": self.competition.to_json(),
            "matches": [m.to_json() for m in self.matches],
            "season_events": [e.to_json() for e in self.season_events],
            "squads": [t.to_json() for t in self.squads],
            "byes": list(self.byes),
            "next_deadline": self.next_deadline,
            "editorial": self.editorial,
            "rulings": list(self.rulings),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnReport:
        """Read :meth:`to_json`."""
        return cls(
            Stage.from_json(data["stage"]),
            Competition.from_json(data["competition"]),
            tuple(MatchTurn.from_json(m) for m in data["matches"]),
            tuple(season_event_from_json(e) for e in data["season_events"]),
            tuple(Team.from_json(t) for t in data["squads"]),
            tuple(str(t) for t in data["byes"]),
            data.get("next_deadline"),
            str(data.get("editorial", "")),
            tuple(str(r) for r in data.get("rulings", ())),
        )


def match_events(turn: MatchTurn) -> tuple[MatchEvent, ...]:
    """The non-ball events of a match turn."""
    return tuple(e for e in turn.events if isinstance(e, MatchEvent))


def load_reports(session: Session, code: str) -> list[TurnReport]:
    """Every stored turn report of competition ``code``, in the order the turns were resolved.

    The ONE place the zine reads turn data from the database (the lead adapts it on merge to
    the turn pipeline's own table).
    """
    from pbm.db.models import Competition as CompetitionRow

    row = session.scalars(select(CompetitionRow).where(CompetitionRow.code == code)).one()
    return [TurnReport.from_json(r) for r in (row.state or {}).get(REPORTS_KEY, [])]


def competition_codes(session: Session) -> list[str]:
    """The codes of every competition with at least one turn report, oldest first."""
    from pbm.db.models import Competition as CompetitionRow

    rows = session.scalars(select(CompetitionRow).order_by(CompetitionRow.id)).all()
    return [r.code for r in rows if (r.state or {}).get(REPORTS_KEY)]


def store_report(session: Session, code: str, report: TurnReport) -> None:
    """Append ``report`` to competition ``code``'s stored reports (tests, demo, until merge)."""
    from pbm.db.models import Competition as CompetitionRow

    row = session.scalars(select(CompetitionRow).where(CompetitionRow.code == code)).one()
    state = dict(row.state or {})
    state[REPORTS_KEY] = [*state.get(REPORTS_KEY, []), report.to_json()]
    row.state = state
