"""``pbm sim --orders``: real orders, read by the order language, take effect in a match."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pbm.cli import main
from tests.engine.orders.squad import XI, fixture_team, opponent_team

HOME = """Hi GM,
xi: Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White, Warne, Anderson
captain: Stokes
keeper: Wilson
toss: bat
batting order: Jones (defensive), Stokes, Tom Smith, Root, Ant and Dec, Wilson, Flintoff, Green, \
White, Warne, Anderson
Anderson and Warne open, Anderson 3,5,7, Warne 4,6,8
Flintoff 9,11,13,15
Green 10, 12, 14, 16
Stokes 17, 19
White 18, 20
reviews: never
after 10 overs, if wickets <= 9: all batsmen wahoo
Thanks
"""
AWAY = "toss: bowl\nname 6: Mr Bean\nbatting order: Lara (aggressive), Viv Richards, Bean\n"


def _run(tmp_path: Path, home: str, away: str, *extra: str) -> Any:
    files = {
        "home.json": json.dumps(fixture_team().to_json()),
        "away.json": json.dumps(opponent_team().to_json()),
        "home.txt": home,
        "away.txt": away,
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    args = ["sim", "--format", "t20", "--seed", "5"]
    args += ["--squad", str(tmp_path / "home.json"), "--squad", str(tmp_path / "away.json")]
    args += ["--orders", str(tmp_path / "home.txt"), "--orders", str(tmp_path / "away.txt")]
    return CliRunner().invoke(main, [*args, *extra])


def test_orders_take_effect(tmp_path: Path) -> None:
    """Selection, batting order, styles, bowling plan, naming and a conditional order all act."""
    result = _run(tmp_path, HOME, AWAY, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    home_xi = next(x for x in doc["xi"] if x["team"] == "Gungers")
    assert sorted(home_xi["players"]) == sorted(XI)
    assert (home_xi["captain"], home_xi["wicketkeeper"]) == ("Ben Stokes", "Wilson")
    away_xi = next(x for x in doc["xi"] if x["team"] == "Blobs")
    assert away_xi["players"][:3] == ["Brian Lara", "Viv Richards", "Mr Bean"]
    batting = next(i for i in doc["innings"] if i["batting_team"] == "Gungers")
    bowling = next(i for i in doc["innings"] if i["bowling_team"] == "Gungers")
    first = batting["balls"][0]
    assert (first["striker"], first["non_striker"], first["style"]) == (
        "Jones",
        "Ben Stokes",
        "defensive",
    )
    # the conditional order fires after 10 overs: every batsman bats wahoo from then on
    assert {b["style"] for b in batting["balls"] if b["over"] > 10} == {"wahoo"}
    assert {
        b["style"] for b in batting["balls"] if b["over"] <= 10 and b["striker"] == "Ben Stokes"
    } <= {"normal"}
    plan = {1: "Jimmy Anderson", 2: "Shane Warne", 9: "Freddie Flintoff", 20: "White"}
    bowlers = {b["over"]: b["bowler"] for b in bowling["balls"]}
    assert all(bowlers[o] == n for o, n in plan.items() if o in bowlers)
    fired = [e for e in doc["events"] if e["kind"] == "rule_fired" and e["team"] == "Gungers"]
    assert fired and fired[0]["at_ball"] == 60


def test_orders_with_errors_stop_the_match(tmp_path: Path) -> None:
    """Orders with errors are printed with their carets and the match is not played."""
    result = _run(tmp_path, HOME.replace("Thanks", "capitan: Root\nThanks"), AWAY)
    assert result.exit_code == 1
    assert "unknown order 'capitan'" in result.output
    assert "innings" not in result.output


def test_orders_need_both_sides(tmp_path: Path) -> None:
    """--orders must be given twice, home then away."""
    (tmp_path / "o.txt").write_text("toss: bat\n")
    result = CliRunner().invoke(main, ["sim", "--orders", str(tmp_path / "o.txt")])
    assert result.exit_code == os.EX_USAGE
    assert "give --orders twice" in result.output
