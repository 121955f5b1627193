"""A season between stages, and what a stage reports: the values the resolver
(:mod:`engine.flungo.turn`) reads and writes, and their JSON.

A competition runs as a sequence of :class:`Stage` values. Each round of fixtures has a
*selection* stage (the XI, captain, keeper and toss choice, with the pitch, weather and
opponent known: the seed's "Each player must choose his 11 to play the match") and then the
round's four *turns* in the seed's numbering (turns 1-4 for the first round, 5-8 for the
second, …): the first innings to drinks, to its end, the second innings to drinks, to its end.
A :class:`SeasonState` is the season between two of them; a :class:`TurnReport` is the one
model of a stage's outcome that turn-report mails and the zine both read.

Dice: every match of a season plays on its own seed, ``match_seed(season_seed, fixture_id)``.
The season seed is the GM's secret; a match's seed is published as its SHA-256 commitment
(:func:`seed_commitment`) when the match opens and revealed with the result, so anyone can
replay the match (:mod:`engine.flungo.replay`) from the seed, the squads and the orders.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.dice import seed_from_text
from engine.flungo.codec import decoder, encode
from engine.flungo.competition import (
    Competition,
    is_finished,
    round_turns,
)
from engine.flungo.events import Ball, Event, event_from_json
from engine.flungo.events import ball_from_json as _ball_from_json
from engine.flungo.orders import MatchOrders
from engine.flungo.season_events import SeasonEvent
from engine.flungo.season_events import event_from_json as season_event_from_json
from engine.flungo.squad import Team
from engine.flungo.state import MatchState
from engine.flungo.summary import CompetitionError

__all__ = [
    "LiveMatch",
    "MatchTurn",
    "SeasonState",
    "Stage",
    "Standing",
    "TurnReport",
    "match_seed",
    "match_turn_from_json",
    "match_turn_to_json",
    "next_stage",
    "played_orders",
    "seed_commitment",
    "stages",
    "standing_from_json",
    "standing_to_json",
    "start_season",
]


@dataclass(frozen=True, slots=True, order=True)
class Stage:
    """One step of a season: ``round``, the seed's ``turn`` number, and whether it is the
    round's selection step (which comes before that round's first turn and carries its number)."""

    round: int
    turn: int
    selection: bool = False

    @property
    def key(self) -> str:
        """A short stable key: ``R2-select`` or ``T6``."""
        return f"R{self.round}-select" if self.selection else f"T{self.turn}"

    @property
    def label(self) -> str:
        """How players read it: ``Round 2: selection and toss`` or ``Turn 6``."""
        return f"Round {self.round}: selection and toss" if self.selection else f"Turn {self.turn}"

    @property
    def part(self) -> int:
        """Within a match: 0 for selection, 1-4 for its turns."""
        return 0 if self.selection else (self.turn - 1) % 4 + 1

    def to_json(self) -> dict[str, Any]:
        """``{"round", "turn", "selection"}``."""
        return {"round": self.round, "turn": self.turn, "selection": self.selection}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Stage:
        """Read :meth:`to_json`."""
        return cls(int(data["round"]), int(data["turn"]), bool(data["selection"]))


def stages(comp: Competition) -> tuple[Stage, ...]:
    """Every stage of ``comp`` in order: each round's selection, then its four turns."""
    out: list[Stage] = []
    for r in range(1, comp.rounds + 1):
        first, last = round_turns(comp, r)
        out.append(Stage(r, first, True))
        out.extend(Stage(r, t) for t in range(first, last + 1))
    return tuple(out)


def match_seed(season_seed: str, fixture_id: str) -> int:
    """The seed a fixture's match plays on: derived from the season's secret seed."""
    return seed_from_text(f"{season_seed}:match:{fixture_id}")


def seed_commitment(seed: int) -> str:
    """The SHA-256 (hex) of a match seed's decimal digits, published before the match."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


Standing = tuple[MatchOrders | None, MatchOrders | None]


@dataclass(frozen=True, slots=True)
class LiveMatch:
    """A match under way: its fixture and state between turns, and ``standing``: each side's
    orders in force at the stage before (as :func:`standing_part` gives them), against which
    the next stage's orders are compared, so the match receives only what changed (see
    :func:`engine.flungo.amend.amendment`). ``None`` for a match stored before this was kept:
    it receives the orders whole, as it did then."""

    fixture_id: str
    state: MatchState
    standing: Standing | None = None


def standing_to_json(standing: Standing | None) -> list[Any] | None:
    """The orders a live match compares the next stage's with, as JSON data."""
    return None if standing is None else [None if o is None else encode(o) for o in standing]


