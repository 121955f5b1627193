"""The pass that spans a deadline: orders that reach pbm before the deadline, while a pass is
answering other mail, are played, not frozen out. Turns fall due by the moment a pass began,
so the stage is frozen by the next pass, after it has handled that mail."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.mail.ports import Envelope
from pbm.testing import RecordingSender, make_eml
from tests.pbm.conftest import make_config
from tests.pbm.season import MINI_TEAMS, START, Season, StoreDoor, new_competition


class _DeadlineDuringPass(RecordingSender):
    """Sends as a RecordingSender; on a chosen send (the answer to a mail handled just before
    the deadline), a second team's orders reach the door, and then the clock passes the
    deadline, all before the pass's scheduler runs."""

    def __init__(self) -> None:
        super().__init__()
        self.arm: tuple[Season, bytes] | None = None

    def send(self, msg: EmailMessage, envelope: Envelope | None = None) -> None:
        super().send(msg, envelope)
        if self.arm is not None:
            season, raw = self.arm
            self.arm = None
            season.post.send(raw)  # stored before the deadline, after this pass's fetch
            season.clock.set(season.deadline() + timedelta(seconds=1))


def test_orders_stored_before_the_deadline_during_a_pass_are_played(tmp_path: Path) -> None:
    """Two teams send orders a second before the deadline. The second mail arrives while the
    pass answers the first, and the deadline passes before the pass's scheduler runs: that
    pass freezes nothing; the next one handles the second mail and then freezes the stage,
    with both teams' orders in it."""
    clock = FixedClock(START)
    app = App.from_config(
        make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), clock, upgrade=True
    )
    sender = _DeadlineDuringPass()
    daemon = Daemon(app, sender)
    season = Season(daemon, StoreDoor(daemon, sender), clock, "EDGE")
    settings = {"naming_after_full": 600, "early": 10**6, "reminders": [], "hold_share": 1.0}
    new_competition(daemon, clock, code="EDGE", kind="mini", teams=4, settings=settings)
    for address, team, prefix in MINI_TEAMS:
        season.join(address, team, prefix)
    clock.advance(timedelta(minutes=10))
    season.pump()  # the draw: the selection stage opens
    assert season.show()["turn"]["key"] == "R1-select"
    (a1, _, p1), (a2, _, p2) = MINI_TEAMS[0], MINI_TEAMS[1]
    clock.set(season.deadline() - timedelta(seconds=1))
    late = make_eml(
        f"SECRET {season.secrets[a2]}\ncaptain: {p2} 3\n", sender=a2, subject="[EDGE] orders"
    )
    sender.arm = (season, late)
    season.post.send(
        make_eml(
            f"SECRET {season.secrets[a1]}\ncaptain: {p1} 2\n", sender=a1, subject="[EDGE] orders"
        )
    )
    season.pump()  # answers a1; a2's mail arrives; the deadline passes
    assert season.show()["turn"]["key"] == "R1-select"
    assert season.show()["turn"]["status"] == "open"  # not frozen by the pass that spanned it
    season.pump()  # handles a2's mail, then freezes and resolves the stage
    frozen = _frozen_orders(app)
    assert frozen is not None
    assert f"captain: {p1} 2" in (frozen["teams"][MINI_TEAMS[0][1]] or "")
    assert f"captain: {p2} 3" in (frozen["teams"][MINI_TEAMS[1][1]] or "")
    assert sorted(frozen["sent"]) == sorted([MINI_TEAMS[0][1], MINI_TEAMS[1][1]])


def _frozen_orders(app: App) -> dict[str, object] | None:
    from sqlalchemy import select

    from pbm.db.models import Turn
    from pbm.db.session import transaction

    with transaction(app.sessions) as s:
        orders = s.scalars(select(Turn.orders).where(Turn.stage_key == "R1-select")).first()
        return dict(orders) if orders else None
