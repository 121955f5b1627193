"""The scheduler's budget: a pass freezes every stage that is due, however many, but resolves
stages only for its budget's seconds, so the daemon reads and answers mail in between."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.db.models import Competition, Turn, TurnStatus
from pbm.db.session import transaction
from pbm.games.flungo import turns
from pbm.games.flungo.fixtures import start_drawn_mini
from tests.pbm.conftest import make_config

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
CODES = ("ONE", "TWO", "THREE")


def _running(app: App, code: str) -> None:
    """A four-team mini tournament with named sides, drawn: its selection stage open."""
    with transaction(app.sessions) as s:
        start_drawn_mini(s, app.config, app.clock, code, settings={"reminders": [], "early": 0})


def _statuses(app: App) -> dict[str, list[TurnStatus]]:
    with transaction(app.sessions) as s:
        rows = s.execute(
            select(Competition.code, Turn.status)
            .join(Turn, Turn.competition_id == Competition.id)
            .order_by(Competition.code, Turn.position)
        ).all()
    out: dict[str, list[TurnStatus]] = {}
    for code, status in rows:
        out.setdefault(code, []).append(status)
    return out


def test_a_spent_budget_freezes_every_due_stage_and_resolves_the_rest_next_pass(
    tmp_path: Path,
) -> None:
    """Three competitions fall due at once. With no budget left, one pass freezes all three
    (the orders on time are settled at the deadline) and resolves none; the next, unbounded
    pass resolves all three and opens their next stages, which are not yet due."""
    clock = FixedClock(START)
    app = App.from_config(
        make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), clock, upgrade=True
    )
    for code in CODES:
        _running(app, code)
    clock.advance(timedelta(hours=1, seconds=1))
    assert turns.tick(app.sessions, app.config, clock, budget=0.0) == 3
    assert {c: s[0] for c, s in _statuses(app).items()} == dict.fromkeys(CODES, TurnStatus.FROZEN)
    assert turns.tick(app.sessions, app.config, clock, budget=0.0) == 0  # nothing new to freeze
    assert turns.tick(app.sessions, app.config, clock) == 3
    after = _statuses(app)
    assert all(s[0] == TurnStatus.DONE and s[1] == TurnStatus.OPEN for s in after.values())