def standing_from_json(data: Any) -> Standing | None:
    """Read :func:`standing_to_json` (``None``: a match stored before it was kept)."""
    return None if data is None else played_orders(data)


@dataclass(frozen=True, slots=True)
class SeasonState:
    """A season between stages: the competition (draw and results), every squad as it stands
    (helper points and injuries applied), the matches under way, the teams that have played a
    match (they have a helper-point window before their next), and the next stage's index."""

    competition: Competition
    squads: tuple[Team, ...]
    seed: str
    live: tuple[LiveMatch, ...] = ()
    played: tuple[str, ...] = ()
    position: int = 0

    def squad(self, name: str) -> Team:
        """The squad called ``name`` (``CompetitionError`` if none)."""
        for t in self.squads:
            if t.name == name:
                return t
        raise CompetitionError(f"{self.competition.name} has no team {name!r}")

    def to_json(self) -> dict[str, Any]:
        """The state as JSON data; :meth:`from_json` reads it back equal."""
        return {
            "competition": self.competition.to_json(),
            "squads": [t.to_json() for t in self.squads],
            "seed": self.seed,
            "live": [
                {
                    "fixture_id": m.fixture_id,
                    "state": m.state.to_json(),
                    "standing": standing_to_json(m.standing),
                }
                for m in self.live
            ],
            "played": list(self.played),
            "position": self.position,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeasonState:
        """Read :meth:`to_json`."""
        return cls(
            competition=Competition.from_json(data["competition"]),
            squads=tuple(Team.from_json(t) for t in data["squads"]),
            seed=str(data["seed"]),
            live=tuple(
                LiveMatch(
                    str(m["fixture_id"]),
                    MatchState.from_json(m["state"]),
                    standing_from_json(m.get("standing")),
                )
                for m in data["live"]
            ),
            played=tuple(str(t) for t in data["played"]),
            position=int(data["position"]),
        )

    def to_text(self) -> str:
        """Canonical text: compact JSON with sorted keys."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> SeasonState:
        """Read :meth:`to_text`."""
        return cls.from_json(json.loads(text))


@dataclass(frozen=True, slots=True)
class MatchTurn:
    """One fixture's part in a stage: the match after it, what happened in it (in order), the
    teams that played it on defaults (no orders of their own), and the seed's commitment; the
    seed itself once the match is decided. ``played`` are the (home, away) orders exactly as
    the engine received them in this stage (``None``: nothing given): with the seed they are
    all :func:`replay` needs to play the match again ball for ball."""

    fixture_id: str
    label: str
    state: MatchState
    events: tuple[Event, ...]
    defaults: tuple[str, ...]
    seed_sha256: str
    seed: int | None = None
    played: tuple[MatchOrders | None, MatchOrders | None] = (None, None)

    @property
    def finished(self) -> bool:
        """Whether the match was decided in this stage."""
        return self.seed is not None


@dataclass(frozen=True, slots=True)
class TurnReport:
    """What one stage of a competition produced: the one model behind turn-report mails and
    the zine. ``competition`` and ``squads`` are as they stand after the stage;
    ``season_events`` are results, eliminations, helper points and injuries; ``notices`` are
    the resolver's own remarks (an illegal helper spend replaced by the default). The daemon
    fills ``next_deadline`` and ``played_at`` (ISO 8601, UTC), ``editorial`` and ``rulings``
    before storing it. A ``preseason`` report is the draw itself, before a ball is bowled: no
    matches, the squads as drawn, the zine's teams issue (issue 0; the seed: "Prior to any
    matches being played, the teams are published in the zine")."""

    stage: Stage
    competition: Competition
    matches: tuple[MatchTurn, ...]
    season_events: tuple[SeasonEvent, ...]
    squads: tuple[Team, ...]
    byes: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    next_deadline: str | None = None
    editorial: str = ""
    rulings: tuple[str, ...] = ()
    played_at: str | None = None
    preseason: bool = False

    @property
    def finished(self) -> bool:
        """Whether the competition has its champion after this stage."""
        return is_finished(self.competition)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data; :meth:`from_json` reads it back equal."""
        return {
            "stage": self.stage.to_json(),
            "competition": self.competition.to_json(),
            "matches": [match_turn_to_json(m) for m in self.matches],
            "season_events": [e.to_json() for e in self.season_events],
            "squads": [t.to_json() for t in self.squads],
            "byes": list(self.byes),
            "notices": list(self.notices),
            "next_deadline": self.next_deadline,
            "editorial": self.editorial,
            "rulings": list(self.rulings),
            # Only when known, so a report stored before it existed reads back the same.
            **({"played_at": self.played_at} if self.played_at is not None else {}),
            **({"preseason": True} if self.preseason else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnReport:
        """Read :meth:`to_json`."""
        return cls(
            stage=Stage.from_json(data["stage"]),
            competition=Competition.from_json(data["competition"]),
            matches=tuple(match_turn_from_json(m) for m in data["matches"]),
            season_events=tuple(season_event_from_json(e) for e in data["season_events"]),
            squads=tuple(Team.from_json(t) for t in data["squads"]),
            byes=tuple(str(t) for t in data["byes"]),
            notices=tuple(str(n) for n in data["notices"]),
            next_deadline=data.get("next_deadline"),
            editorial=str(data.get("editorial", "")),
            rulings=tuple(str(r) for r in data.get("rulings", ())),
            played_at=data.get("played_at"),
            preseason=bool(data.get("preseason", False)),
        )

    def to_text(self) -> str:
        """Canonical text: compact JSON with sorted keys."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> TurnReport:
        """Read :meth:`to_text`."""
        return cls.from_json(json.loads(text))


def match_turn_to_json(m: MatchTurn) -> dict[str, Any]:
    """One fixture's part in a stage as JSON data."""
    return {
        "fixture_id": m.fixture_id,
        "label": m.label,
        "state": m.state.to_json(),
        "events": [_event_json(e) for e in m.events],
        "defaults": list(m.defaults),
        "seed_sha256": m.seed_sha256,
        "seed": m.seed,
        "played": [None if o is None else encode(o) for o in m.played],
    }


def match_turn_from_json(m: Mapping[str, Any]) -> MatchTurn:
    """Read :func:`match_turn_to_json`."""
    return MatchTurn(
        fixture_id=str(m["fixture_id"]),
        label=str(m["label"]),
        state=MatchState.from_json(m["state"]),
        events=tuple(_event_from(e) for e in m["events"]),
        defaults=tuple(str(t) for t in m["defaults"]),
        seed_sha256=str(m["seed_sha256"]),
        seed=None if m["seed"] is None else int(m["seed"]),
        played=played_orders(m.get("played")),
    )


def played_orders(data: Any) -> tuple[MatchOrders | None, MatchOrders | None]:
    """A (home, away) pair of orders as stored (``None``, or empty: nothing given)."""
    if not data:
        return (None, None)
    home, away = (None if o is None else _ORDERS_FROM(o) for o in data)
    return (home, away)


def _event_json(e: Event) -> dict[str, Any]:
    return {"ball": e.to_json()} if isinstance(e, Ball) else {"event": e.to_json()}


def _event_from(data: Mapping[str, Any]) -> Event:
    if "ball" in data:
        return _ball_from_json(data["ball"])
    return event_from_json(data["event"])


def start_season(
    comp: Competition, squads: tuple[Team, ...] | list[Team], seed: str
) -> SeasonState:
    """A season about to begin: ``squads`` are the competition's teams (by name, any order)."""
    by_name = {t.name: t for t in squads}
    if len(by_name) != len(squads):
        raise CompetitionError("two squads have the same name")
    if set(by_name) != set(comp.teams):
        missing = sorted(set(comp.teams) - set(by_name))
        extra = sorted(set(by_name) - set(comp.teams))
        raise CompetitionError(f"squads do not match the draw: missing {missing}, extra {extra}")
    return SeasonState(comp, tuple(by_name[n] for n in comp.teams), seed)


def next_stage(state: SeasonState) -> Stage | None:
    """The stage to resolve next, or ``None`` when the competition is over."""
    if is_finished(state.competition):
        return None
    all_stages = stages(state.competition)
    return all_stages[state.position] if state.position < len(all_stages) else None


# Read back for every match of every stage: built once, whole, at import.
_ORDERS_FROM = decoder(MatchOrders)
