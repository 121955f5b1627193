"""Competitions turn by turn: the draw when joining closes, each stage's deadline, reminders,
the pre-run check, resolving exactly once from frozen inputs, rerun and rollback.

A season is a sequence of stages (:mod:`engine.flungo.turn`): each round's selection, then its
turns. Each stage is a :class:`~pbm.db.models.Turn` row that takes orders while ``open``. When
it falls due (its deadline plus the grace period, or early once every team's orders are in and
the delay for second thoughts has passed) it is resolved in two commits:

1. :func:`freeze`: the orders in force for each team (canonical text; null for a team on its
   defaults), the season before and its seed are stored; the row is ``frozen``.
2. :func:`resolve_frozen`: the engine resolves the frozen inputs, the report and the season
   after are stored, the next stage opens, and every report mail and the GM's digest are
   queued; the row is ``done``.

A large stage (``[turns] split_matches`` matches or more) is split by match in the freeze's
commit: one :class:`~pbm.db.models.TurnMatch` row per match holds the engine's
:class:`~engine.flungo.turn.MatchJob`. Every worker's pass claims a batch of rows
(:func:`work_matches`, ``FOR UPDATE SKIP LOCKED``, then a lease of ``match_lease_seconds``),
resolves them outside any transaction and stores each result once; a claim whose lease has
passed is retaken (its worker died). Whoever stores the last result assembles the stage
(:func:`~engine.flungo.turn.assemble`: the bytes one resolver would give) in step 2, under the
same ``resolve`` key and the competition's row lock, so it completes exactly once. Its report
mails are then queued by every worker too, a batch to a claim (:mod:`pbm.games.flungo.turn_mail`).

Each runs under the scheduler's job key (``turn:<code>:<position>:<generation>:freeze`` and
``...:resolve``) in ``job_runs``, so a second daemon cannot run it twice; a daemon that dies
between the two commits resolves the frozen inputs on its next pass, never re-reading orders.

Service functions take a session, a clock and plain values and return what happened; the
caller commits. :func:`tick` is the scheduler's entry point and commits per step.
"""

from __future__ import annotations

import json
import secrets as _secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import structlog
from sqlalchemy import and_, bindparam, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from engine.dice import Dice, seed_from_text
from engine.flungo.competition import Competition as EngineCompetition
from engine.flungo.competition import fixtures_for_round
from engine.flungo.draw import mini_tournament, new_knockout, new_league
from engine.flungo.formats import Format
from engine.flungo.orders import Orders
from engine.flungo.squad import Team
from engine.flungo.summary import CompetitionError
from engine.flungo.turn import (
    MatchJob,
    MatchOutcome,
    SeasonState,
    Stage,
    TurnReport,
    assemble,
    match_seed,
    next_stage,
    resolve_match,
    resolve_stage,
    stage_matches,
    start_season,
)
from pbm.core.clock import Clock, utc
from pbm.core.config import Config, TurnsConfig
from pbm.core.errors import DatabaseUnavailable, GameError
from pbm.db.models import (
    Competition,
    CompetitionKind,
    CompetitionStatus,
    Flag,
    FlagStatus,
    InboundMail,
    JobRun,
    MailStatus,
    OrdersVersion,
    Seat,
    Turn,
    TurnMail,
    TurnMatch,
    TurnMatchStatus,
    TurnStatus,
)
from pbm.db.session import SKIP_LOCKED, transaction
from pbm.games.flungo import managers, reports, turn_mail
from pbm.games.flungo.competitions import record_event
from pbm.games.flungo.defaults import standing_orders
from pbm.games.flungo.house_rules import house_rules
from pbm.games.flungo.schedule import (
    Cadence,
    deadline_after,
    format_deadline,
    parse_duration,
    parse_schedule,
)
from pbm.games.flungo.zine.source import TEAMS_ISSUE
from pbm.ops.workers import default_worker_id

__all__ = [
    "Claimed",
    "Settings",
    "claim_matches",
    "current_turn",
    "extend",
    "freeze",
    "hold",
    "latest_done",
    "next_wakeup",
    "open_stage",
    "orders_sent",
    "rerun",
    "resolve_frozen",
    "resume",
    "rollback",
    "run_now",
    "settings_for",
    "split_frozen",
    "start_competition",
    "store_results",
    "tick",
    "work_matches",
]

log = structlog.get_logger("pbm.turns")


# -- settings ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """A competition's turn settings: the config's ``[turns]``, overridden per competition."""

    cadence: Cadence
    early: timedelta
    grace: timedelta
    reminders: tuple[timedelta, ...]
    hold_share: float
    hold_on_intake_errors: bool
    naming_after_full: timedelta | None
    nmr_limit: int = 0


