"""Where the zine's data comes from: one :class:`TurnReport` per resolved turn of a competition.

The shapes are the engine's (``engine.flungo.turn``), re-exported. The reports are the turn
pipeline's: each resolved stage is a row of ``turns`` (status ``done``) holding its report
JSON and its issue number (a rolled-back stage is not done, so its issue is not read).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.flungo.events import MatchEvent
from engine.flungo.turn import MatchTurn, Stage, TurnReport

__all__ = [
    "MatchTurn",
    "Stage",
    "TurnReport",
    "competition_codes",
    "load_reports",
    "match_events",
    "store_report",
]


def match_events(turn: MatchTurn) -> tuple[MatchEvent, ...]:
    """The non-ball events of a match turn."""
    return tuple(e for e in turn.events if isinstance(e, MatchEvent))


def load_reports(session: Session, code: str) -> list[TurnReport]:
    """Every resolved turn report of competition ``code``, in issue order."""
    from pbm.db.models import Competition, Turn, TurnStatus

    rows = session.scalars(
        select(Turn.report)
        .join(Competition, Competition.id == Turn.competition_id)
        .where(
            Competition.code == code,
            Turn.status == TurnStatus.DONE,
            Turn.report.is_not(None),
        )
        .order_by(Turn.issue, Turn.position)
    )
    return [TurnReport.from_text(r) for r in rows if r]


def competition_codes(session: Session) -> list[str]:
    """The codes of every competition with at least one resolved turn, oldest first."""
    from pbm.db.models import Competition, Turn, TurnStatus

    rows = session.execute(
        select(Competition.code, func.min(Competition.id))
        .join(Turn, Turn.competition_id == Competition.id)
        .where(Turn.status == TurnStatus.DONE, Turn.report.is_not(None))
        .group_by(Competition.code)
        .order_by(func.min(Competition.id))
    ).all()
    return [code for code, _ in rows]


def store_report(session: Session, code: str, report: TurnReport) -> None:
    """Store ``report`` as competition ``code``'s next resolved stage (the demo and tests;
    the turn pipeline writes its own rows)."""
    from pbm.db.models import Competition, Turn, TurnStatus

    comp = session.scalars(select(Competition).where(Competition.code == code)).one()
    issue = (
        session.scalar(select(func.max(Turn.issue)).where(Turn.competition_id == comp.id)) or 0
    ) + 1
    when = datetime(2000, 1, 1, tzinfo=UTC)
    session.add(
        Turn(
            competition_id=comp.id,
            position=issue - 1,
            generation=0,
            stage_key=report.stage.key,
            round=report.stage.round,
            turn=report.stage.turn,
            selection=report.stage.selection,
            status=TurnStatus.DONE,
            opened_at=when,
            deadline=when,
            resolved_at=when,
            report=report.to_text(),
            issue=issue,
            reminders={"sent": []},
        )
    )
    session.flush()
