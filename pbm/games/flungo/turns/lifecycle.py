"""A season's life: the draw when joining closes, each stage opened with its deadline, the
queries of a competition's stages and seats, and a stage frozen (the orders in force stored)
ready to be resolved.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.orm import Session

from engine.dice import Dice, seed_from_text
from engine.flungo.competition import Competition as EngineCompetition
from engine.flungo.draw import mini_tournament, new_knockout, new_league
from engine.flungo.formats import Format
from engine.flungo.orders import Orders
from engine.flungo.squad import Team
from engine.flungo.summary import CompetitionError
from engine.flungo.turn import (
    SeasonState,
    Stage,
    TurnReport,
    match_seed,
    next_stage,
    resolve_stage,
    start_season,
)
from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import GameError
from pbm.db.models import (
    Competition,
    CompetitionKind,
    CompetitionStatus,
    Flag,
    FlagStatus,
    OrdersVersion,
    Seat,
    Turn,
    TurnStatus,
)
from pbm.games.flungo.competitions import record_event
from pbm.games.flungo.defaults import standing_orders
from pbm.games.flungo.house_rules import house_rules
from pbm.games.flungo.schedule import deadline_after, format_deadline
from pbm.games.flungo.standing import latest_versions
from pbm.games.flungo.turns.policy import settings_for
from pbm.games.flungo.zine.source import TEAMS_ISSUE

__all__ = [
    "active_seats",
    "current_turn",
    "draw",
    "freeze",
    "frozen_state",
    "is_away",
    "latest_done",
    "latest_orders",
    "open_stage",
    "orders_sent",
    "played_orders",
    "reseed",
    "resolve_inputs",
    "rulings",
    "season_of",
    "season_seed",
    "stage_of",
    "start_competition",
]


def _unique_names(seats: list[Seat]) -> list[Team]:
    """Each seat's squad, a name shared with an earlier seat suffixed with the seat number."""
    seen: set[str] = set()
    out = []
    for seat in seats:
        team = Team.from_json(seat.team)
        if team.name in seen:
            team = replace(team, name=f"{team.name} ({seat.number})")
            seat.team = team.to_json()
        seen.add(team.name)
        out.append(team)
    return out


def draw(comp: Competition, names: list[str]) -> EngineCompetition:
    """The engine competition of ``comp``'s kind for these teams (in seat order); raises
    :class:`GameError` if the kind does not fit the number of teams."""
    dice = Dice(seed_from_text(f"{comp.seed}:draw"))
    fmt = Format(comp.format)
    try:
        if comp.kind == CompetitionKind.MINI:
            ecomp, _ = mini_tournament(comp.name, names, fmt, dice)
        elif comp.kind == CompetitionKind.KNOCKOUT:
            ecomp, _ = new_knockout(comp.name, names, fmt, dice)
        else:
            double = comp.kind == CompetitionKind.DOUBLE
            ecomp, _ = new_league(comp.name, names, fmt, dice, double=double)
    except CompetitionError as exc:
        raise GameError(str(exc)) from exc
    # the house rules play in every match (MatchSetup is built from the competition)
    rules = house_rules(comp.settings)
    return replace(
        ecomp,
        no_consecutive_overs=rules["no_consecutive_overs"],
        hundred_tiebreak=rules["hundred_tiebreak"],
    )


def season_seed(comp: Competition) -> str:
    """The season's secret seed (derived from the competition's)."""
    return f"{comp.seed}:season"


def start_competition(session: Session, config: Config, clock: Clock, comp: Competition) -> Turn:
    """Joining and naming have closed: draw the fixtures and pitches, start the season and
    open its first stage (the first round's selection). The caller mails the fixtures.
    Raises :class:`GameError` (the competition stays closed) if it cannot start."""
    seats = list(comp.seats)
    comp.status = CompetitionStatus.CLOSED
    if len(seats) < 2:
        raise GameError(f"{comp.code} has {len(seats)} team(s): a competition needs two")
    teams = _unique_names(seats)
    ecomp = draw(comp, [t.name for t in teams])
    state = start_season(ecomp, teams, season_seed(comp))
    comp.season = state.to_text()
    comp.status = CompetitionStatus.RUNNING
    record_event(session, clock, "season-started", comp, teams=len(teams), shape=comp.kind)
    # The first deadline follows the close of naming, not the pass that ran the draw.
    turn = open_stage(session, config, clock, comp, state, min(comp.naming_deadline, clock.now()))
    assert turn is not None  # a new season always has a first stage
    # The seed: "Prior to any matches being played, the teams are published in the zine". The
    # draw's own report is kept with the competition (no stage resolved it) as issue 0.
    stage = next_stage(state)
    assert stage is not None
    teams_issue = TurnReport(
        stage=stage,
        competition=state.competition,
        matches=(),
        season_events=(),
        squads=tuple(state.squads),
        next_deadline=turn.deadline.isoformat(),
        played_at=clock.now().isoformat(timespec="seconds"),
        preseason=True,
    )
    comp.state = {**(comp.state or {}), TEAMS_ISSUE: teams_issue.to_text()}
    return turn