def _seconds(value: Any) -> timedelta:
    if isinstance(value, str):
        return parse_duration(value)
    return timedelta(seconds=float(value))


def settings_for(comp: Competition, turns: TurnsConfig) -> Settings:
    """The settings in force for ``comp`` (its ``settings`` JSON overrides the config)."""
    return _settings(comp.settings, comp.schedule, turns)


def _settings(
    settings: Mapping[str, Any] | None, schedule: str | None, turns: TurnsConfig
) -> Settings:
    over: Mapping[str, Any] = settings or {}
    after_full = over.get("naming_after_full", turns.naming_after_full)
    return Settings(
        cadence=parse_schedule(schedule or turns.schedule),
        early=_seconds(over.get("early", turns.early_seconds)),
        grace=_seconds(over.get("grace", turns.grace_seconds)),
        reminders=tuple(_seconds(r) for r in over.get("reminders", turns.reminders)),
        hold_share=float(over.get("hold_share", turns.hold_share)),
        hold_on_intake_errors=bool(over.get("hold_on_intake_errors", turns.hold_on_intake_errors)),
        naming_after_full=None if after_full is None else _seconds(after_full),
        nmr_limit=int(over.get("nmr_limit", turns.nmr_limit)),
    )


# -- the draw ---------------------------------------------------------------------------------


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


# -- queries ----------------------------------------------------------------------------------


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
    newest = (
        select(OrdersVersion.seat_id, func.max(OrdersVersion.version).label("v"))
        .join(Seat, Seat.id == OrdersVersion.seat_id)
        .where(Seat.competition_id == comp.id)
        .group_by(OrdersVersion.seat_id)
        .subquery()
    )
    rows = session.execute(
        select(OrdersVersion.seat_id, OrdersVersion.text).join(
            newest,
            (OrdersVersion.seat_id == newest.c.seat_id) & (OrdersVersion.version == newest.c.v),
        )
    )
    return {k: v for k, v in rows}  # noqa: C416 - a Result has keys(): dict() would take it for a mapping


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


# -- due, reminders, the pre-run check (pure) -------------------------------------------------


def is_due(
    deadline: datetime,
    settings: Settings,
    now: datetime,
    all_in_at: datetime | None,
) -> bool:
    """Whether a stage runs now: at its deadline plus the grace period, or early once every
    team's orders are in (``all_in_at``, the last of them) and the delay has passed."""
    if now >= deadline + settings.grace:
        return True
    return all_in_at is not None and now >= all_in_at + settings.early


def reminders_due(
    opened_at: datetime, deadline: datetime, settings: Settings, now: datetime, sent: list[float]
) -> tuple[list[float], list[float]]:
    """(offsets to remind at now, offsets that were already past when the stage opened);
    offsets are seconds before the deadline."""
    remind, skip = [], []
    for offset in settings.reminders:
        secs = offset.total_seconds()
        if secs in sent:
            continue
        at = deadline - offset
        if at <= opened_at:
            skip.append(secs)
        elif at <= now < deadline:
            remind.append(secs)
    return remind, skip


def hold_reason(
    teams: int, sent: int, dead_letters: int, settings: Settings, skip_check: bool
) -> str | None:
    """Why the pre-run check holds a stage (None: it runs). Like Eressea's ``nmr_check``."""
    if skip_check or teams == 0:
        return None
    silent = teams - sent
    if silent / teams > settings.hold_share:
        return (
            f"{silent} of {teams} teams sent nothing for this stage "
            f"(more than {settings.hold_share:.0%})"
        )
    if settings.hold_on_intake_errors and dead_letters:
        return f"{dead_letters} mail(s) failed to be handled since the stage opened"
    return None


# -- resolving --------------------------------------------------------------------------------


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


def played_orders(state: SeasonState, frozen: Mapping[str, str | None]) -> dict[str, Orders]:
    """The frozen orders texts read against each squad as it stands in ``state``."""
    fmt = state.competition.format.value
    out: dict[str, Orders] = {}
    for name, text in sorted(frozen.items()):
        try:
            team = state.squad(name)
        except CompetitionError:
            continue
        orders = standing_orders(text, team, fmt)
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


def resolve_inputs(turn: Turn) -> tuple[SeasonState, TurnReport]:
    """Resolve a frozen stage's inputs (pure: the same inputs give the same bytes)."""
    assert turn.orders is not None
    state = frozen_state(turn)
    return resolve_stage(state, played_orders(state, turn.orders["teams"]))


