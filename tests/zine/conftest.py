"""Shared, session-scoped zine data: played-out seasons (made once, they take seconds) and an
archive built from them, including a season of hostile names."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.flungo.squad import Team
from pbm.games.flungo.zine.archive import ArchiveResult, build_archive
from pbm.games.flungo.zine.demo import TEAM_NAMES, demo_season, demo_squads
from pbm.games.flungo.zine.source import TurnReport

HOSTILE_TEAM = "<script>alert(1)</script>"
HOSTILE_PLAYER = '#set page(width: 1cm) "quoted" & *bold*'
HOSTILE_EDITORIAL = (
    ']#panic("typst injection") <img src=x onerror=alert(2)> & "quotes" ]]></summary><evil/>'
)


@pytest.fixture(scope="session")
def league() -> list[TurnReport]:
    """A whole 4-team T20 league: 3 rounds of a selection stage and four turns."""
    return demo_season(4, code="LG1")


@pytest.fixture(scope="session")
def league_two() -> list[TurnReport]:
    """The same four squads' second season, its first round (careers add up across both)."""
    return demo_season(4, code="LG2", seed=1, stages=6)


@pytest.fixture(scope="session")
def cup() -> list[TurnReport]:
    """A 4-team mini-tournament (semi-finals, final, 3rd/4th play-off)."""
    squads = demo_squads(4, seed=2, names=TEAM_NAMES[4:8])
    return demo_season(4, knockout=True, code="CUP", seed=2, squads=squads)


def hostile_squads() -> list[Team]:
    """Four squads, one called ``<script>…`` with a Typst-markup player name."""
    squads = demo_squads(4, seed=3, names=TEAM_NAMES[8:12])
    bad = squads[1]  # the side that plays on defaults (its orders could not name it)
    players = (replace(bad.players[0], name=HOSTILE_PLAYER), *bad.players[1:])
    squads[1] = Team(HOSTILE_TEAM, players)
    return squads


@pytest.fixture(scope="session")
def hostile() -> list[TurnReport]:
    """A league whose names and editorial try to break out of HTML, XML and Typst."""
    return demo_season(
        4, code="BAD", seed=3, squads=hostile_squads(), editorial=HOSTILE_EDITORIAL, stages=6
    )


@pytest.fixture(scope="session")
def archive(
    tmp_path_factory: pytest.TempPathFactory,
    league: list[TurnReport],
    league_two: list[TurnReport],
    cup: list[TurnReport],
    hostile: list[TurnReport],
) -> tuple[Path, ArchiveResult]:
    """The archive of all four competitions, built once."""
    out = tmp_path_factory.mktemp("archive")
    # the cup's first round and the hostile league's first two issues are enough here
    seasons = [("LG1", league), ("LG2", league_two), ("CUP", cup[:6]), ("BAD", hostile[:2])]
    return out, build_archive(seasons, out)
