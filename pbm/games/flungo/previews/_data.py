# ruff: noqa: E501 (made-up mail text, kept as the mail shows it)
"""What the made-up mails share: a demo season of four teams, played for real."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.flungo.competition import standings_text
from engine.flungo.events import Ball
from engine.flungo.scorecard import scorecard_text
from engine.flungo.turn import TurnReport
from pbm.games.flungo.mail_tables import innings_rows, standings_rows
from pbm.games.flungo.reports import event_line
from pbm.games.flungo.views import squad_rows
from pbm.games.flungo.zine.demo import demo_season, demo_squads
from pbm.outbound.previews._data import COMP as BASE_COMP

COMP: dict[str, Any] = {
    **BASE_COMP,
    "house_rules": ["no bowler bowls two overs running (the cricket law)"],
    "no_consecutive_overs": True,
    "hundred_tiebreak": False,
    "hundred": False,
}
DEADLINE = "Thursday 7 January 2027, 18:00 UTC (19:00 in Europe/Paris)"
FIXTURE = "Round 2: Gunge Giants v Dundee Cakes at The Gunge Bowl (pitch Average; weather Sunny), turns 1-4"


@cache
def reports() -> tuple[TurnReport, ...]:
    """The first stages of the demo league."""
    return tuple(demo_season(4, stages=6))


def team() -> Any:
    """Our team: the Gunge Giants."""
    return demo_squads(4)[0]


def opponent() -> Any:
    """The next opponent: the Dundee Cakes."""
    return demo_squads(4)[3]


def squad() -> list[dict[str, Any]]:
    """Our team's squad rows."""
    return squad_rows(team())


def names() -> list[str]:
    """Our team's players' names."""
    return [p.name for p in team().players]


def will_play() -> dict[str, Any]:
    """What pbm will play for us if we send nothing more."""
    n = names()
    return {
        "lines": [
            "xi: " + ", ".join(n[:11]),
            f"captain: {n[1]}",
            f"keeper: {n[6]}",
            "toss: bat",
            "batting order: " + ", ".join(n[:11]),
            f"after 10 overs, if score >= 50 and wickets <= 3: {n[0]} bats aggressive",
        ],
        "notes": ["bowling: the default plan (the best bowlers for the pitch, 4 overs each)"],
        "fitness": [],
        "plan_problems": [],
        "version": 3,
        "retired": False,
        "names": n,
    }


def finished_match() -> tuple[TurnReport, Any]:
    """The stage in which our first match was decided, and that match."""
    for report in reports():
        for mt in report.matches:
            teams = (mt.state.setup.home.name, mt.state.setup.away.name)
            if mt.finished and team().name in teams:
                return report, mt
    raise LookupError("the demo season decided no match of ours")


def table() -> tuple[str, list[list[str]]]:
    """The standings after our first result, as text and as rows."""
    report, _ = finished_match()
    return standings_text(report.competition), standings_rows(report.competition)


def match_ctx() -> dict[str, Any]:
    """Our decided match as the turn report gives it."""
    _, mt = finished_match()
    home, away = mt.state.setup.home.name, mt.state.setup.away.name
    return {
        "label": mt.label,
        "fixture_id": mt.fixture_id,
        "opponent": away if home == team().name else home,
        "names": [p.name for t in (mt.state.setup.home, mt.state.setup.away) for p in t.players],
        "card": scorecard_text(mt.state),
        "scorecard": innings_rows(mt.state),
        "events": [event_line(e) for e in mt.events if not isinstance(e, Ball)][:6],
        "xis": [],
        "defaults": False,
        "result": mt.state.result.text if mt.state.result else None,
        "seed": mt.seed,
        "seed_sha256": mt.seed_sha256,
        "orders": [{"team": home, "text": "\n".join(will_play()["lines"])},
                   {"team": away, "text": "(none: the defaults)"}],
    }  # fmt: skip


TEAM_ROWS: list[dict[str, Any]] = [
    {"seat": 1, "team": "Gunge Giants", "address": "ann@players.test", "sent": True,
     "defaults": False, "retired": False, "house": False, "missed": 0, "away": None,
     "bouncing": False},
    {"seat": 2, "team": "Snodge Stars", "address": "bob@players.test", "sent": False,
     "defaults": True, "retired": False, "house": False, "missed": 2, "away": None,
     "bouncing": True},
    {"seat": 3, "team": "Chipping Sodbury CC", "address": "cat@players.test", "sent": True,
     "defaults": False, "retired": False, "house": False, "missed": 0,
     "away": "2027-01-20", "bouncing": False},
    {"seat": 4, "team": "Dundee Cakes", "address": "gm@pbm.test", "sent": False,
     "defaults": True, "retired": False, "house": True, "missed": 0, "away": None,
     "bouncing": False},
]  # fmt: skip


def stage_ctx() -> dict[str, Any]:
    """What a stage's mails (each team's report, the GM's digest) share."""
    report, _ = finished_match()
    text, rows = table()
    return {
        "competition": COMP,
        "stage": report.stage.label,
        "issue": 1,
        "season": [
            "Gunge Giants beat Dundee Cakes by 9 wickets",
            "Chipping Sodbury CC beat Snodge Stars by 31 runs",
        ],
        "table": text,
        "table_rows": rows,
        "champion": None,
        "next": {"label": "Round 2, turn 1", "selection": True},
        "notes": [],
    }