def stage_size(state: SeasonState) -> int:
    """How many matches the next stage plays (0 when the competition is over)."""
    stage = next_stage(state)
    if stage is None:
        return 0
    if stage.selection:
        return len(fixtures_for_round(state.competition, stage.round))
    return len(state.live)


def split_frozen(session: Session, config: Config, comp: Competition, turn: Turn) -> int:
    """In the freeze's transaction: a stage of ``[turns] split_matches`` matches or more gets
    one work row per match (its MatchJob); returns how many (0: resolved in one piece)."""
    threshold = config.turns.split_matches
    if threshold <= 0 or comp.teams // 2 < threshold:
        return 0  # too few teams for that many matches: not worth reading the season
    state = frozen_state(turn)
    if stage_size(state) < threshold:
        return 0
    assert turn.orders is not None
    jobs = stage_matches(state, played_orders(state, turn.orders["teams"]))
    session.add_all(
        TurnMatch(
            turn_id=turn.id,
            seq=i,
            fixture_id=job.fixture_id,
            status=TurnMatchStatus.PENDING,
            attempts=0,
            job=json.dumps(job.to_json(), sort_keys=True, separators=(",", ":")),
        )
        for i, job in enumerate(jobs)
    )
    return len(jobs)


def _left(session: Session, turn_id: int) -> bool:
    """Whether a split stage has a match not yet done."""
    return (
        session.scalar(
            select(TurnMatch.id)
            .where(TurnMatch.turn_id == turn_id, TurnMatch.status != TurnMatchStatus.DONE)
            .limit(1)
        )
        is not None
    )


def _unfinished(session: Session, turn: Turn) -> tuple[int, int]:
    """(work rows, of them not yet done) of a frozen stage: (0, 0) when it is not split."""
    rows = session.execute(
        select(TurnMatch.status, func.count())
        .where(TurnMatch.turn_id == turn.id)
        .group_by(TurnMatch.status)
    ).all()
    total = sum(n for _, n in rows)
    return total, sum(n for st, n in rows if st != TurnMatchStatus.DONE)


def _assembled(session: Session, turn: Turn) -> tuple[SeasonState, TurnReport]:
    """A split stage put together from its stored outcomes; their rows then keep only who
    resolved what (the report and the season after hold the rest)."""
    state = frozen_state(turn)
    stage = next_stage(state)
    if stage is None:
        raise CompetitionError("the frozen season has no stage to resolve")
    results = session.scalars(
        select(TurnMatch.result).where(TurnMatch.turn_id == turn.id).order_by(TurnMatch.seq)
    ).all()
    outcomes = [MatchOutcome.from_text(r) for r in results if r is not None]
    if len(outcomes) != len(results):
        raise CompetitionError(f"{turn.stage_key}: a match of the split stage is unresolved")
    done = assemble(state, stage, outcomes)
    session.execute(
        update(TurnMatch).where(TurnMatch.turn_id == turn.id).values(job="", result=None)
    )
    return done


def resolve_frozen(
    session: Session, config: Config, clock: Clock, comp: Competition, turn: Turn
) -> tuple[TurnReport, Turn | None]:
    """Resolve a frozen stage: store the report (a new issue) and the season after, open the
    next stage (or finish the competition). Returns the report and the next stage. A split
    stage is assembled from its matches' stored outcomes (all must be done)."""
    total, _ = _unfinished(session, turn)
    state, report = _assembled(session, turn) if total else resolve_inputs(turn)
    comp.issue += 1
    following = open_stage(session, config, clock, comp, state, turn.deadline)
    report = replace(
        report,
        next_deadline=following.deadline.isoformat() if following else None,
        editorial=comp.editorial or "",
        rulings=tuple((turn.orders or {}).get("rulings", ())),
        played_at=clock.now().isoformat(timespec="seconds"),
    )
    turn.report = report.to_text()
    turn.state_after = comp.season = state.to_text()
    turn.issue = comp.issue
    turn.status = TurnStatus.DONE
    turn.resolved_at = clock.now()
    comp.editorial = None
    record_event(
        session,
        clock,
        "turn-resolved",
        comp,
        stage=turn.stage_key,
        issue=comp.issue,
        results=sum(1 for m in report.matches if m.seed is not None),
    )
    return report, following


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


# -- the scheduler's entry point --------------------------------------------------------------


class _Taken(Exception):
    """Another process holds this step's key."""


def _claim(session: Session, key: str, now: datetime) -> None:
    """Record the step's key; a second daemon fails here (the key is unique)."""
    try:
        with session.begin_nested():
            session.add(JobRun(key=key, ran_at=now))
            session.flush()
    except IntegrityError as exc:
        raise _Taken(key) from exc