def open_stage(
    session: Session,
    config: Config,
    clock: Clock,
    comp: Competition,
    state: SeasonState,
    after: datetime,
) -> Turn | None:
    """Open the season's next stage with its deadline (None, and the competition finished,
    when there is none). A stage opened again after a rollback is its next generation.

    ``after`` is the previous deadline (or when the season or the reopened stage began): the
    deadline is the schedule's next slot after it, however late this stage opens, so a daemon
    pass that runs a stage late never shifts the season. A slot that passed before the stage
    opened is skipped for the first still ahead, and the stage's note says so (the GM's digest
    shows it)."""
    stage = next_stage(state)
    if stage is None:
        comp.status = CompetitionStatus.FINISHED
        record_event(session, clock, "competition-finished", comp)
        return None
    earlier = session.scalar(
        select(func.max(Turn.generation)).where(
            Turn.competition_id == comp.id, Turn.position == state.position
        )
    )
    generation = 0 if earlier is None else earlier + 1
    cadence = settings_for(comp, config.turns).cadence
    slot = deadline_after(cadence, after, clock.now())
    note = None
    if slot.skipped:
        assert slot.missed is not None
        missed = "its slot" if slot.skipped == 1 else f"{slot.skipped} slots from"
        note = (
            f"{stage.label} opened late: {missed} {format_deadline(slot.missed)} had passed,"
            f" so its deadline is the next slot, {format_deadline(slot.deadline)}"
        )
    turn = Turn(
        competition_id=comp.id,
        position=state.position,
        generation=generation,
        stage_key=stage.key,
        round=stage.round,
        turn=stage.turn,
        selection=stage.selection,
        status=TurnStatus.OPEN,
        opened_at=clock.now(),
        deadline=slot.deadline,
        reminders={"sent": []},
        skip_check=False,
        note=note,
    )
    session.add(turn)
    session.flush()
    return turn


def current_turn(session: Session, comp: Competition) -> Turn | None:
    """The stage taking orders (or frozen, being resolved), if any."""
    return session.scalars(_CURRENT_TURN, {"b_comp": comp.id}).first()


#: Built once: every orders mail asks (building a statement costs about what running it does).
_CURRENT_TURN = (
    select(Turn)
    .where(
        Turn.competition_id == bindparam("b_comp"),
        Turn.status.in_((TurnStatus.OPEN, TurnStatus.FROZEN)),
    )
    .order_by(Turn.position.desc(), Turn.generation.desc())
    .limit(1)
)


def latest_done(session: Session, comp: Competition) -> Turn | None:
    """The latest resolved stage (not rolled back), if any."""
    return session.scalars(
        select(Turn)
        .where(Turn.competition_id == comp.id, Turn.status == TurnStatus.DONE)
        .order_by(Turn.position.desc(), Turn.generation.desc())
        .limit(1)
    ).first()


def season_of(comp: Competition) -> SeasonState | None:
    """The competition's season as it stands (None before the draw)."""
    return SeasonState.from_text(comp.season) if comp.season else None


def active_seats(comp: Competition, now: datetime | None = None) -> list[Seat]:
    """Seats whose teams are managed (not retired) and, ``now``, waited for: a manager away
    (AWAY) is neither reminded nor waited for, and his team plays what it would on silence."""
    return [s for s in comp.seats if not s.retired and not is_away(s, now)]


def is_away(seat: Seat, now: datetime | None) -> bool:
    """Whether the seat's manager is away at ``now`` (None: not asked)."""
    return now is not None and seat.away_until is not None and seat.away_until > now


def _present(now: datetime) -> Any:
    """The SQL of :func:`is_away`'s negation, for the queries that count waited-for seats."""
    return or_(Seat.away_until.is_(None), Seat.away_until <= now)


