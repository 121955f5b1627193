"""Cosmic Celebrity Cricket (Flungo) by mail: competitions, naming, standing orders, turns.

:class:`Flungo` is the game as the machinery sees it (:class:`pbm.games.Game`); its modules
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
    from pbm.games.flungo.jobs import NamingDeadline, ZineIssue
    from pbm.inbound.commands import Command, Handler

__all__ = ["Flungo"]


class Flungo:
    """Flungo Cricket's competitions: joining and naming, standing orders, turns, the zine."""

    name = "flungo"
    secret_kinds: frozenset[str] = frozenset()  # a seat's secret is the shared seats' table's
    sender_name: str | None = None  # the server's own name: pbm was Flungo's first
    help_kind = "help"

    def commands(self) -> tuple[Command, ...]:
        """The players' commands, the questions, the GM's controls and the managers'."""
        from pbm.games.flungo import ask, gm, mail, managers
        from pbm.inbound.commands import commands_in

        return (*commands_in(mail, ask), *gm.COMMANDS, *commands_in(managers))

    def fallback(self) -> Handler:
        """A seat's mail with no command word is its naming and orders."""
        from pbm.games.flungo.mail import orders_mail

        return orders_mail

    def due(self, session: Session, config: Config, now: datetime) -> list[NamingDeadline]:
        """Every naming deadline that has passed."""
        from pbm.games.flungo.jobs import competition_dates, naming_due

        return naming_due(now, competition_dates(session))

    def next_wake(self, session: Session, config: Config, now: datetime) -> datetime | None:
        """The next naming deadline, stage deadline or reminder."""
        from pbm.games.flungo import turns
        from pbm.games.flungo.jobs import competition_dates, naming_wake

        times = (
            naming_wake(now, competition_dates(session)),
            turns.next_wakeup(session, config, now),
        )
        return min((t for t in times if t is not None), default=None)

    def run(self, job: Job, session: Session, config: Config, clock: Clock) -> None:
        """Run one of the jobs :meth:`due` or :meth:`after_sweep` made."""
        from pbm.games.flungo import jobs

        assert isinstance(job, jobs.NamingDeadline | jobs.ZineIssue), job
        jobs.run(job, session, config, clock)

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
        """Every running competition's turns (:func:`pbm.games.flungo.turns.tick`)."""
        from pbm.games.flungo import turns

        return turns.tick(sessions, config, clock, worker, budget=budget, as_of=as_of)

    def after_sweep(self, session: Session, now: datetime) -> list[ZineIssue]:
        """The zine's issue of every resolved stage not mailed yet."""
        from pbm.games.flungo.jobs import ZineIssue
        from pbm.games.flungo.zine.deliver import due_issues

        return [ZineIssue(code, number) for code, number in due_issues(session, set())]

    def open_competitions(self, session: Session) -> list[dict[str, Any]]:
        """Competitions taking teams, by code."""
        from sqlalchemy import select

        from pbm.db.models import Competition, CompetitionStatus
        from pbm.games.flungo.views import competition_ctx

        comps = session.scalars(
            select(Competition)
            .where(Competition.status == CompetitionStatus.OPEN)
            .order_by(Competition.code)
        )
        return [competition_ctx(c) for c in comps]

    def check_config(self, config: Config) -> None:
        """``[turns] schedule`` must be a cadence the game can keep."""
        from pbm.core.errors import ConfigError
        from pbm.games.flungo.schedule import parse_schedule

        try:
            parse_schedule(config.turns.schedule)
        except ValueError as exc:
            raise ConfigError("turns.schedule", str(exc)) from exc

    def known_addresses(self, session: Session) -> Iterable[str]:
        """None of its own: Flungo's players are the shared players' table's."""
        return ()

    def plays(self, session: Session, address: str) -> bool:
        """Whether ``address`` manages a team (a seat) in any competition."""
        from sqlalchemy import func, select

        from pbm.db.models import Player, Seat

        found = session.scalar(
            select(Seat.id)
            .join(Player, Player.id == Seat.player_id)
            .where(func.lower(Player.address) == address.lower())
            .limit(1)
        )
        return found is not None

    def secret_hash(self, session: Session, kind: str, seat_id: int) -> str | None:
        """None: Flungo keeps no secret in tables of its own."""
        return None

    def register_tables(self) -> None:
        """Nothing: Flungo's tables are the shared ones (:mod:`pbm.db.models`)."""

    def warm_up(self) -> None:
        """Load the order parser now (from its cache, or built once), not while a player
        waits, and read one order through it; and what the practice's dice draw with."""
        from engine.dice import Dice, UnrecordedDice
        from engine.flungo.formats import Format
        from engine.flungo.language import Reader, parse_orders
        from engine.flungo.squad import generate_squad
        from pbm.games.flungo.grammar import warm_order_parser

        reader = Reader(warm_order_parser())
        parse_orders("NAME 1 Warm Up", generate_squad(Dice(0)), Format.T20, reader=reader)
        UnrecordedDice(0).roll(6, "warm up")  # numpy, imported by the first roll

    def __repr__(self) -> str:
        return "Flungo()"