def _resolve_step(
    s: Session, config: Config, clock: Clock, comp: Competition, turn: Turn, key: str
) -> None:
    """Step 2 under its key (the caller holds the competition's row lock)."""
    _claim(s, key, clock.now())
    split, _ = _unfinished(s, turn)
    report, following = resolve_frozen(s, config, clock, comp, turn)
    s.flush()
    if split:  # a large stage: its mails are queued by every worker, as its matches were
        mails = reports.turn_mails(s, config, comp, turn, report, following)
        turn_mail.split_mails(s, config, turn.id, mails)
    else:
        reports.queue_turn_mails(s, config, clock, comp, turn, report, following)


def tick(
    sessions: sessionmaker[Session],
    config: Config,
    clock: Clock,
    worker: str | None = None,
    *,
    matches: bool = True,
    budget: float | None = None,
    as_of: datetime | None = None,
) -> int:
    """One pass over every running competition: reminders, the pre-run check, and every due
    stage frozen and resolved; then (unless ``matches`` is false) the matches of split
    stages, batch by batch, as ``worker`` (this process by default). Returns how many steps
    and batches ran.

    With a ``budget`` (seconds), resolving stops once it is spent, and the rest is left for
    the next pass: the daemon reads and answers mail in between. Freezes, reminders and holds
    are never held back by it: they are quick, and they settle which orders are on time.

    ``as_of`` is when the daemon's pass began (now by default): what falls due is judged at
    that moment. A stage whose deadline passed during a pass is frozen by the next one, whose
    fetch comes after the deadline, so every mail that reached pbm in time is handled first."""
    with transaction(sessions) as s:
        ids = sorted(due_competitions(s, config, as_of or clock.now()))
    ran = 0
    for comp_id in ids:
        while _step(sessions, config, clock, comp_id, resolve=False, as_of=as_of):
            ran += 1
    end = None if budget is None else time.monotonic() + budget
    if ids:
        # Asked again: the freeze round settled the reminders of the rest (a stage opened
        # or moved, its past reminders skipped), and only what is left is worth a lock.
        with transaction(sessions) as s:
            ids = sorted(due_competitions(s, config, as_of or clock.now()))
    # One step per competition in turn, so a large competition's stages do not keep the
    # others' waiting behind them.
    busy = ids
    while busy:
        again = []
        for comp_id in busy:
            if end is not None and time.monotonic() >= end:
                return ran
            if _step(sessions, config, clock, comp_id, as_of=as_of):
                ran += 1
                again.append(comp_id)
        busy = again
    me = worker or default_worker_id()
    while matches and (end is None or time.monotonic() < end):
        if not work_matches(sessions, config, clock, me):
            break
        ran += 1
    while matches and (end is None or time.monotonic() < end):
        if not turn_mail.work_mails(sessions, config, clock, me):
            break
        ran += 1
    return ran


# -- a split stage's matches ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Claimed:
    """A match claimed by a worker: its row, its stage's row, and its MatchJob's JSON text."""

    row_id: int
    turn_id: int
    job: str


def work_matches(sessions: sessionmaker[Session], config: Config, clock: Clock, worker: str) -> int:
    """Claim a batch of split stages' matches (pending, or claimed under a lapsed lease),
    resolve them, store each result once, and assemble every stage whose last match this
    batch resolved. Returns how many matches were claimed (0: none was free)."""
    claimed = claim_matches(sessions, config, clock, worker)
    if claimed:
        store_results(sessions, config, clock, worker, claimed)
    return len(claimed)


def claim_matches(
    sessions: sessionmaker[Session], config: Config, clock: Clock, worker: str
) -> list[Claimed]:
    """Claim up to ``[turns] match_batch`` matches of one stage for ``worker``, under a lease,
    in one short transaction (the rows are skipped by other workers while it runs, then by
    the lease).

    The stage is the one whose next free match comes first by its place in the stage: when
    several stages are split at once their matches are taken in turn, so they finish together
    and different workers assemble them at the same time (taken stage by stage, each stage's
    assembly, serial, would wait for the one before it). A batch holds one stage's matches,
    so the last batches of two stages are two workers' claims."""
    now = clock.now()
    lease = timedelta(seconds=config.turns.match_lease_seconds)
    free = or_(
        TurnMatch.status == TurnMatchStatus.PENDING,
        and_(TurnMatch.status == TurnMatchStatus.CLAIMED, TurnMatch.lease_until < now),
    )
    with transaction(sessions) as s:
        turn_id = s.scalar(
            select(TurnMatch.turn_id)
            .where(free)
            .order_by(TurnMatch.seq, TurnMatch.turn_id)
            .limit(1)
            .with_for_update(skip_locked=True)  # another worker's claim in hand: skipped
        )
        if turn_id is None:
            return []
        rows = s.scalars(
            select(TurnMatch)
            .where(free, TurnMatch.turn_id == turn_id)
            .order_by(TurnMatch.seq)
            .limit(config.turns.match_batch)
            .with_for_update(skip_locked=True)
        ).all()
        for r in rows:
            r.status = TurnMatchStatus.CLAIMED
            r.claimed_by = worker
            r.lease_until = now + lease
            r.attempts += 1
        return [Claimed(r.id, r.turn_id, r.job) for r in rows]