def orders_sent(session: Session, comp: Competition, turn: Turn) -> dict[int, datetime]:
    """Seat id → when its latest orders for this stage came (orders since the stage opened)."""
    rows = session.execute(
        select(OrdersVersion.seat_id, func.max(OrdersVersion.created_at))
        .join(Seat, Seat.id == OrdersVersion.seat_id)
        .where(Seat.competition_id == comp.id, OrdersVersion.created_at >= turn.opened_at)
        .group_by(OrdersVersion.seat_id)
    )
    return {seat_id: at for seat_id, at in rows}  # noqa: C416 - rows, not pairs, for mypy


def latest_orders(session: Session, comp: Competition) -> dict[int, str]:
    """Seat id → the text of its standing orders (the latest version), in one query."""
    return {seat: text for seat, (_, text) in latest_versions(session, comp).items()}


def rulings(session: Session, comp: Competition, turn: Turn) -> list[str]:
    """The GM's rulings on flags since the stage opened, for the turn report."""
    rows = session.scalars(
        select(Flag)
        .where(
            Flag.competition_id == comp.id,
            Flag.resolved_at.is_not(None),
            Flag.resolved_at >= turn.opened_at,
            Flag.status.in_((FlagStatus.RESOLVED, FlagStatus.DROPPED)),
        )
        .order_by(Flag.id)
    )
    out = []
    for f in rows:
        if f.status == FlagStatus.RESOLVED:
            out.append(f"Flag {f.id} ({f.text!r}) read as: {f.resolution}")
        else:
            out.append(f"Flag {f.id} ({f.text!r}) dropped: {f.note}")
    return out


def stage_of(turn: Turn) -> Stage:
    """The engine stage a row stands for."""
    return Stage(turn.round, turn.turn, turn.selection)


def freeze(session: Session, clock: Clock, comp: Competition, turn: Turn) -> None:
    """Store the inputs as played: each team's orders in force (canonical text, or null for a
    retired team or one with no orders: it plays its defaults), who sent orders for this stage,
    the season before and its seed."""
    sent = orders_sent(session, comp, turn)
    latest = latest_orders(session, comp)
    teams: dict[str, str | None] = {}
    fresh: list[str] = []
    for seat in comp.seats:
        name = Team.from_json(seat.team).name
        text = None if seat.retired else latest.get(seat.id)
        teams[name] = text if text and text.strip() else None
        if seat.id in sent:
            fresh.append(name)
    assert comp.season is not None
    turn.orders = {"teams": teams, "sent": fresh, "rulings": rulings(session, comp, turn)}
    turn.state_before = comp.season
    turn.seed = str(json.loads(comp.season)["seed"])
    turn.status = TurnStatus.FROZEN
    record_event(session, clock, "turn-frozen", comp, stage=turn.stage_key, sent=len(fresh))


def played_orders(
    state: SeasonState, frozen: Mapping[str, str | None], session: Session | None = None
) -> dict[str, Orders]:
    """The frozen orders texts read against each squad as it stands in ``state`` (kept by
    the App of ``session``, if given, for the stage's reports that read them again)."""
    fmt = state.competition.format.value
    out: dict[str, Orders] = {}
    for name, text in sorted(frozen.items()):
        try:
            team = state.squad(name)
        except CompetitionError:
            continue
        orders = standing_orders(text, team, fmt, session)
        if orders is not None:
            out[name] = orders
    return out


def frozen_state(turn: Turn) -> SeasonState:
    """The season a frozen stage resolves from (reseeded if the GM gave it a new seed)."""
    assert turn.state_before is not None
    state = SeasonState.from_text(turn.state_before)
    if turn.seed is not None and turn.seed != state.seed:
        state = reseed(state, turn.seed)
    return state


def resolve_inputs(turn: Turn, session: Session | None = None) -> tuple[SeasonState, TurnReport]:
    """Resolve a frozen stage's inputs (pure: the same inputs give the same bytes; the orders
    read with the App of ``session``, if given)."""
    assert turn.orders is not None
    state = frozen_state(turn)
    return resolve_stage(state, played_orders(state, turn.orders["teams"], session))


def reseed(state: SeasonState, seed: str) -> SeasonState:
    """``state`` with a new season seed: the live matches play on from their new seeds."""
    live = tuple(
        replace(
            m,
            state=replace(
                m.state, setup=replace(m.state.setup, seed=match_seed(seed, m.fixture_id))
            ),
        )
        for m in state.live
    )
    return replace(state, seed=seed, live=live)
