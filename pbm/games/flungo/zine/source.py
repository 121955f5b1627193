"""Where the zine's data comes from: one :class:`TurnReport` per resolved turn of a competition.

The shapes are the engine's (``engine.flungo.turn``), re-exported. The reports are the turn
pipeline's: each resolved stage is a row of ``turns`` (status ``done``) holding its report
JSON and its issue number (a rolled-back stage is not done, so its issue is not read).
Before them comes the draw's own report, issue 0 (the teams, before a ball is bowled), kept in
the competition's ``state`` under :data:`TEAMS_ISSUE` since no stage resolved it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.flungo.events import MatchEvent
from engine.flungo.turn import MatchTurn, Stage, TurnReport

__all__ = [
    "TEAMS_ISSUE",
    "MatchTurn",
    "Stage",
    "TurnReport",
    "competition_codes",
    "load_reports",
    "match_events",
    "store_report",
]


#: The key of the draw's report (issue 0) in ``Competition.state``.
TEAMS_ISSUE = "teams_issue"


def teams_report(state: dict[str, object] | None) -> TurnReport | None:
    """The draw's report (issue 0) kept in a competition's ``state``, if it has one."""
    text = (state or {}).get(TEAMS_ISSUE)
    return TurnReport.from_text(text) if isinstance(text, str) else None


def match_events(turn: MatchTurn) -> tuple[MatchEvent, ...]:
    """The non-ball events of a match turn."""
    return tuple(e for e in turn.events if isinstance(e, MatchEvent))


def load_reports(session: Session, code: str) -> list[TurnReport]:
    """Every resolved turn report of competition ``code``, in issue order, the draw's first
    (issue 0) when it has one."""
    from pbm.db.models import Competition, Turn, TurnStatus

    first = teams_report(session.scalar(select(Competition.state).where(Competition.code == code)))
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
    return [*([first] if first else []), *(TurnReport.from_text(r) for r in rows if r)]


def competition_codes(session: Session) -> list[str]:
    """The codes of every competition with an issue (the draw's, or a resolved turn), oldest
    first."""
    from pbm.db.models import Competition, Turn, TurnStatus

    done = set(
        session.scalars(
            select(Turn.competition_id).where(
                Turn.status == TurnStatus.DONE, Turn.report.is_not(None)
            )
        )
    )
    rows = session.execute(
        select(Competition.id, Competition.code, Competition.state).order_by(Competition.id)
    ).all()
    return [code for cid, code, state in rows if cid in done or teams_report(state) is not None]


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