def store_results(
    sessions: sessionmaker[Session],
    config: Config,
    clock: Clock,
    worker: str,
    claimed: list[Claimed],
) -> None:
    """Resolve claimed matches, store each result once, and assemble each stage they finish."""
    # Outside any transaction: the engine is pure, and the claim is the lease.
    results = []
    for c in claimed:
        try:
            text = resolve_match(MatchJob.from_json(json.loads(c.job))).to_text()
        except Exception:
            # A match that cannot be resolved (a bug) must not stop this worker or its batch:
            # it stays claimed, is retried after the lease, and pbm status shows it lapsed.
            log.exception("turns.match_failed", row=c.row_id, turn=c.turn_id)
            continue
        results.append((c.row_id, c.turn_id, text))
    with transaction(sessions) as s:
        for row_id, _, text in results:
            # Only if not done: a worker whose lease lapsed may finish after the one that
            # retook its matches; the result is the same (pure), and it is stored once.
            s.execute(
                update(TurnMatch)
                .where(TurnMatch.id == row_id, TurnMatch.status != TurnMatchStatus.DONE)
                .values(
                    status=TurnMatchStatus.DONE,
                    result=text,
                    resolved_by=worker,
                    resolved_at=clock.now(),
                    lease_until=None,
                )
            )
    for turn_id in dict.fromkeys(c.turn_id for c in claimed):
        _complete(sessions, config, clock, turn_id)


def _complete(sessions: sessionmaker[Session], config: Config, clock: Clock, turn_id: int) -> bool:
    """Assemble a split stage if all its matches are done and nobody has: the competition's
    row lock (waited for: it is held for one step) and the ``resolve`` key make it once."""
    try:
        with transaction(sessions) as s:
            # Counted before anything is locked or loaded: every batch but the stage's last
            # finds matches left, and the competition's row carries the whole season.
            if _left(s, turn_id):
                return False
            comp_id = s.scalar(select(Turn.competition_id).where(Turn.id == turn_id))
            comp = s.get(Competition, comp_id, with_for_update=True, populate_existing=True)
            turn = s.get(Turn, turn_id, populate_existing=True)
            if comp is None or turn is None or turn.status != TurnStatus.FROZEN:
                return False
            if comp.status != CompetitionStatus.RUNNING or _unfinished(s, turn)[1]:
                return False
            base = f"turn:{comp.code}:{turn.position}:{turn.generation}"
            _resolve_step(s, config, clock, comp, turn, f"{base}:resolve")
            return True
    except _Taken:
        return False
    except Exception:
        # As in _step: the stage stays frozen and every match done; the next pass resolves it.
        log.exception("turns.assemble_failed", turn=turn_id)
        return False


