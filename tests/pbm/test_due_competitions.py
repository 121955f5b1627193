"""The scheduler's first question, asked of all competitions at once: which may have something
due now. It must never leave out a competition whose step would act (a missed freeze plays
defaults for orders that were on time), and it should leave out the quiet ones (each costs a
transaction of its own, and a deadline's rush waits behind them)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock, utc
from pbm.db.models import Competition, CompetitionStatus, Seat, TurnStatus
from pbm.db.session import transaction
from pbm.games.flungo import turns
from pbm.games.flungo.fixtures import start_drawn_mini
from pbm.games.flungo.standing import store_orders
from tests.pbm.conftest import make_config

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

#: Each competition's settings: how its stage falls due (schedule every hour from START).
SETTINGS: dict[str, dict[str, Any]] = {
    "QUIET": {"reminders": [], "early": 0},  # only its deadline
    "REMIND": {"reminders": [1800], "early": 0},  # a reminder half an hour before
    "EARLY": {"reminders": [], "early": 0},  # runs once all orders are in
    "DELAY": {"reminders": [], "early": 600},  # ... ten minutes after the last
    "RETIRED": {"reminders": [], "early": 0},  # all in but a retired seat's
    "GRACE": {"reminders": [], "early": 10**6, "grace": 900},  # deadline + 15 minutes
}


def _start(app: App, code: str, settings: Mapping[str, Any]) -> None:
    with transaction(app.sessions) as s:
        start_drawn_mini(s, app.config, app.clock, code, settings=settings)


def _orders(app: App, code: str, numbers: tuple[int, ...]) -> None:
    with transaction(app.sessions) as s:
        comp = s.scalars(select(Competition).where(Competition.code == code)).one()
        for seat in comp.seats:
            if seat.number in numbers:
                store_orders(s, app.clock, seat, "toss: bat")


def _retire(app: App, code: str, number: int) -> None:
    with transaction(app.sessions) as s:
        seat = s.scalars(
            select(Seat).join(Competition).where(Competition.code == code, Seat.number == number)
        ).one()
        seat.retired = True


def _acting(app: App, now: datetime) -> set[str]:
    """The oracle: the competitions whose step would act now, read one by one the way
    ``turns.sweep._step`` reads them (its own helpers, no effects)."""
    out = set()
    with transaction(app.sessions) as s:
        for comp in s.scalars(
            select(Competition).where(Competition.status == CompetitionStatus.RUNNING)
        ):
            turn = turns.current_turn(s, comp)
            if turn is None:
                continue
            if turn.status == TurnStatus.FROZEN:
                out.add(comp.code)
                continue
            settings = turns.settings_for(comp, app.config.turns)
            seats = turns.active_seats(comp)
            sent = turns.orders_sent(s, comp, turn)
            active = [sent[seat.id] for seat in seats if seat.id in sent]
            all_in = max(active) if seats and len(active) == len(seats) else None
            deadline = utc(turn.deadline)
            remind, skip = turns.reminders_due(
                utc(turn.opened_at), deadline, settings, now, list(turn.reminders["sent"])
            )
            if turns.is_due(deadline, settings, now, all_in) or remind or skip:
                out.add(comp.code)
    return out


def _due(app: App, now: datetime) -> set[str]:
    with transaction(app.sessions) as s:
        ids = turns.due_competitions(s, app.config, now)
        return set(s.scalars(select(Competition.code).where(Competition.id.in_(ids))))


def test_the_competitions_due_are_exactly_those_whose_step_would_act(
    db_url: str, tmp_path: Path
) -> None:
    """Through a stage's life (quiet, a reminder, orders coming in, all in, a delay, a
    retired seat, the deadline, a grace period, frozen stages): at each moment the one query's
    answer is what reading each competition finds, and the scheduler's pass acts on it. On
    SQLite and PostgreSQL (the query's aggregate compares stored times)."""
    clock = FixedClock(START)
    app = App.from_config(make_config(db_url, tmp_path), clock, upgrade=True)
    for code, settings in SETTINGS.items():
        _start(app, code, settings)

    def moment(expected: set[str], budget: float | None = None) -> None:
        now = clock.now()
        assert _acting(app, now) == expected, now
        assert _due(app, now) == expected, now
        turns.tick(app.sessions, app.config, clock, matches=False, budget=budget)

    moment(set())  # just opened: nothing due anywhere
    clock.advance(timedelta(minutes=10))
    _orders(app, "EARLY", (1, 2, 3))
    _orders(app, "DELAY", (1, 2, 3, 4))
    _orders(app, "RETIRED", (1, 2, 3))
    moment(set())  # EARLY lacks one team; DELAY waits ten minutes; RETIRED's 4th is active
    _retire(app, "RETIRED", 4)
    _orders(app, "EARLY", (4,))
    moment({"EARLY", "RETIRED"}, budget=0.0)  # all in: run now (early 0); frozen, no more
    moment({"EARLY", "RETIRED"})  # frozen: this pass resolves them and opens the next stage
    moment(set())
    clock.advance(timedelta(minutes=10))
    moment({"DELAY"})  # ten minutes after its last orders
    clock.advance(timedelta(minutes=11))
    moment({"REMIND"})  # 31 minutes in: half an hour before its deadline
    moment(set())  # the reminder went: nothing more until the deadline
    clock.advance(timedelta(minutes=30))
    due = {"QUIET", "REMIND"}  # their deadline; GRACE's is 15 minutes later
    assert _acting(app, clock.now()) == _due(app, clock.now()) == due
    turns.tick(app.sessions, app.config, clock, matches=False)
    assert _due(app, clock.now()) <= due
    clock.advance(timedelta(minutes=16))
    assert "GRACE" in _acting(app, clock.now()) and "GRACE" in _due(app, clock.now())
