"""What an App keeps of its database (each team's next-fixture line and outlook, derived from
the stored season) is its own: two Apps in one process, on two SQLite files holding a
competition of the same code, the same id, created at the same moment and at the same
season version, but with other teams, each answer a manager's mail from its own season, with
no cache to clear between them."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from engine.flungo.language import Reader
from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.games.flungo.grammar import ORDER_READER, order_reader
from pbm.games.flungo.mail import FIXTURE_LINES
from pbm.games.flungo.outlook import OUTLOOKS
from pbm.games.flungo.standing import _STANDINGS
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import make_config
from tests.pbm.season import MINI_TEAMS, START, Season, StoreDoor, new_competition

SETTINGS = {"naming_after_full": 600, "reminders": [], "hold_share": 1.0}
OTHERS = [
    ("a1@example.test", "Omega Owls", "Omega"),
    ("a2@example.test", "Sigma Seals", "Sigma"),
    ("a3@example.test", "Kappa Kites", "Kappa"),
    ("a4@example.test", "Zeta Zebus", "Zeta"),
]


def _drawn(tmp_path: Path, name: str, teams: list[tuple[str, str, str]]) -> Season:
    """Competition TWIN on its own SQLite file: four teams joined and named, the draw made."""
    clock = FixedClock(START)
    app = App.from_config(make_config(f"sqlite:///{tmp_path}/{name}.sqlite3", tmp_path), clock,
                          upgrade=True)  # fmt: skip
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    season = Season(daemon, StoreDoor(daemon, sender), clock, "TWIN")
    new_competition(daemon, clock, code="TWIN", kind="mini", teams=4, settings=SETTINGS)
    for address, team, prefix in teams:
        season.join(address, team, prefix)
    clock.advance(timedelta(minutes=10))
    season.pump()  # the draw
    return season


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[tuple[Season, Season]]:
    """Two Apps, each with its own TWIN: the MINI teams in one, four others in the other."""
    first = _drawn(tmp_path, "first", MINI_TEAMS)
    second = _drawn(tmp_path, "second", OTHERS)
    try:
        yield first, second
    finally:
        first.daemon.app.close()
        second.daemon.app.close()


def _names(teams: list[tuple[str, str, str]]) -> set[str]:
    return {team for _a, team, _p in teams}


def _same_competition(first: Season, second: Season) -> None:
    """The two rows share every field an App-wide key could have been made of."""
    rows = []
    for season in (first, second):
        with transaction(season.daemon.app.sessions) as s:
            comp = s.scalars(select(Competition).where(Competition.code == "TWIN")).one()
            rows.append((comp.id, comp.created_at, comp.season_version))
    assert rows[0] == rows[1], rows


def test_two_apps_on_two_databases_answer_each_from_its_own_season(
    twins: tuple[Season, Season],
) -> None:
    """The first App reads its season and keeps its lines; the second, asked next about the
    competition of the same code, id and version, names its own teams' fixtures and outlooks,
    never the first's; the first, asked again, still answers from its own."""
    first, second = twins
    _same_competition(first, second)
    mine, theirs = _names(MINI_TEAMS), _names(OTHERS)
    for season, own, other in (
        (first, mine, theirs),
        (second, theirs, mine),
        (first, mine, theirs),
    ):
        address = MINI_TEAMS[0][0]
        [status] = season.orders(address, "STATUS")
        text = " ".join(body_of(status).split())
        assert any(f" v {team}" in text or f"{team} v " in text for team in own), text
        assert not any(team in text for team in other), text
    for season in (first, second):
        kept = season.daemon.app.kept
        assert len(kept.shelf(OUTLOOKS)) == 1  # what the STATUS replies were read from
    assert first.daemon.app.kept is not second.daemon.app.kept


def test_an_orders_reply_names_the_next_fixture_from_its_own_database(
    twins: tuple[Season, Season],
) -> None:
    """An orders mail's reply names the team's next fixture: each App's from its own draw,
    kept by that App alone."""
    first, second = twins
    for season, own, other in ((first, MINI_TEAMS, OTHERS), (second, OTHERS, MINI_TEAMS)):
        address, _team, prefix = own[0]
        [ack] = season.orders(address, f"captain: {prefix} 1")
        text = " ".join(body_of(ack).split())
        assert any(team in text for team in _names(own) - {own[0][1]}), text
        assert not any(team in text for team in _names(other)), text
        assert len(season.daemon.app.kept.shelf(FIXTURE_LINES)) == 1


def test_each_app_reads_every_orders_mail_with_its_own_reader(
    twins: tuple[Season, Season],
) -> None:
    """An App reads orders with one Reader, kept as long as the App: what its orders mails
    taught it serves the next (the same mail again reads nothing anew), and the other App's
    Reader is another, which learnt only from its own mails."""
    first, second = twins
    readers = []
    for season, own in ((first, MINI_TEAMS), (second, OTHERS)):
        address, _team, prefix = own[0]
        learnt = []
        for _ in range(3):  # the second also reads the standing orders the first stored
            season.orders(address, f"captain: {prefix} 1\ntoss: bat")
            with transaction(season.daemon.app.sessions) as s:
                reader = order_reader(s)
            learnt.append(reader.remembered())
        assert 0 < learnt[0] <= learnt[1] == learnt[2]
        readers.append(reader)
    assert readers[0] is not readers[1]
    assert len(first.daemon.app.kept.shelf(ORDER_READER)) == 1


def _readers() -> int:
    """How many order Readers the process holds."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is Reader)


def test_an_apps_reader_goes_with_the_app(tmp_path: Path) -> None:
    """The standing orders an App reads again are kept by the App, so nothing in the process
    holds its Reader once the App is gone (a process-wide memo of the readings kept every
    Reader they were read with alive)."""
    before = _readers()
    season = _drawn(tmp_path, "gone", MINI_TEAMS)
    address, _team, prefix = MINI_TEAMS[0]
    for _ in range(2):  # the second reads the standing orders the first stored
        season.orders(address, f"captain: {prefix} 1\ntoss: bat")
    app = season.daemon.app
    assert len(app.kept.shelf(_STANDINGS)) >= 1
    assert _readers() > before
    app.close()
    del season, app
    assert _readers() == before