def _step(
    sessions: sessionmaker[Session],
    config: Config,
    clock: Clock,
    comp_id: int,
    *,
    resolve: bool = True,
    as_of: datetime | None = None,
) -> bool:
    """Do the next thing due for one competition in one transaction; False when nothing is
    (or, unless ``resolve``, when the next thing is resolving a frozen stage). What is due is
    judged ``as_of`` (see :func:`tick`)."""
    now = as_of if as_of is not None else clock.now()
    try:
        with transaction(sessions) as s:
            # SKIP LOCKED: another worker (a turn step, or a mail to it) holds this one.
            comp = s.get(Competition, comp_id, with_for_update=SKIP_LOCKED)
            if comp is None or comp.status != CompetitionStatus.RUNNING:
                return False
            turn = current_turn(s, comp)
            if turn is None:
                return False
            base = f"turn:{comp.code}:{turn.position}:{turn.generation}"
            if turn.status == TurnStatus.FROZEN:
                if not resolve:
                    return False
                _, unfinished = _unfinished(s, turn)
                if unfinished:
                    return False  # split: the workers' passes resolve its matches
                _resolve_step(s, config, clock, comp, turn, f"{base}:resolve")
                return True
            settings = settings_for(comp, config.turns)
            seats = active_seats(comp, now)
            sent = orders_sent(s, comp, turn)
            active_sent = [sent[seat.id] for seat in seats if seat.id in sent]
            all_in = max(active_sent) if seats and len(active_sent) == len(seats) else None
            deadline = turn.deadline
            if not is_due(deadline, settings, now, all_in):
                remind, skip = reminders_due(
                    turn.opened_at, deadline, settings, now, list(turn.reminders["sent"])
                )
                if not remind and not skip:
                    return False
                turn.reminders = {"sent": [*turn.reminders["sent"], *skip, *remind]}
                if remind:
                    missing = [seat for seat in seats if seat.id not in sent]
                    reports.queue_reminders(s, config, clock, comp, turn, missing)
                    record_event(
                        s, clock, "reminder", comp, stage=turn.stage_key, teams=len(missing)
                    )
                return bool(remind)
            dead = (
                s.scalar(
                    select(func.count()).where(
                        InboundMail.status == MailStatus.SHUNTED,
                        InboundMail.received_at >= turn.opened_at,
                    )
                )
                or 0
            )
            why = hold_reason(len(seats), len(active_sent), dead, settings, turn.skip_check)
            if why is not None:
                _claim(s, f"{base}:held:{turn.reminders.get('holds', 0)}", now)
                hold(s, clock, comp, why)
                reports.queue_hold_alert(s, config, clock, comp, turn, why)
                return True
            _claim(s, f"{base}:freeze", now)
            freeze(s, clock, comp, turn)
            managers.count_silence(s, config, clock, comp, turn, now)
            s.flush()
            split = split_frozen(s, config, comp, turn)
            if split:
                record_event(s, clock, "turn-split", comp, stage=turn.stage_key, matches=split)
            return True
    except _Taken:
        return False  # another process holds the key: it is running this step
    except DatabaseUnavailable:
        raise  # not this competition's fault: the daemon waits for the database
    except Exception:
        # Never let one competition stop the loop: the step rolled back, the GM sees it in
        # the log (and the stage stays due, so it is tried again on the next pass).
        log.exception("turns.step_failed", competition=comp_id)
        return False


def due_competitions(session: Session, config: Config, now: datetime) -> set[int]:
    """The running competitions with something that may be due ``now``: a frozen stage, a
    deadline (plus grace) passed, a reminder to send or to skip, or every team's orders in
    for the early run. Three queries for all of them, so that a pass with nothing due does
    not lock and read each competition in its own transaction (a pass over 250 cost 1.3 s,
    and a deadline's rush waited that long for each answer).

    It may name a competition whose step then finds nothing to do; it never leaves out one
    whose step would do something (``tests/pbm/test_due_competitions.py`` holds it to
    :func:`_step`'s own reading)."""
    rows = session.execute(
        select(
            Turn.id,
            Turn.competition_id,
            Turn.status,
            Turn.deadline,
            Turn.opened_at,
            Turn.reminders,
            Competition.settings,
            Competition.schedule,
        )
        .join(Competition, Competition.id == Turn.competition_id)
        .where(
            Turn.status.in_((TurnStatus.OPEN, TurnStatus.FROZEN)),
            Competition.status == CompetitionStatus.RUNNING,
        )
    ).all()
    due: set[int] = set()
    early: dict[int, tuple[int, timedelta]] = {}  # turn id -> (competition id, early delay)
    for turn_id, comp_id, status, deadline_at, opened_at, sent, over, schedule in rows:
        if status == TurnStatus.FROZEN:
            due.add(comp_id)
            continue
        settings = _settings(over, schedule, config.turns)
        deadline = deadline_at
        remind, skip = reminders_due(
            opened_at, deadline, settings, now, list((sent or {}).get("sent", []))
        )
        if now >= deadline + settings.grace or remind or skip:
            due.add(comp_id)
        else:
            early[turn_id] = (comp_id, settings.early)
    if not early:
        return due
    active = dict(
        session.execute(
            select(Seat.competition_id, func.count())
            .where(
                Seat.competition_id.in_({c for c, _ in early.values()}),
                Seat.retired.is_(False),
                _present(now),
            )
            .group_by(Seat.competition_id)
        ).all()
    )
    # Each open stage: how many active seats have sent orders since it opened, and the last.
    sent_in = session.execute(
        select(
            Turn.id,
            func.count(func.distinct(OrdersVersion.seat_id)),
            func.max(OrdersVersion.created_at),
        )
        .join(Seat, Seat.competition_id == Turn.competition_id)
        .join(OrdersVersion, OrdersVersion.seat_id == Seat.id)
        .where(
            Turn.id.in_(early),
            Seat.retired.is_(False),
            _present(now),
            OrdersVersion.created_at >= Turn.opened_at,
        )
        .group_by(Turn.id)
    ).all()
    for turn_id, teams, last in sent_in:
        comp_id, delay = early[turn_id]
        if teams and teams == active.get(comp_id) and now >= last + delay:
            due.add(comp_id)
    return due


