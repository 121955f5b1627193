"""The games pbm runs by mail, each a package behind one small protocol, listed once.

The machinery (the inbound pipeline, the scheduler, the daemon, retention) knows no game by
name: it asks each game in :data:`GAMES` for its mail commands, its handler of a mail that
names one of its competitions but no command, its jobs that are due and when the next falls
due, and hands each job back to the game that made it. A new game is a package with a class
that satisfies :class:`Game` and one more entry in :data:`GAMES` (as python-chess lists its
``VARIANTS``); see ``docs/architecture.md``.

Jobs are values (as arq's ``CronJob``): frozen dataclasses with their fields (a competition's
code, an issue's number, a match's wire and over) and an idempotency key derived from them, so
nothing is packed into a string to be split again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from pbm.core.clock import Clock
    from pbm.core.config import Config
    from pbm.inbound.commands import Command, Handler

__all__ = ["GAMES", "Game", "Job", "JobSource", "game_named", "secret_holder"]


class Job(Protocol):
    """A job to run exactly once: its fields are its data; ``key`` (derived from them) is
    the idempotency key recorded in ``job_runs``, so a second run, or a second daemon, finds
    it taken."""

    @property
    def key(self) -> str: ...


class JobSource(Protocol):
    """What the scheduler asks of whoever owns jobs (a game, or the machinery's own
    housekeeping): the jobs due at ``now``, the next moment one may fall due, and how to run
    one of its own jobs in the caller's transaction."""

    def due(self, session: Session, config: Config, now: datetime) -> Sequence[Job]:
        """The jobs due at ``now`` (the scheduler skips those whose key has run)."""
        ...

    def next_wake(self, session: Session, config: Config, now: datetime) -> datetime | None:
        """The next moment after ``now`` a job may fall due (None: nothing pending)."""
        ...

    def run(self, job: Job, session: Session, config: Config, clock: Clock) -> None:
        """Run ``job`` (one this source made) in ``session``'s transaction."""
        ...


class Game(JobSource, Protocol):
    """A game by mail, as the machinery sees it."""

    #: The name competitions of this game carry (``competitions.game``) and commands name.
    name: str

    def commands(self) -> tuple[Command, ...]:
        """The game's mail commands."""
        ...

    def fallback(self) -> Handler | None:
        """The handler of a mail for one of the game's competitions that carries no command
        word (Flungo's naming and orders); None: such a mail is not understood."""
        ...

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
        """The game's stepwise work of a pass, in its own transactions (Flungo's turns: each
        step under its own key), bounded by ``budget`` seconds; returns how many steps ran."""
        ...

    def after_sweep(self, session: Session, now: datetime) -> Sequence[Job]:
        """The jobs the sweep made due, run in the same pass after it (Flungo's zine issue
        of each resolved stage, so it leaves with the stage's reports)."""
        ...

    def open_competitions(self, session: Session) -> list[dict[str, Any]]:
        """The game's competitions taking teams, as template rows (HELP and the answer to a
        mail not understood list them), by code."""
        ...

    def check_config(self, config: Config) -> None:
        """Refuse (:class:`~pbm.core.errors.ConfigError`) a configuration the game cannot
        run with: the config reads the sections as plain values; what they mean is the
        game's."""
        ...

    def known_addresses(self, session: Session) -> Iterable[str]:
        """The addresses the game keeps in its own tables (retention keeps their mail)."""
        ...

    #: The name the game's mail is from and signed with (None: the server's display name).
    sender_name: str | None
    #: The mail kind of HELP for an address that plays this game and no other.
    help_kind: str

    def plays(self, session: Session, address: str) -> bool:
        """Whether ``address`` holds a seat in one of the game's competitions or matches."""
        ...

    #: The kinds of outbound mail whose secret is kept in the game's own tables (not a seat's).
    secret_kinds: frozenset[str]

    def secret_hash(self, session: Session, kind: str, seat_id: int) -> str | None:
        """The stored hash of the secret an outbound mail of ``kind`` (one of
        :attr:`secret_kinds`) carries for ``seat_id``."""
        ...

    def register_tables(self) -> None:
        """Import the game's own ORM tables, so they join ``Base.metadata`` (Alembic's
        environment asks every game before it compares or creates)."""
        ...

    def warm_up(self) -> None:
        """Load now what the first mail would otherwise wait for (a parser's tables)."""
        ...


from pbm.games.flungo import Flungo  # noqa: E402  (the protocols above are the games' contract)
from pbm.games.hitforsix import HitForSix  # noqa: E402

#: Every game pbm runs, in the order the scheduler asks them.
GAMES: tuple[Game, ...] = (Flungo(), HitForSix())


def game_named(name: str) -> Game:
    """The game whose competitions carry ``name`` (``KeyError`` if none)."""
    for game in GAMES:
        if game.name == name:
            return game
    raise KeyError(name)


def secret_holder(kind: str) -> Game | None:
    """The game that keeps the secrets of outbound mails of ``kind`` in its own tables (None:
    they are a seat's)."""
    for game in GAMES:
        if kind in game.secret_kinds:
            return game
    return None
