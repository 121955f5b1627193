"""Where the zine's data comes from: one :class:`TurnReport` per resolved turn of a competition.

The shapes are the lead's ``engine.flungo.turn`` values, re-exported. Every read of the
database goes through :func:`load_reports`; until the turn pipeline has its own table the
reports are kept, as JSON, in the competition's ``state["turn_reports"]`` list
(:func:`store_report` appends one there). On merge, only these functions change.
"""

from __future__ import annotations

from sqlalchemy import select
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

REPORTS_KEY = "turn_reports"


def match_events(turn: MatchTurn) -> tuple[MatchEvent, ...]:
    """The non-ball events of a match turn."""
    return tuple(e for e in turn.events if isinstance(e, MatchEvent))


def load_reports(session: Session, code: str) -> list[TurnReport]:
    """Every stored turn report of competition ``code``, in the order the turns were resolved.

    The ONE place the zine reads turn data from the database (the lead adapts it on merge to
    the turn pipeline's own table).
    """
    from pbm.db.models import Competition as CompetitionRow

    row = session.scalars(select(CompetitionRow).where(CompetitionRow.code == code)).one()
    return [TurnReport.from_json(r) for r in (row.state or {}).get(REPORTS_KEY, [])]


def competition_codes(session: Session) -> list[str]:
    """The codes of every competition with at least one turn report, oldest first."""
    from pbm.db.models import Competition as CompetitionRow

    rows = session.scalars(select(CompetitionRow).order_by(CompetitionRow.id)).all()
    return [r.code for r in rows if (r.state or {}).get(REPORTS_KEY)]


def store_report(session: Session, code: str, report: TurnReport) -> None:
    """Append ``report`` to competition ``code``'s stored reports (tests, demo, until merge)."""
    from pbm.db.models import Competition as CompetitionRow

    row = session.scalars(select(CompetitionRow).where(CompetitionRow.code == code)).one()
    state = dict(row.state or {})
    state[REPORTS_KEY] = [*state.get(REPORTS_KEY, []), report.to_json()]
    row.state = state
