"""Tiny Cricsheet-format matches, written by the project, for builder tests on a fresh machine.

Match 1001 (JSON, men's T20, India v Nepal) holds every counting rule: a boundary four, a wide,
a six off a no-ball, an all-run four (``non_boundary``), a leg-bye, a run out, a retired hurt,
a bowled, a caught, and a super over that must not count. Match 1002 (JSON) has A Bat under a
new name, playing for Nepal, and X Ray switching to India. Match 1003 is csv2 (with a super
over as innings 3); the csv2 zip also holds a different copy of 1001 that must be ignored.
1004 is an Afghanistan men's match (left out); 1005 a women's T20I.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

PEOPLE = {
    "A Bat": "a1",
    "AB Bat": "a1",
    "B Bowl": "b1",
    "C Cat": "c1",
    "D Dog": "d1",
    "X Ray": "x1",
    "XY Ray": "x1",
    "W Woman": "w1",
    "V Woman": "v1",
}


def ball(
    batter: str,
    bowler: str,
    runs: int = 0,
    *,
    wides: int = 0,
    noballs: int = 0,
    legbyes: int = 0,
    non_boundary: bool = False,
    out: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """One JSON delivery."""
    extras = {k: v for k, v in (("wides", wides), ("noballs", noballs), ("legbyes", legbyes)) if v}
    d: dict[str, Any] = {
        "batter": batter,
        "bowler": bowler,
        "non_striker": batter,
        "runs": {
            "batter": runs,
            "extras": sum(extras.values()),
            "total": runs + sum(extras.values()),
        },
    }
    if non_boundary:
        d["runs"]["non_boundary"] = True
    if extras:
        d["extras"] = extras
    if out:
        d["wickets"] = [{"kind": out[0], "player_out": out[1]}]
    return d


def json_match(
    teams: dict[str, list[str]],
    innings: list[tuple[str, list[dict[str, Any]], bool]],
    *,
    date: str,
    gender: str = "male",
    match_type: str = "T20",
) -> dict[str, Any]:
    """A Cricsheet JSON match: ``innings`` are (batting team, deliveries, is super over)."""
    names = sorted({n for ps in teams.values() for n in ps})
    return {
        "meta": {"data_version": "1.1.0", "created": date, "revision": 1},
        "info": {
            "balls_per_over": 6,
            "dates": [date],
            "gender": gender,
            "match_type": match_type,
            "team_type": "international",
            "teams": list(teams),
            "players": teams,
            "registry": {"people": {n: PEOPLE[n] for n in names}},
        },
        "innings": [
            {
                "team": team,
                "overs": [{"over": 0, "deliveries": ds}],
                **({"super_over": True} if so else {}),
            }
            for team, ds, so in innings
        ],
    }


MATCH_1001 = json_match(
    {"India": ["A Bat", "B Bowl"], "Nepal": ["C Cat", "D Dog", "X Ray"]},
    [
        (
            "India",
            [
                ball("A Bat", "D Dog", 4),
                ball("A Bat", "D Dog", wides=1),
                ball("A Bat", "D Dog", 6, noballs=1),
                ball("A Bat", "D Dog", 4, non_boundary=True),
                ball("A Bat", "D Dog", legbyes=1),
                ball("A Bat", "D Dog", 1, out=("run out", "A Bat")),
                ball("B Bowl", "C Cat", out=("retired hurt", "B Bowl")),
                ball("B Bowl", "C Cat", out=("bowled", "B Bowl")),
            ],
            False,
        ),
        (
            "Nepal",
            [ball("C Cat", "B Bowl", 6), ball("C Cat", "B Bowl", out=("caught", "C Cat"))],
            False,
        ),
        ("Nepal", [ball("D Dog", "A Bat", 6)] * 3, True),
        ("India", [ball("A Bat", "D Dog", 6, out=("bowled", "A Bat"))], True),
    ],
    date="2020-01-01",
)
MATCH_1002 = json_match(
    {"India": ["XY Ray"], "Nepal": ["AB Bat"]},
    [("India", [ball("XY Ray", "AB Bat", 2)], False)],
    date="2020-02-01",
)
MATCH_1004 = json_match(
    {"Afghanistan": ["B Bowl"], "Nepal": ["C Cat"]},
    [("Nepal", [ball("C Cat", "B Bowl", 6)], False)],
    date="2020-04-01",
)
MATCH_1005 = json_match(
    {"England": ["W Woman"], "India": ["V Woman"]},
    [("England", [ball("W Woman", "V Woman", 4)], False)],
    date="2020-05-01",
    gender="female",
)

CSV2_COLUMNS = [
    "match_id",
    "season",
    "start_date",
    "venue",
    "innings",
    "ball",
    "batting_team",
    "bowling_team",
    "striker",
    "non_striker",
    "bowler",
    "runs_off_bat",
    "extras",
    "wides",
    "noballs",
    "byes",
    "legbyes",
    "penalty",
    "wicket_type",
    "player_dismissed",
    "other_wicket_type",
    "other_player_dismissed",
]


def csv2_match(
    match_id: str,
    teams: dict[str, list[str]],
    rows: list[dict[str, Any]],
    *,
    date: str,
    gender: str = "male",
) -> tuple[str, str]:
    """(``<id>_info.csv``, ``<id>.csv``) texts; each row gives innings, striker, bowler, …"""
    info = io.StringIO()
    w = csv.writer(info, lineterminator="\n")
    w.writerow(["version", "2.2.0"])
    w.writerow(["info", "balls_per_over", "6"])
    for t in teams:
        w.writerow(["info", "team", t])
    w.writerow(["info", "gender", gender])
    w.writerow(["info", "date", date.replace("-", "/")])
    for t, ps in teams.items():
        for p in ps:
            w.writerow(["info", "player", t, p])
    for p in sorted({p for ps in teams.values() for p in ps}):
        w.writerow(["info", "registry", "people", p, PEOPLE[p]])
    balls = io.StringIO()
    bw = csv.DictWriter(balls, CSV2_COLUMNS, lineterminator="\n", restval="")
    bw.writeheader()
    for i, r in enumerate(rows):
        bw.writerow({"match_id": match_id, "start_date": date, "ball": f"0.{i + 1}", **r})
    return info.getvalue(), balls.getvalue()


MATCH_1003 = csv2_match(
    "1003",
    {"India": ["A Bat", "B Bowl"], "Nepal": ["C Cat", "D Dog"]},
    [
        {"innings": 1, "striker": "A Bat", "bowler": "D Dog", "runs_off_bat": 4, "extras": 0},
        {
            "innings": 1,
            "striker": "A Bat",
            "bowler": "D Dog",
            "runs_off_bat": 0,
            "extras": 1,
            "wides": 1,
        },
        {
            "innings": 1,
            "striker": "A Bat",
            "bowler": "D Dog",
            "runs_off_bat": 0,
            "extras": 1,
            "noballs": 1,
        },
        {
            "innings": 1,
            "striker": "A Bat",
            "bowler": "D Dog",
            "runs_off_bat": 0,
            "extras": 0,
            "wicket_type": "caught",
            "player_dismissed": "A Bat",
        },
        {"innings": 3, "striker": "A Bat", "bowler": "D Dog", "runs_off_bat": 6, "extras": 0},
    ],
    date="2020-03-01",
)
# A different (wrong) copy of 1001 in csv2: if it were counted, A Bat would have 4 matches.
MATCH_1001_CSV2 = csv2_match(
    "1001",
    {"India": ["A Bat"], "Nepal": ["D Dog"]},
    [{"innings": 1, "striker": "A Bat", "bowler": "D Dog", "runs_off_bat": 6, "extras": 0}],
    date="2020-01-01",
)

README_CSV2 = """All T20 International match data in CSV format

Matches included in this archive
--------------------------------

2020-03-01 - international - T20 - male - 1003 - India vs Nepal
2020-01-01 - international - T20 - male - 1001 - India vs Nepal
"""


def write_fixture_data(root: Path) -> Path:
    """A Cricsheet-like download folder: a JSON zip and a csv2 zip (with a README) under it."""
    root.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(root / "t20s_json.zip", "w") as zf:
        zf.writestr("README.txt", "The JSON data\n")
        for mid, m in (
            ("1001", MATCH_1001),
            ("1002", MATCH_1002),
            ("1004", MATCH_1004),
            ("1005", MATCH_1005),
        ):
            zf.writestr(f"{mid}.json", json.dumps(m))
    (root / "supplements").mkdir(exist_ok=True)
    with zipfile.ZipFile(root / "supplements" / "t20s_csv2_extra.zip", "w") as zf:
        zf.writestr("README.txt", README_CSV2)
        for mid, (info, balls) in (("1003", MATCH_1003), ("1001", MATCH_1001_CSV2)):
            zf.writestr(f"{mid}_info.csv", info)
            zf.writestr(f"{mid}.csv", balls)
    return root
