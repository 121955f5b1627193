"""The scheduler's entry point, :func:`tick`: every running competition's due step (reminders,
the pre-run check, freeze, resolve), committed step by step, within a budget; the SQL mirror
of the due test (:func:`due_competitions`) that picks the competitions to look at; and the
next moment one may fall due (:func:`next_wakeup`).
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import structlog
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import DatabaseUnavailable
from pbm.db.models import (
    Competition,
    CompetitionStatus,
    InboundMail,
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
from pbm.games.flungo.turns.gm import hold
from pbm.games.flungo.turns.lifecycle import (
    _present,
    active_seats,
    current_turn,
    freeze,
    orders_sent,
)
from pbm.games.flungo.turns.policy import (
    _settings,
    hold_reason,
    is_due,
    reminders_due,
    settings_for,
)
from pbm.games.flungo.turns.split import (
    _claim,
    _resolve_step,
    _Taken,
    _unfinished,
    split_frozen,
    work_matches,
)
from pbm.ops.workers import default_worker_id

__all__ = ["due_competitions", "next_wakeup", "tick"]

log = structlog.get_logger("pbm.turns")


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
    not lock and read each competition in its own transaction (a deadline's rush waited
    for such a pass before each answer).

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