def next_wakeup(session: Session, config: Config, now: datetime) -> datetime | None:
    """The next moment a stage may fall due or a reminder is to go (None: nothing pending)."""
    times: list[datetime] = []
    rows = session.execute(
        select(Turn, Competition)
        .join(Competition, Competition.id == Turn.competition_id)
        .where(
            Turn.status.in_((TurnStatus.OPEN, TurnStatus.FROZEN)),
            Competition.status == CompetitionStatus.RUNNING,
        )
    )
    for turn, comp in rows:
        settings = settings_for(comp, config.turns)
        deadline = turn.deadline
        if turn.status == TurnStatus.FROZEN:  # resolved on the next pass (again, if it failed)
            times.append(now + timedelta(seconds=5))
            continue
        # A moment already past (it passed during the last pass, which judged what was due
        # by when it began) is due now: the next pass, at once.
        soon = now + timedelta(milliseconds=1)
        times.append(max(deadline + settings.grace, soon))
        sent = list((turn.reminders or {}).get("sent", []))
        remind, skip = reminders_due(turn.opened_at, deadline, settings, now, sent)
        if remind or skip:
            times.append(soon)
        times += [deadline - r for r in settings.reminders if deadline - r > now]
        times.append(now + settings.early if settings.early.total_seconds() else now)
    pending = session.scalar(
        select(func.count()).where(TurnMatch.status == TurnMatchStatus.PENDING)
    )
    if pending:  # a split stage's matches wait for a worker: this one, at once
        times.append(now + timedelta(milliseconds=1))
    lapse = session.scalar(
        select(func.min(TurnMatch.lease_until)).where(TurnMatch.status == TurnMatchStatus.CLAIMED)
    )
    if lapse is not None:  # a claim's lease ends: its matches may need retaking
        times.append(lapse + timedelta(milliseconds=1))
    if session.scalar(select(func.count()).where(TurnMail.status == TurnMatchStatus.PENDING)):
        times.append(now + timedelta(milliseconds=1))  # an assembled stage's mails wait
    lapse = session.scalar(
        select(func.min(TurnMail.lease_until)).where(TurnMail.status == TurnMatchStatus.CLAIMED)
    )
    if lapse is not None:
        times.append(lapse + timedelta(milliseconds=1))
    future = [t for t in times if t > now]
    return min(future) if future else None


# -- the GM's controls ------------------------------------------------------------------------


def _turn_or_fail(session: Session, comp: Competition) -> Turn:
    turn = current_turn(session, comp)
    if turn is None:
        raise GameError(f"{comp.code} has no stage taking orders ({comp.status})")
    return turn


def extend(
    session: Session, clock: Clock, comp: Competition, by: timedelta | None, to: datetime | None
) -> Turn:
    """Move the current stage's deadline later (``by``) or to ``to``; it must be in the
    future. Reminders not yet sent go at their offsets before the new deadline."""
    turn = _turn_or_fail(session, comp)
    if turn.status != TurnStatus.OPEN:
        raise GameError(f"{comp.code} {turn.stage_key} is being resolved: too late to extend")
    new = utc(to) if to is not None else turn.deadline + (by or timedelta(0))
    if new <= clock.now():
        raise GameError(f"the new deadline {new:%Y-%m-%d %H:%M} UTC has already passed")
    old = turn.deadline
    turn.deadline = new
    turn.reminders = {**turn.reminders, "sent": []}
    record_event(
        session,
        clock,
        "deadline-extended",
        comp,
        stage=turn.stage_key,
        old=old.isoformat(),
        new=new.isoformat(),
    )
    return turn


