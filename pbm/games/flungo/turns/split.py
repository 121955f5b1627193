"""Resolving a frozen stage (step 2, under its key), and the split-stage workers: a large
stage's matches claimed a batch at a time (``FOR UPDATE SKIP LOCKED``, then a lease),
resolved outside any transaction, stored once, and assembled by whoever stores the last.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import structlog
from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from engine.flungo.competition import fixtures_for_round
from engine.flungo.summary import CompetitionError
from engine.flungo.turn import (
    MatchJob,
    MatchOutcome,
    SeasonState,
    TurnReport,
    assemble,
    next_stage,
    resolve_match,
    stage_matches,
)
from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.db.models import (
    Competition,
    CompetitionStatus,
    JobRun,
    Turn,
    TurnMatch,
    TurnMatchStatus,
    TurnStatus,
)
from pbm.db.session import transaction
from pbm.games.flungo import reports, turn_mail
from pbm.games.flungo.competitions import record_event
from pbm.games.flungo.turns.lifecycle import frozen_state, open_stage, played_orders, resolve_inputs

__all__ = [
    "Claimed",
    "claim_matches",
    "resolve_frozen",
    "split_frozen",
    "stage_size",
    "store_results",
    "work_matches",
]

log = structlog.get_logger("pbm.turns")


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
    jobs = stage_matches(state, played_orders(state, turn.orders["teams"], session))
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
    state, report = _assembled(session, turn) if total else resolve_inputs(turn, session)
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
