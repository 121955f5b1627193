"""Hit for Six's services: the one-file ground, Test by Post and The Averages (storage-facing).

:class:`HitForSix` is the game as the machinery sees it (:class:`pbm.games.Game`); its modules
are imported when it is asked, so naming the game costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from pbm.core.clock import Clock
    from pbm.core.config import Config
    from pbm.games import Job
    from pbm.games.hitforsix.schedule import OverJob
    from pbm.inbound.commands import Command, Handler

__all__ = ["HitForSix"]


class HitForSix:
    """Hit for Six by mail: solo deals, the Daily XI, challenges, Test by Post, The Averages."""

    name = "hitforsix"
    #: Test by Post's mails carry a seat's ticket, kept in the game's own seats.
    secret_kinds = frozenset({"h6"})
    #: Hit for Six is its own game (the laws' own name), not Cosmic Celebrity Cricket's.
    sender_name: str | None = "Hit for Six"
    help_kind = "h6-help"

    def commands(self) -> tuple[Command, ...]:
        """DEAL, DAILY, CHALLENGE, the answer to a deal, TEST and AVERAGES."""
        from pbm.games.hitforsix import mail
        from pbm.inbound.commands import commands_in

        return commands_in(mail)

    def fallback(self) -> Handler | None:
        """None: a Hit for Six mail always names what it answers (its game line)."""
        return None

    def due(self, session: Session, config: Config, now: datetime) -> list[OverJob]:
        """Test by Post's due reminders and over deadlines."""
        from pbm.games.hitforsix import schedule

        return schedule.due(session, now)

    def next_wake(self, session: Session, config: Config, now: datetime) -> datetime | None:
        """Test by Post's next reminder or deadline."""
        from pbm.games.hitforsix import schedule

        return schedule.next_due(session, now)

    def run(self, job: Job, session: Session, config: Config, clock: Clock) -> None:
        """Play the over's reminder or deadline (the match knows which is due)."""
        from pbm.games.hitforsix import schedule

        assert isinstance(job, schedule.OverReminder | schedule.OverDeadline), job
        schedule.run(session, config, clock, job.wire)

    def sweep(
        self,
        sessions: sessionmaker[Session],
        config: Config,
        clock: Clock,
        *,
        worker: str | None,
        budget: float | None,
        as_of: datetime | None,
    ) -> int:
        """Nothing: every step of Test by Post is a job."""
        return 0

    def after_sweep(self, session: Session, now: datetime) -> list[OverJob]:
        """Nothing."""
        return []

    def open_competitions(self, session: Session) -> list[dict[str, Any]]:
        """None: Hit for Six's matches are opened by mail, not joined from a list."""
        return []

    def check_config(self, config: Config) -> None:
        """Nothing to check: the game has no section of its own."""

    def known_addresses(self, session: Session) -> Iterable[str]:
        """Test by Post seats' addresses."""
        from sqlalchemy import select

        from pbm.games.hitforsix.models import H6Seat

        return [a for a in session.scalars(select(H6Seat.address).distinct()) if a]

    def plays(self, session: Session, address: str) -> bool:
        """Whether ``address`` holds a Test by Post seat (a solo deal keeps nothing)."""
        from sqlalchemy import func, select

        from pbm.games.hitforsix.models import H6Seat

        found = session.scalar(
            select(H6Seat.id).where(func.lower(H6Seat.address) == address.lower()).limit(1)
        )
        return found is not None

    def secret_hash(self, session: Session, kind: str, seat_id: int) -> str | None:
        """The stored hash of a Test by Post seat's ticket."""
        from sqlalchemy import select

        from pbm.games.hitforsix.models import H6Seat

        return session.scalar(select(H6Seat.ticket_hash).where(H6Seat.id == seat_id))

    def register_tables(self) -> None:
        """Test by Post's and The Averages' tables join ``Base.metadata``."""
        import pbm.games.hitforsix.models  # noqa: F401

    def warm_up(self) -> None:
        """Nothing to load ahead."""

    def __repr__(self) -> str:
        return "HitForSix()"
