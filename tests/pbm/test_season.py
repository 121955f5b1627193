"""Competitions by mail, turn by turn, from JOIN to champion (store door, recording sender),
on SQLite and PostgreSQL: the same seed and mails give the same results on both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbm.app import App
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.testing import RecordingSender
from tests.pbm.conftest import fresh_pg_database, make_config
from tests.pbm.season import (
    START,
    Season,
    StoreDoor,
    league_scenario,
    mini_scenario,
    new_competition,
)
from tests.pbm.test_gm import _toml

MINI_SETTINGS = {"naming_after_full": 600, "early": 300, "reminders": [1800], "hold_share": 1.0}


def _season(url: str, tmp_path: Path, code: str) -> Iterator[Season]:
    config = make_config(url, tmp_path)
    clock = FixedClock(START)
    app = App.from_config(config, clock, upgrade=True)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    try:
        yield Season(daemon, StoreDoor(daemon, sender), clock, code)
    finally:
        app.close()


def _mini(url: str, tmp_path: Path) -> tuple[dict[str, object], list[str]]:
    for season in _season(url, tmp_path, "MINI"):
        new_competition(
            season.daemon, season.clock, code="MINI", kind="mini", teams=4, settings=MINI_SETTINGS
        )
        final = mini_scenario(season)
        return final, season.reports()
    raise AssertionError


def test_mini_tournament_same_on_sqlite_and_postgresql(tmp_path: Path, pg_url: str) -> None:
    """The mini-tournament from JOIN to champion by mail; the same seed and mails give the
    same fixtures, results, standings and byte-identical turn reports on both databases."""
    lite, lite_reports = _mini(f"sqlite:///{tmp_path}/a.sqlite3", tmp_path / "a")
    pg, pg_reports = _mini(fresh_pg_database(pg_url), tmp_path / "b")
    assert lite == pg
    assert lite_reports == pg_reports and len(lite_reports) >= 8


@pytest.mark.slow
def test_league_of_six_to_champion(tmp_path: Path) -> None:
    """A 6-team league by mail from JOIN to champion, with an early stage."""
    for season in _season(f"sqlite:///{tmp_path}/l.sqlite3", tmp_path, "LEAGUE"):
        new_competition(
            season.daemon,
            season.clock,
            code="LEAGUE",
            kind="league",
            teams=6,
            settings={"naming_after_full": 600, "early": 300, "reminders": [], "hold_share": 1.0},
        )
        league_scenario(season)


@pytest.mark.slow
def test_verify_replays_every_finished_match(tmp_path: Path) -> None:
    """``pbm verify`` replays each finished match from its revealed seed and the orders as
    played, and gets the same ball log."""
    url = f"sqlite:///{tmp_path}/v.sqlite3"
    _mini(url, tmp_path)
    config_file = _toml(make_config(url, tmp_path), tmp_path)
    runner = CliRunner()
    for fixture in ("R1M1", "R1M2", "R2M1", "R2M2"):
        result = runner.invoke(main, ["verify", "MINI", fixture, "--config", str(config_file)])
        assert result.exit_code == 0, result.output
        assert "commitment matches" in result.output and "identical" in result.output
    shown = runner.invoke(main, ["gm", "show", "MINI", "--json", "--config", str(config_file)])
    assert shown.exit_code == 0 and '"champion"' in shown.output
