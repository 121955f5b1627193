"""``pbm sim``: scorecard, --json in issue 2's shape, --batting-style, --squad, determinism."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
from click.testing import CliRunner

from engine.dice import Dice
from engine.flungo import generate_squad
from pbm.cli import main
from pbm.cli.sim import sim, wrap_entries


def run(*args: str) -> str:
    result = CliRunner().invoke(main, ["sim", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_text_scorecard() -> None:
    """The default output is a readable scorecard with both innings and the result."""
    out = run("--format", "t20", "--seed", "3")
    assert out.startswith("Cosmic Celebrity Cricket — Twenty20: ")
    assert out.count(" innings") >= 2 and "Bowler" in out and "Result: " in out
    assert "Flungo" not in out


def test_json_has_issue_two_shape() -> None:
    """--json prints one document with the keys issue 2 requires, balls in its shape."""
    doc = json.loads(run("--format", "hundred", "--seed", "4", "--json"))
    assert {"format", "seed", "pitch", "weather", "teams", "innings", "result"} <= set(doc)
    assert doc["format"] == "hundred" and doc["seed"] == 4
    assert set(doc["pitch"]) >= {"name", "roll"} and set(doc["weather"]) >= {"name", "roll"}
    assert len(doc["teams"]) == 2 and len(doc["teams"][0]["players"]) == 18
    assert set(doc["teams"][0]["players"][0]) >= {
        "name",
        "role",
        "batting",
        "bowling",
        "fielding",
        "bowling_style",
    }
    inn = doc["innings"][0]
    assert set(inn) >= {
        "batting_team",
        "bowling_team",
        "runs",
        "wickets",
        "legal_balls",
        "extras",
        "batting",
        "bowling",
        "fall_of_wickets",
        "balls",
    }
    assert set(inn["extras"]) == {"wides", "no_balls", "byes", "leg_byes"}
    ball = inn["balls"][0]
    assert set(ball) >= {
        "over",
        "ball",
        "legal",
        "bowler",
        "striker",
        "non_striker",
        "style",
        "dice",
        "runs",
        "extras",
        "wicket",
        "rolls",
    }
    assert ball["over"] == 1 and ball["ball"] == 1 and len(ball["dice"]) == 2
    assert set(ball["rolls"][0]) == {"die", "value", "purpose"}
    assert max(b["over"] for b in inn["balls"]) <= 20  # sets of five
    assert set(doc["result"]) >= {"winner", "margin", "text"}


def test_batting_style_overrides_everyone() -> None:
    """--batting-style wahoo: every ball of both innings is batted wahoo with a D10 dice 2."""
    doc = json.loads(run("--seed", "9", "--batting-style", "wahoo", "--json"))
    balls = [b for inn in doc["innings"] for b in inn["balls"]]
    assert {b["style"] for b in balls} == {"wahoo"}
    assert all(b["rolls"][1]["die"] == 10 for b in balls)


def test_output_is_byte_identical() -> None:
    """The same seed gives byte-identical output."""
    assert run("--format", "50", "--seed", "12", "--json") == run(
        "--format", "50", "--seed", "12", "--json"
    )


def test_squad_files(tmp_path: Path) -> None:
    """--squad twice plays those squads; once is a usage error."""
    files = []
    for k, name in enumerate(("Zog Rovers", "Protoplasm Park")):
        p = tmp_path / f"{k}.json"
        p.write_text(json.dumps(generate_squad(Dice(k), name).to_json()))
        files.append(str(p))
    doc = json.loads(run("--squad", files[0], "--squad", files[1], "--json"))
    assert [t["name"] for t in doc["teams"]] == ["Zog Rovers", "Protoplasm Park"]
    bad = CliRunner().invoke(main, ["sim", "--squad", files[0]])
    assert bad.exit_code == os.EX_USAGE and "twice" in bad.output


def test_cricsheet_flag() -> None:
    """--cricsheet prints a Cricsheet document."""
    doc = json.loads(run("--seed", "2", "--cricsheet"))
    assert set(doc) == {"meta", "info", "innings"}


def test_scorecard_fits_the_columns_given() -> None:
    """With COLUMNS=80 a 50-over scorecard has no line longer than 80 characters."""
    for seed in (3, 7):
        result = CliRunner().invoke(
            main, ["sim", "--format", "50", "--seed", str(seed)], env={"COLUMNS": "80"}
        )
        assert result.exit_code == 0, result.output
        assert max(len(line) for line in result.output.splitlines()) <= 80
        assert "Fall of wickets: 1-" in result.output


def test_long_lists_break_between_entries() -> None:
    """Fall of wickets wraps only between entries, continuing under the first entry."""
    entries = [f"{n}-{10 * n} (Batsman Number {n}, {n}.3)" for n in range(1, 10)]
    lines = wrap_entries("  Fall of wickets: ", entries, 80)
    assert len(lines) > 1 and all(len(line) <= 79 for line in lines)
    assert all(line.startswith(" " * 19) and line[19] != " " for line in lines[1:])
    joined = " ".join(line.strip() for line in lines)
    assert joined == "Fall of wickets: " + ", ".join(entries)
    assert wrap_entries("  Did not bat: ", [], 80) == []


def test_squad_files_are_checked(tmp_path: Path) -> None:
    """Bad squads (short, a name twice or against the name rules, two of one name) are refused."""
    good = generate_squad(Dice(1), "Zog Rovers").to_json()
    cases = {
        "short": ({**good, "players": good["players"][:5]}, "has 5 players; a squad has 18"),
        "dup": (
            {**good, "players": [good["players"][0], *good["players"][:17]]},
            "names Star Batsman 1 twice",
        ),
        "same": (good, "both squads are called Zog Rovers"),
        "markup": (
            {
                **good,
                "players": [{**good["players"][0], "name": "[bold]Zog"}, *good["players"][1:]],
            },
            "'[bold]Zog': a name cannot contain '['",
        ),
    }
    (tmp_path / "good.json").write_text(json.dumps(good))
    for name, (doc, message) in cases.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(doc))
        args = ["sim", "--squad", str(tmp_path / f"{name}.json"), "--squad"]
        result = CliRunner().invoke(main, [*args, str(tmp_path / "good.json")])
        assert result.exit_code == os.EX_USAGE and message in result.output, (name, result.output)


def test_one_ball_left_is_singular() -> None:
    """A win with one ball left says "1 ball left" (T20 seed 63 is such a win)."""
    out = run("--format", "t20", "--seed", "63")
    assert "won by 9 wickets (1 ball left)" in out


def test_every_option_is_explained_in_help() -> None:
    """`pbm sim --help` gives every option a sentence of help, not just its name."""
    assert all(p.help for p in sim.params if isinstance(p, click.Option))
    assert "default XI" in (sim.help or "")


def test_hundred_tie_breaker_is_called_a_super_five() -> None:
    """A tied knockout Hundred's extra innings are headed "Super Five", as its result says."""
    out = run("--format", "hundred", "--seed", "25", "--knockout", "--log")
    assert "won the Super Five" in out
    assert "Super Five: Gunge Giants innings" in out and "Super Over" not in out
