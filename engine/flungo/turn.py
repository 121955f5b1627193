"""A season, stage by stage: the pure resolver the daemon calls when a deadline falls due.

A competition runs as a sequence of :class:`Stage` values. Each round of fixtures has a
*selection* stage (the XI, captain, keeper and toss choice, with the pitch, weather and
opponent known: the seed's "Each player must choose his 11 to play the match") and then the
round's four *turns* in the seed's numbering (turns 1-4 for the first round, 5-8 for the
second, …): the first innings to drinks, to its end, the second innings to drinks, to its end.

:func:`resolve_stage` is a pure function of a :class:`SeasonState` and the orders in force
for each team: it returns a NEW state and a :class:`TurnReport`, the one model of a turn's
outcome that turn-report mails and the zine both read. Nothing here knows about mail,
deadlines or the database; ``resolve_stage(s, orders)`` twice gives equal results, which is
what makes a turn re-runnable byte for byte.

Dice: every match of a season plays on its own seed, ``match_seed(season_seed, fixture_id)``.
The season seed is the GM's secret; a match's seed is published as its SHA-256 commitment
(:func:`seed_commitment`) when the match opens and revealed with the result, so anyone can
replay the match (``pbm sim`` / ``pbm verify``) from the seed, the squads and the orders.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.dice import seed_from_text
from engine.errors import IllegalOrder
from engine.flungo.amend import amendment
from engine.flungo.codec import decode, encode
from engine.flungo.competition import (
    Competition,
    CompetitionKind,
    byes_for_round,
    fixture_teams,
    fixtures_for_round,
    is_finished,
    next_fixture,
    record_result,
    round_turns,
)
from engine.flungo.events import Ball, Event, event_from_json
from engine.flungo.events import ball_from_json as _ball_from_json
from engine.flungo.fixtures import Fixture
from engine.flungo.helpers import after_match, apply_helper_spend
from engine.flungo.match import play_turn, start_match
from engine.flungo.orders import HelperSpend, MatchOrders, Orders
from engine.flungo.plan import Selection, select
from engine.flungo.season_events import SeasonEvent
from engine.flungo.season_events import event_from_json as season_event_from_json
from engine.flungo.squad import Team
from engine.flungo.state import MatchSetup, MatchState
from engine.flungo.summary import CompetitionError, InningsSummary, MatchSummary

__all__ = [
    "LiveMatch",
    "MatchJob",
    "MatchOutcome",
    "MatchTurn",
    "Replayed",
    "SeasonState",
    "SelectionPreview",
    "Stage",
    "TurnReport",
    "assemble",
    "in_match",
    "match_seed",
    "next_stage",
    "preview_selection",
    "preview_side",
    "replay",
    "replay_document",
    "replay_from_document",
    "resolve_match",
    "resolve_stage",
    "seed_commitment",
    "side_at_selection",
    "stage_matches",
    "stages",
    "standing_part",
    "start_season",
    "turn_orders",
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


def _standing_json(standing: Standing | None) -> list[Any] | None:
    return None if standing is None else [None if o is None else encode(o) for o in standing]


def _standing_from(data: Any) -> Standing | None:
    return None if data is None else _played(data)


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
                    "standing": _standing_json(m.standing),
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
                    _standing_from(m.get("standing")),
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
            "matches": [_match_turn_json(m) for m in self.matches],
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
            matches=tuple(_match_turn_from(m) for m in data["matches"]),
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


def _match_turn_json(m: MatchTurn) -> dict[str, Any]:
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


def _match_turn_from(m: Mapping[str, Any]) -> MatchTurn:
    return MatchTurn(
        fixture_id=str(m["fixture_id"]),
        label=str(m["label"]),
        state=MatchState.from_json(m["state"]),
        events=tuple(_event_from(e) for e in m["events"]),
        defaults=tuple(str(t) for t in m["defaults"]),
        seed_sha256=str(m["seed_sha256"]),
        seed=None if m["seed"] is None else int(m["seed"]),
        played=_played(m.get("played")),
    )


def _played(data: Any) -> tuple[MatchOrders | None, MatchOrders | None]:
    if not data:
        return (None, None)
    home, away = (None if o is None else decode(MatchOrders, o) for o in data)
    return (home, away)


def replay(turns: Sequence[MatchTurn], seed: int | None = None) -> MatchState:
    """Play a match again from its stages' reports alone: the setup of the first (its
    selection), the revealed ``seed`` (or the last turn's), and each stage's ``played`` orders.
    Anyone holding the reports can check a result this way: it equals the match as played."""
    if not turns:
        raise CompetitionError("a replay needs the match's stages, from its selection on")
    seed = seed if seed is not None else turns[-1].seed
    if seed is None:
        raise CompetitionError(f"{turns[0].fixture_id}: the seed is revealed only once decided")
    if seed_commitment(seed) != turns[0].seed_sha256:
        raise CompetitionError(f"{turns[0].fixture_id}: that seed is not the one committed to")
    setup = replace(turns[0].state.setup, seed=seed)
    state = start_match(setup, *turns[0].played).state
    for t in turns[1:]:
        state = play_turn(state, *t.played).state
    return state


REPLAY_VERSION = 1


def _ball_log_sha256(state: MatchState) -> str:
    balls = [b.to_json() for inn in state.innings for b in inn.balls]
    text = json.dumps(balls, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def replay_document(turns: Sequence[MatchTurn]) -> dict[str, Any]:
    """Everything needed to play a decided match again, as one JSON document: the setup it
    started with (format, pitch and weather, both squads, knockout or not), the revealed seed
    and its commitment, each stage's orders as played, and the SHA-256 of the ball log and the
    result to compare with. :func:`replay_from_document` reads it; ``pbm verify FILE`` runs it."""
    last = turns[-1]
    if last.seed is None:
        raise CompetitionError(f"{last.fixture_id}: a match is replayed once it is decided")
    setup = turns[0].state.setup
    return {
        "replay": REPLAY_VERSION,
        "fixture_id": last.fixture_id,
        "label": last.label,
        "setup": encode(replace(setup, seed=last.seed)),
        "seed": last.seed,
        "seed_sha256": turns[0].seed_sha256,
        "stages": [[None if o is None else encode(o) for o in t.played] for t in turns],
        "result": last.state.result.text if last.state.result else "",
        "ball_log_sha256": _ball_log_sha256(last.state),
    }


@dataclass(frozen=True, slots=True)
class Replayed:
    """A replay's verdict: the match played again, whether the seed opens its commitment, and
    whether the ball log and result are the ones published."""

    state: MatchState
    commitment_ok: bool
    identical: bool


def replay_from_document(doc: Mapping[str, Any]) -> Replayed:
    """Play the match of a :func:`replay_document` again and compare it with what it says."""
    if doc.get("replay") != REPLAY_VERSION:
        raise CompetitionError(f"not a replay document of version {REPLAY_VERSION}")
    setup: MatchSetup = decode(MatchSetup, doc["setup"])
    seed = int(doc["seed"])
    setup = replace(setup, seed=seed)
    stages_played = [
        tuple(None if o is None else decode(MatchOrders, o) for o in pair) for pair in doc["stages"]
    ]
    if not stages_played:
        raise CompetitionError("a replay needs at least the selection stage")
    state = start_match(setup, *stages_played[0]).state
    for home, away in stages_played[1:]:
        state = play_turn(state, home, away).state
    same = _ball_log_sha256(state) == doc["ball_log_sha256"] and (
        (state.result.text if state.result else "") == doc["result"]
    )
    return Replayed(state, seed_commitment(seed) == doc["seed_sha256"], same)


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


def _match_part(orders: Orders | None) -> MatchOrders | None:
    return None if orders is None else orders.match


def standing_part(orders: Orders | None) -> MatchOrders | None:
    """The part of a team's orders in force that can still change once a match has started.
    The XI, captain, keeper and toss stand from selection: standing orders repeat them, and
    repeating is no change."""
    match = _match_part(orders)
    if match is None:
        return None
    return replace(match, xi=None, captain=None, wicketkeeper=None, toss=None)


def turn_orders(
    standing: Standing | None, now: Standing
) -> tuple[MatchOrders | None, MatchOrders | None]:
    """What a match under way receives at a turn: for each side, what changed in its orders
    in force since the stage before (``standing``; ``None``: not known, the orders whole)."""
    if standing is None:
        return now
    home, away = (amendment(b, n) for b, n in zip(standing, now, strict=True))
    return (home, away)


def _summary(fixture_id: str, st: MatchState) -> MatchSummary:
    assert st.result is not None
    main = st.innings[:2]
    innings = tuple(
        InningsSummary(
            batting=st.team(inn.batting_side).name,
            runs=inn.runs,
            wickets=inn.wickets,
            legal_balls=inn.legal,
            allotted_balls=st.setup.spec.balls,
            all_out=inn.closed == "all out",
        )
        for inn in main
    )
    return MatchSummary(
        home=st.setup.home.name,
        away=st.setup.away.name,
        innings=(innings[0], innings[1]),
        winner=st.result.winner,
        decided_by_super_over=st.result.super_over,
        fixture_id=fixture_id,
        tie_text=st.result.text if st.result.super_over else None,
    )


# -- a stage, match by match ------------------------------------------------------------------
#
# A stage's matches are independent of each other: a team plays at most one match a round,
# a match's dice come from its own seed, and its helper points and injuries touch only its two
# squads. Only the competition (results, knockout draws) is shared, and it changes in
# :func:`assemble`, in fixture order. So a large stage can be resolved by several workers, each
# taking some :class:`MatchJob` values, and assembled once, with the bytes of one resolver.


@dataclass(frozen=True, slots=True)
class MatchJob:
    """Everything one fixture's part in a stage needs, and nothing of the rest of the season.

    ``squads`` are the two sides (home, away) as they stand before the stage; ``orders`` the
    match orders the engine will receive; ``defaults`` the teams that gave none. At a selection
    ``setup`` is the match to start (squads before helper points), ``spends`` says which side
    spends helper points first (it has played a match) and ``helpers`` their spends. At a turn
    ``live`` is the match under way and ``orders`` only what changed since the stage before.
    ``standing`` is each side's orders in force at this stage (:func:`standing_part`), kept
    with the match for the next stage to compare with."""

    fixture_id: str
    label: str
    squads: tuple[Team, Team]
    orders: tuple[MatchOrders | None, MatchOrders | None]
    defaults: tuple[str, ...]
    setup: MatchSetup | None = None
    spends: tuple[bool, bool] = (False, False)
    helpers: tuple[HelperSpend | None, HelperSpend | None] = (None, None)
    live: MatchState | None = None
    standing: Standing | None = None

    def to_json(self) -> dict[str, Any]:
        """The job as JSON data; :meth:`from_json` reads it back equal."""
        return {
            "fixture_id": self.fixture_id,
            "label": self.label,
            "squads": [t.to_json() for t in self.squads],
            "orders": [None if o is None else encode(o) for o in self.orders],
            "defaults": list(self.defaults),
            "setup": None if self.setup is None else encode(self.setup),
            "spends": list(self.spends),
            "helpers": [None if h is None else encode(h) for h in self.helpers],
            "live": None if self.live is None else self.live.to_json(),
            "standing": _standing_json(self.standing),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchJob:
        """Read :meth:`to_json`."""
        home, away = (Team.from_json(t) for t in data["squads"])
        spend_home, spend_away = (bool(b) for b in data["spends"])
        help_home, help_away = (
            None if h is None else decode(HelperSpend, h) for h in data["helpers"]
        )
        return cls(
            fixture_id=str(data["fixture_id"]),
            label=str(data["label"]),
            squads=(home, away),
            orders=_played(data["orders"]),
            defaults=tuple(str(t) for t in data["defaults"]),
            setup=None if data["setup"] is None else decode(MatchSetup, data["setup"]),
            spends=(spend_home, spend_away),
            helpers=(help_home, help_away),
            live=None if data["live"] is None else MatchState.from_json(data["live"]),
            standing=_standing_from(data.get("standing")),
        )


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One fixture's part in a stage, resolved: its :class:`MatchTurn`, its two squads after
    it (helper points spent, or injuries and healing after a decided match), the season
    events that made them so, and the resolver's notices. The result itself is recorded in
    the competition by :func:`assemble`. ``standing``: the job's, kept with a match that goes
    on (see :class:`LiveMatch`)."""

    turn: MatchTurn
    squads: tuple[Team, Team]
    season_events: tuple[SeasonEvent, ...] = ()
    notices: tuple[str, ...] = ()
    standing: Standing | None = None

    @property
    def fixture_id(self) -> str:
        """The fixture this outcome is of."""
        return self.turn.fixture_id

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON data; :meth:`from_json` reads it back equal."""
        return {
            "turn": _match_turn_json(self.turn),
            "squads": [t.to_json() for t in self.squads],
            "season_events": [e.to_json() for e in self.season_events],
            "notices": list(self.notices),
            "standing": _standing_json(self.standing),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchOutcome:
        """Read :meth:`to_json`."""
        home, away = (Team.from_json(t) for t in data["squads"])
        return cls(
            turn=_match_turn_from(data["turn"]),
            squads=(home, away),
            season_events=tuple(season_event_from_json(e) for e in data["season_events"]),
            notices=tuple(str(n) for n in data["notices"]),
            standing=_standing_from(data.get("standing")),
        )

    def to_text(self) -> str:
        """Canonical text: compact JSON with sorted keys."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> MatchOutcome:
        """Read :meth:`to_text`."""
        return cls.from_json(json.loads(text))


def _stage_or_fail(state: SeasonState) -> Stage:
    stage = next_stage(state)
    if stage is None:
        raise CompetitionError(f"{state.competition.name} is over: there is no stage to resolve")
    return stage


def stage_matches(state: SeasonState, orders: Mapping[str, Orders]) -> tuple[MatchJob, ...]:
    """The next stage's matches as independent jobs, in the order the report lists them
    (``orders`` as for :func:`resolve_stage`). Raises :class:`CompetitionError` when the
    competition is over."""
    stage = _stage_or_fail(state)
    comp = state.competition
    jobs: list[MatchJob] = []
    if stage.selection:
        for fixture in fixtures_for_round(comp, stage.round):
            home_name, away_name = fixture_teams(comp, fixture.id)
            if home_name is None or away_name is None:
                raise CompetitionError(f"the sides of {fixture.id} are not known at selection")
            home_sq, away_sq = state.squad(home_name), state.squad(away_name)
            home, away = _match_part(orders.get(home_name)), _match_part(orders.get(away_name))
            helpers = tuple(
                given.helpers if (given := orders.get(n)) is not None else None
                for n in (home_name, away_name)
            )
            setup = MatchSetup(
                comp.format,
                match_seed(state.seed, fixture.id),
                fixture.conditions,
                home_sq,
                away_sq,
                knockout=comp.kind is CompetitionKind.KNOCKOUT,
                no_consecutive_overs=comp.no_consecutive_overs,
                seeding=comp.seeding(home_name, away_name),
            )
            jobs.append(
                MatchJob(
                    fixture.id,
                    fixture.label,
                    (home_sq, away_sq),
                    (home, away),
                    tuple(n for n, o in ((home_name, home), (away_name, away)) if o is None),
                    setup=setup,
                    spends=(home_name in state.played, away_name in state.played),
                    helpers=(helpers[0], helpers[1]),
                    standing=(
                        standing_part(orders.get(home_name)),
                        standing_part(orders.get(away_name)),
                    ),
                )
            )
        return tuple(jobs)
    for lm in state.live:
        st = lm.state
        names = (st.setup.home.name, st.setup.away.name)
        now = (standing_part(orders.get(names[0])), standing_part(orders.get(names[1])))
        jobs.append(
            MatchJob(
                lm.fixture_id,
                comp.fixture(lm.fixture_id).label,
                (state.squad(names[0]), state.squad(names[1])),
                turn_orders(lm.standing, now),
                tuple(n for n in names if orders.get(n) is None),
                live=st,
                standing=now,
            )
        )
    return tuple(jobs)


def _spend(team: Team, spend: HelperSpend | None) -> tuple[Team, tuple[SeasonEvent, ...], str]:
    try:
        team, evs = apply_helper_spend(team, spend)
    except IllegalOrder as exc:
        team, evs = apply_helper_spend(team, None)
        return team, evs, f"{team.name}: helper points: {exc}; the default spend was used"
    return team, evs, ""


def side_at_selection(
    team: Team, spends: bool, spend: HelperSpend | None
) -> tuple[Team, tuple[SeasonEvent, ...], str]:
    """A side as its selection finds it: ``team`` after its helper points (``spend``, or the
    default; none when ``spends`` is false: before its first match), the events and any
    notice. The one step both :func:`resolve_match` and :func:`preview_selection` take."""
    if not spends:
        return team, (), ""
    return _spend(team, spend)


@dataclass(frozen=True, slots=True)
class SelectionPreview:
    """What a team's next selection will settle on the orders in force, as far as it is
    known: the squad after the helper points, the XI (:class:`Selection`), the fixes the
    defaults make, the helper-point events and notice, and the fixture (its label)."""

    squad: Team
    selection: Selection
    fixes: tuple[str, ...]
    season_events: tuple[SeasonEvent, ...]
    notice: str
    fixture_id: str
    label: str


def preview_selection(
    state: SeasonState, team: str, orders: Orders | None
) -> SelectionPreview | None:
    """What ``team``'s next selection will make of ``orders`` if nothing changes: the same
    helper-point step and the same :func:`~engine.flungo.plan.select` as the match, with its
    fixture's pitch and weather. None while the team is in a match (its XI is on the field)
    or when it has no next match."""
    if any(team in (lm.state.setup.home.name, lm.state.setup.away.name) for lm in state.live):
        return None
    fixture = next_fixture(state.competition, team)
    if fixture is None:
        return None
    return preview_side(state.squad(team), team in state.played, orders, fixture)


def preview_side(
    squad: Team, spends: bool, orders: Orders | None, fixture: Fixture
) -> SelectionPreview:
    """:func:`preview_selection` from its parts: the squad as it stands, whether the team
    spends helper points at this selection (it has played a match), the orders in force and
    the fixture (for its pitch and weather). A caller that keeps these per team (pbm does,
    for the reply to each mail) need not read the whole season."""
    helpers = orders.helpers if orders is not None else None
    squad, events, notice = side_at_selection(squad, spends, helpers)
    sel, fixes = select(squad, _match_part(orders), fixture.conditions)
    return SelectionPreview(squad, sel, tuple(fixes), events, notice, fixture.id, fixture.label)


def in_match(state: SeasonState, team: str) -> MatchState | None:
    """The match ``team`` is playing (its selection made, its result not yet), if any."""
    for lm in state.live:
        if team in (lm.state.setup.home.name, lm.state.setup.away.name):
            return lm.state
    return None


def resolve_match(job: MatchJob) -> MatchOutcome:
    """Resolve one job of :func:`stage_matches` (pure: it reads nothing but the job, so jobs
    resolve in any order, on any worker, with the same results).

    Selection spends the helper points of a side coming out of a match, then starts the match
    on its own seed; a turn plays the match one turn, and a match decided in it heals and
    injures its squads and reveals its seed."""
    home_sq, away_sq = job.squads
    if job.live is None:
        assert job.setup is not None, "a selection job carries the match to start"
        season: list[SeasonEvent] = []
        notices: list[str] = []
        sides = []
        for team, spends, spend in zip(job.squads, job.spends, job.helpers, strict=True):
            # helper points are spent between matches
            team, evs, notice = side_at_selection(team, spends, spend)
            season.extend(evs)
            if notice:
                notices.append(notice)
            sides.append(team)
        home_sq, away_sq = sides
        setup = replace(job.setup, home=home_sq, away=away_sq)
        res = start_match(setup, *job.orders)
        turn = MatchTurn(
            job.fixture_id,
            job.label,
            res.state,
            res.events,
            job.defaults,
            seed_commitment(setup.seed),
            played=job.orders,
        )
        return MatchOutcome(turn, (home_sq, away_sq), tuple(season), tuple(notices), job.standing)
    res = play_turn(job.live, *job.orders)
    st = res.state
    commitment = seed_commitment(st.setup.seed)
    if st.result is None:
        turn = MatchTurn(
            job.fixture_id, job.label, st, res.events, job.defaults, commitment, played=job.orders
        )
        return MatchOutcome(turn, job.squads, standing=job.standing)
    season = []
    after = []
    for team in job.squads:
        hurt = {p: pts for t, p, pts in st.injuries if t == team.name}
        team, evs = after_match(team, hurt)
        after.append(team)
        season.extend(evs)
    turn = MatchTurn(
        job.fixture_id,
        job.label,
        st,
        res.events,
        job.defaults,
        commitment,
        st.setup.seed,
        job.orders,
    )
    return MatchOutcome(turn, (after[0], after[1]), tuple(season))


def _in_order(expected: Sequence[str], outcomes: Sequence[MatchOutcome]) -> list[MatchOutcome]:
    by_id = {o.fixture_id: o for o in outcomes}
    if len(by_id) != len(outcomes) or set(by_id) != set(expected):
        missing = sorted(set(expected) - set(by_id))
        extra = sorted(set(by_id) - set(expected))
        raise CompetitionError(
            f"the outcomes are not the stage's matches: missing {missing}, extra {extra}"
            + (", some twice" if len(by_id) != len(outcomes) else "")
        )
    return [by_id[f] for f in expected]


def assemble(
    state: SeasonState, stage: Stage, outcomes: Sequence[MatchOutcome]
) -> tuple[SeasonState, TurnReport]:
    """The season after ``stage`` and its report, from every one of the stage's outcomes (in
    any order: they are put in the report's order here). Results are recorded in the
    competition in fixture order, so a knockout's next round is drawn as one resolver would.
    Raises :class:`CompetitionError` if ``stage`` is not the next, or the outcomes are not
    exactly its matches."""
    if stage != _stage_or_fail(state):
        raise CompetitionError(f"{stage.key} is not the next stage of {state.competition.name}")
    comp = state.competition
    if stage.selection:
        order = [f.id for f in fixtures_for_round(comp, stage.round)]
    else:
        order = [lm.fixture_id for lm in state.live]
    ordered = _in_order(order, outcomes)
    season: list[SeasonEvent] = []
    notices: list[str] = []
    squads = {t.name: t for t in state.squads}
    live: list[LiveMatch] = list(state.live) if stage.selection else []
    played = list(state.played)
    for out in ordered:
        st = out.turn.state
        if stage.selection:
            live.append(LiveMatch(out.fixture_id, st, out.standing))
        elif out.turn.finished:
            comp, evs = record_result(comp, _summary(out.fixture_id, st))
            season.extend(evs)
            played.extend(t.name for t in out.squads)
        else:
            live.append(LiveMatch(out.fixture_id, st, out.standing))
        season.extend(out.season_events)
        notices.extend(out.notices)
        squads.update((t.name, t) for t in out.squads)
    state = replace(
        state,
        competition=comp,
        squads=tuple(squads[t.name] for t in state.squads),
        live=tuple(live),
        played=tuple(dict.fromkeys(played)),
        position=state.position + 1,
    )
    while state.live == () and (nxt := next_stage(state)) is not None and not nxt.selection:
        # Every match of the round is decided: its remaining turns have nothing to play.
        state = replace(state, position=state.position + 1)
    report = TurnReport(
        stage=stage,
        competition=state.competition,
        matches=tuple(o.turn for o in ordered),
        season_events=tuple(season),
        squads=state.squads,
        byes=byes_for_round(state.competition, stage.round) if stage.selection else (),
        notices=tuple(notices),
    )
    return state, report


def resolve_stage(
    state: SeasonState, orders: Mapping[str, Orders]
) -> tuple[SeasonState, TurnReport]:
    """Resolve the next stage with ``orders`` (keyed by team name: the orders in force for
    that team; a team not in the mapping plays its defaults, and the report says so).

    Selection starts each of the round's matches (helper points first, for teams coming out
    of a match); a turn plays each live match one turn. A match decided in a turn has its
    result recorded at once, its injuries and healing applied, and its seed revealed; a match
    decided before its fourth turn plays no further turns (there is nothing left to play).
    Raises :class:`CompetitionError` when the competition is over.

    It is :func:`stage_matches`, :func:`resolve_match` for each job, then :func:`assemble`:
    the daemon may run the middle step on several workers and gets these same bytes.
    """
    stage = _stage_or_fail(state)
    outcomes = [resolve_match(job) for job in stage_matches(state, orders)]
    return assemble(state, stage, outcomes)
