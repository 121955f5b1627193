"""The GM's controls of a competition's turns: extend a deadline, run a stage now, hold and
resume, rerun a stage from its frozen inputs, roll back to an earlier stage.
"""

from __future__ import annotations

import secrets as _secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.flungo.turn import SeasonState, TurnReport
from pbm.core.clock import Clock, utc
from pbm.core.config import Config
from pbm.core.errors import GameError
from pbm.db.models import Competition, CompetitionStatus, Turn, TurnStatus
from pbm.games.flungo.competitions import record_event
from pbm.games.flungo.turns.lifecycle import (
    current_turn,
    latest_done,
    open_stage,
    reseed,
    resolve_inputs,
)

__all__ = ["Rerun", "extend", "hold", "rerun", "resume", "rollback", "run_now"]


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
