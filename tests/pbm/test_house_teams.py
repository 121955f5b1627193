"""The demo's house teams (``pbm gm house``): celebrities of TV and radio by name, shown as
the house's, never as retired teams."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from engine.flungo.squad import Team
from pbm.cli import main
from pbm.core.config import Config
from pbm.daemon import Daemon
from pbm.db.models import Seat
from pbm.db.session import transaction
from pbm.games.flungo.celebrities import CELEBRITIES
from tests.pbm.test_gm import _toml

NEW = ("--teams", "4", "--kind", "mini", "--naming-deadline", "2030-01-01")


def test_house_teams_are_celebrities_and_not_retired(
    daemon: Daemon, config: Config, tmp_path: Path
) -> None:
    """``pbm gm house`` seats teams whose 18 players are distinct celebrities; ``pbm gm show``
    names the house as their manager and does not call them retired."""
    path = str(_toml(config, tmp_path))
    runner = CliRunner()
    r = runner.invoke(
        main,
        [*("gm", "new", "--config", path, "--code", "HOUSE", "--name", "House Cup"), *NEW],
    )
    assert r.exit_code == 0, r.output
    r = runner.invoke(
        main,
        ["gm", "house", "--config", path, "HOUSE", "Test Match Specials", "Blue Peter Badgers"],
    )
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["gm", "show", "--config", path, "HOUSE"])
    assert r.exit_code == 0, r.output
    assert "Test Match Specials" in r.output and "the house (plays on the defaults)" in r.output
    data = json.loads(
        runner.invoke(main, ["gm", "show", "--config", path, "HOUSE", "--json"]).output
    )
    assert [(t["house"], t["retired"]) for t in data["teams"]] == [(True, False), (True, False)]
    with transaction(daemon.app.sessions) as s:
        for seat in s.scalars(select(Seat)):
            names = [p.name for p in Team.from_json(seat.team).players]
            assert len(set(names)) == 18 and set(names) <= set(CELEBRITIES), names
