"""The scheduler over jobs as values: what falls due at a given clock, each job handed back to
the game that made it, run once under a key derived from its fields."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from pbm.app import App
from pbm.core.clock import Clock, FixedClock
from pbm.core.config import Config
from pbm.core.errors import ConfigError
from pbm.db.models import JobRun
from pbm.db.session import transaction
from pbm.games import GAMES, Job
from pbm.games.flungo.jobs import NamingDeadline, ZineIssue
from pbm.games.hitforsix.schedule import OverDeadline, OverReminder
from pbm.inbound.commands import Command, Handler, fallbacks, registry
from pbm.scheduler import Digest, Purge, due_now, run_due
from tests.pbm.conftest import make_config


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        (datetime(2026, 1, 1, 9, 0, tzinfo=UTC), []),
        (datetime(2026, 1, 1, 23, 30, tzinfo=UTC), [Digest(date(2026, 1, 1))]),
        (
            datetime(2026, 1, 15, 23, 30, tzinfo=UTC),
            [NamingDeadline("DEMO"), Digest(date(2026, 1, 15))],
        ),
    ],
)
def test_the_jobs_due_at_a_clock_run_once(
    app: App, demo: str, clock: FixedClock, at: datetime, expected: list[Job]
) -> None:
    """At each clock the due jobs are these values (the game's deadlines, then the digest);
    once run, the same clock finds none due and a second pass runs nothing."""
    clock.set(at)
    with transaction(app.sessions) as s:
        assert [job for _, job in due_now(s, app.config, at)] == expected
    assert run_due(app.sessions, app.config, clock) == len(expected)
    with transaction(app.sessions) as s:
        assert due_now(s, app.config, at) == []
        keys = set(s.scalars(select(JobRun.key)))
    assert {job.key for job in expected} | {Purge(at.date()).key} <= keys
    assert run_due(app.sessions, app.config, clock) == 0


@dataclass(frozen=True, slots=True)
class Chime:
    """A test game's job: ring at ``hour``."""

    hour: int

    @property
    def key(self) -> str:
        """Derived from the field, as every job's key."""
        return f"chime:{self.hour}"


@dataclass
class Clockwork:
    """A game with no mail and one job an hour: what the scheduler asks of any game."""

    name: str = "clockwork"
    secret_kinds: frozenset[str] = frozenset()
    ran: list[Job] = field(default_factory=list)
    swept: int = 0

    def commands(self) -> tuple[Command, ...]:
        """No mail commands."""
        return ()

    def fallback(self) -> Handler | None:
        """No mail."""
        return None

    def due(self, session: Session, config: Config, now: datetime) -> list[Chime]:
        """This hour's chime."""
        return [Chime(now.hour)]

    def next_wake(self, session: Session, config: Config, now: datetime) -> datetime | None:
        """Nothing known ahead."""
        return None

    def run(self, job: Job, session: Session, config: Config, clock: Clock) -> None:
        """Keep the job handed back."""
        self.ran.append(job)

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
        """Count the sweeps."""
        self.swept += 1
        return 0

    def after_sweep(self, session: Session, now: datetime) -> Sequence[Job]:
        """Nothing."""
        return []

    def open_competitions(self, session: Session) -> list[dict[str, Any]]:
        """None."""
        return []

    def check_config(self, config: Config) -> None:
        """Any config."""

    def known_addresses(self, session: Session) -> list[str]:
        """None."""
        return []

    def secret_hash(self, session: Session, kind: str, seat_id: int) -> str | None:
        """None."""
        return None

    def register_tables(self) -> None:
        """None."""

    def warm_up(self) -> None:
        """Nothing."""


def test_each_job_is_handed_back_to_the_game_that_made_it(app: App, clock: FixedClock) -> None:
    """A game's job value comes back to its own ``run``, once per key: the same hour twice
    runs it once, the next hour's is a new job; the game is swept at every pass."""
    game = Clockwork()
    clock.set(datetime(2026, 1, 1, 10, 5, tzinfo=UTC))
    run_due(app.sessions, app.config, clock, games=(game,))
    run_due(app.sessions, app.config, clock, games=(game,))
    clock.set(datetime(2026, 1, 1, 11, 5, tzinfo=UTC))
    run_due(app.sessions, app.config, clock, games=(game,))
    assert game.ran == [Chime(10), Chime(11)]
    assert game.swept == 3


@pytest.mark.parametrize(
    ("job", "key"),
    [
        (NamingDeadline("DEMO"), "naming-deadline:DEMO"),
        (ZineIssue("DEMO", 3), "zine:DEMO:3"),
        (OverReminder("BFFCS7", 2), "h6-reminder:BFFCS7:2"),
        (OverDeadline("BFFCS7", 2), "h6-deadline:BFFCS7:2"),
        (Digest(date(2026, 1, 5)), "digest:2026-01-05"),
        (Purge(date(2026, 1, 5)), "purge:2026-01-05"),
    ],
)
def test_job_keys_keep_the_stored_format(job: Job, key: str) -> None:
    """Keys derived from the fields are those stored in ``job_runs`` before jobs were values,
    so the rows of jobs already run still match and nothing runs twice after the upgrade."""
    assert job.key == key


CODES = st.from_regex(r"[A-Z][A-Z0-9]{1,11}", fullmatch=True)


@given(st.tuples(CODES, st.integers(0, 500)), st.tuples(CODES, st.integers(0, 500)))
def test_distinct_zine_issues_have_distinct_keys(a: tuple[str, int], b: tuple[str, int]) -> None:
    """Two issues share a key only when they are the same issue: no key stands for two jobs."""
    assert (ZineIssue(*a).key == ZineIssue(*b).key) == (a == b)


def test_the_command_table_is_the_games_commands() -> None:
    """Every game's commands are in the table under their word, and a game's fallback is
    found by the name its competitions carry."""
    table = registry()
    for game in GAMES:
        for cmd in game.commands():
            assert table[cmd.word] is cmd and cmd.game in (None, game.name)
    assert set(fallbacks()) == {g.name for g in GAMES if g.fallback() is not None} == {"flungo"}


def test_a_cadence_flungo_cannot_keep_refuses_the_app(app_db_url: str, tmp_path: Path) -> None:
    """The config reads ``[turns] schedule`` as text; Flungo checks it when the app starts,
    and refuses it with the key that names it."""
    config = make_config(app_db_url, tmp_path, turns={"schedule": "every blue moon"})
    with pytest.raises(ConfigError) as refused:
        App.from_config(config, FixedClock(datetime(2026, 1, 1, tzinfo=UTC)))
    assert refused.value.key == "turns.schedule"