def run_now(session: Session, clock: Clock, comp: Competition) -> Turn | None:
    """The GM's PROCESS: the phase that is next runs at the next pass. While teams join, that
    is the close of joining and the draw (None is returned); after, the current stage, the
    pre-run check waived."""
    if comp.status in (CompetitionStatus.OPEN, CompetitionStatus.FULL):
        comp.naming_deadline = min(comp.naming_deadline, clock.now())
        record_event(session, clock, "run-now", comp, stage="draw")
        return None
    if comp.status == CompetitionStatus.HELD:
        comp.status = CompetitionStatus.RUNNING
        comp.hold_reason = None
    if comp.status != CompetitionStatus.RUNNING:
        raise GameError(f"{comp.code} is {comp.status}: there is no turn to run")
    turn = _turn_or_fail(session, comp)
    if turn.status == TurnStatus.OPEN:
        turn.deadline = min(turn.deadline, clock.now())
        turn.skip_check = True
    record_event(session, clock, "run-now", comp, stage=turn.stage_key)
    return turn


def hold(session: Session, clock: Clock, comp: Competition, reason: str) -> None:
    """Hold the competition: no stage runs until :func:`resume`."""
    if comp.status not in (CompetitionStatus.RUNNING, CompetitionStatus.HELD):
        raise GameError(f"{comp.code} is {comp.status}: only a running competition is held")
    comp.status = CompetitionStatus.HELD
    comp.hold_reason = reason[:500]
    turn = current_turn(session, comp)
    if turn is not None:
        turn.reminders = {**turn.reminders, "holds": int(turn.reminders.get("holds", 0)) + 1}
    record_event(session, clock, "held", comp, reason=reason[:200])


def resume(session: Session, clock: Clock, comp: Competition) -> Turn | None:
    """Resume a held competition; the current stage runs without the pre-run check."""
    if comp.status != CompetitionStatus.HELD:
        raise GameError(f"{comp.code} is {comp.status}, not held")
    comp.status = CompetitionStatus.RUNNING
    comp.hold_reason = None
    turn = current_turn(session, comp)
    if turn is not None:
        turn.skip_check = True
    record_event(session, clock, "resumed", comp)
    return turn


@dataclass(frozen=True, slots=True)
class Rerun:
    """What a rerun found: the stage, and whether the report and season came out the same."""

    stage_key: str
    issue: int | None
    same_report: bool
    same_state: bool

    @property
    def identical(self) -> bool:
        """Byte for byte."""
        return self.same_report and self.same_state


def rerun(session: Session, comp: Competition, stage_key: str | None = None) -> Rerun:
    """Resolve a done stage again from its frozen inputs and compare with what was stored."""
    q = select(Turn).where(Turn.competition_id == comp.id, Turn.status == TurnStatus.DONE)
    if stage_key is not None:
        q = q.where(Turn.stage_key == stage_key)
    turn = session.scalars(q.order_by(Turn.position.desc(), Turn.generation.desc())).first()
    if turn is None or turn.report is None:
        raise GameError(f"{comp.code} has no resolved stage {stage_key or ''}".strip())
    state, report = resolve_inputs(turn)
    stored = TurnReport.from_text(turn.report)
    report = replace(
        report,
        next_deadline=stored.next_deadline,
        editorial=stored.editorial,
        rulings=stored.rulings,
        played_at=stored.played_at,
    )
    return Rerun(
        turn.stage_key,
        turn.issue,
        report.to_text() == turn.report,
        state.to_text() == turn.state_after,
    )


def rollback(
    session: Session, config: Config, clock: Clock, comp: Competition, *, new_seed: bool = False
) -> Turn:
    """Undo the latest resolved stage and reopen its orders (a new seed only if asked): the
    stage opened after it is dropped, the season returns to before it, and the reopened stage
    gets a deadline from the schedule. Returns the reopened stage."""
    done = latest_done(session, comp)
    if done is None or done.state_before is None:
        raise GameError(f"{comp.code} has no resolved stage to roll back")
    nxt = current_turn(session, comp)
    if nxt is not None:
        if nxt.status == TurnStatus.FROZEN:
            raise GameError(f"{comp.code} {nxt.stage_key} is being resolved: try again shortly")
        nxt.status = TurnStatus.ROLLED_BACK
        nxt.note = f"dropped by the rollback of {done.stage_key}"
    done.status = TurnStatus.ROLLED_BACK
    done.note = "rolled back by the GM" + (" (new seed)" if new_seed else "")
    state = SeasonState.from_text(done.state_before)
    if new_seed:
        state = reseed(state, f"{comp.seed}:reseed:{_secrets.token_hex(8)}")
    comp.season = state.to_text()
    comp.status = CompetitionStatus.RUNNING
    comp.hold_reason = None
    reopened = open_stage(session, config, clock, comp, state, clock.now())
    assert reopened is not None
    record_event(
        session,
        clock,
        "rolled-back",
        comp,
        stage=done.stage_key,
        issue=done.issue,
        new_seed=new_seed,
    )
    return reopened
