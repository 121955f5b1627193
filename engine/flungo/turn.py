"""A season, stage by stage: the pure resolver the daemon calls when a deadline falls due.

:func:`resolve_stage` is a pure function of a :class:`SeasonState` and the orders in force
for each team: it returns a NEW state and a :class:`TurnReport`, the one model of a turn's
outcome that turn-report mails and the zine both read. Nothing here knows about mail,
deadlines or the database; ``resolve_stage(s, orders)`` twice gives equal results, which is
what makes a turn re-runnable byte for byte. A large stage is resolved match by match
(:func:`stage_matches`, :func:`resolve_match`) and assembled once (:func:`assemble`).

The values a stage reads and writes (stages, the season state, the report) are in
:mod:`engine.flungo.stage`; playing a decided match again is :mod:`engine.flungo.replay`.
Both are re-exported here, where callers have always found them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import IllegalOrder
from engine.flungo.amend import amendment
from engine.flungo.codec import decoder, encode
from engine.flungo.competition import (
    CompetitionKind,
    byes_for_round,
    fixture_teams,
    fixtures_for_round,
    next_fixture,
    record_result,
)
from engine.flungo.fixtures import Fixture
from engine.flungo.helpers import after_match, apply_helper_spend
from engine.flungo.match import play_turn, start_match
from engine.flungo.orders import HelperSpend, MatchOrders, Orders
from engine.flungo.plan import Selection, select
from engine.flungo.replay import (
    Replayed,
    replay,
    replay_document,
    replay_from_document,
)
from engine.flungo.season_events import SeasonEvent
from engine.flungo.season_events import event_from_json as season_event_from_json
from engine.flungo.squad import Team
from engine.flungo.stage import (
    LiveMatch,
    MatchTurn,
    SeasonState,
    Stage,
    Standing,
    TurnReport,
    match_seed,
    match_turn_from_json,
    match_turn_to_json,
    next_stage,
    played_orders,
    seed_commitment,
    stages,
    standing_from_json,
    standing_to_json,
    start_season,
)
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
            "standing": standing_to_json(self.standing),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchJob:
        """Read :meth:`to_json`."""
        home, away = (Team.from_json(t) for t in data["squads"])
        spend_home, spend_away = (bool(b) for b in data["spends"])
        help_home, help_away = (None if h is None else _SPEND_FROM(h) for h in data["helpers"])
        return cls(
            fixture_id=str(data["fixture_id"]),
            label=str(data["label"]),
            squads=(home, away),
            orders=played_orders(data["orders"]),
            defaults=tuple(str(t) for t in data["defaults"]),
            setup=None if data["setup"] is None else MatchSetup.from_json(data["setup"]),
            spends=(spend_home, spend_away),
            helpers=(help_home, help_away),
            live=None if data["live"] is None else MatchState.from_json(data["live"]),
            standing=standing_from_json(data.get("standing")),
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
            "turn": match_turn_to_json(self.turn),
            "squads": [t.to_json() for t in self.squads],
            "season_events": [e.to_json() for e in self.season_events],
            "notices": list(self.notices),
            "standing": standing_to_json(self.standing),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchOutcome:
        """Read :meth:`to_json`."""
        home, away = (Team.from_json(t) for t in data["squads"])
        return cls(
            turn=match_turn_from_json(data["turn"]),
            squads=(home, away),
            season_events=tuple(season_event_from_json(e) for e in data["season_events"]),
            notices=tuple(str(n) for n in data["notices"]),
            standing=standing_from_json(data.get("standing")),
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


# A stage's match jobs are read back by each worker: the decoder is built once, at import.
_SPEND_FROM = decoder(HelperSpend)
