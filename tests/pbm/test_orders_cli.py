"""``pbm orders check``: the echo, the errors with carets, and the exit code."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from pbm.cli import main
from tests.engine.orders.squad import fixture_team, opponent_team


def _files(tmp_path: Path, orders: str) -> list[str]:
    squad = tmp_path / "squad.json"
    squad.write_text(json.dumps(fixture_team().to_json()))
    other = tmp_path / "other.json"
    other.write_text(json.dumps(opponent_team().to_json()))
    path = tmp_path / "orders.txt"
    path.write_text(orders)
    return [str(path), "--squad", str(squad), "--opponent", str(other)]


def test_good_orders_exit_0_with_echo(tmp_path: Path) -> None:
    """Orders without errors print their canonical echo and exit 0."""
    args = _files(tmp_path, "Hi GM\ncaptain root\nAnderson 1-2, Warne 3\nbowling reviews: Lara\n")
    result = CliRunner().invoke(main, ["orders", "check", *args, "--format", "t20"])
    assert result.exit_code == 0, result.output
    assert "2: captain: Joe Root" in result.output
    assert "3: Jimmy Anderson bowls overs 1, 2" in result.output


def test_errors_exit_1_with_carets(tmp_path: Path) -> None:
    """Orders with errors print each with its line, caret and hint, and exit 1."""
    args = _files(tmp_path, "capitan Stokes\nSmith aggressive\n")
    result = CliRunner().invoke(main, ["orders", "check", *args])
    assert result.exit_code == 1
    assert "[invalid] line 1, column 1: unknown order 'capitan'" in result.output
    assert "did you mean 'captain'?" in result.output
    assert "Smith aggressive\n^^^^^" in result.output


def test_a_sure_typo_is_said_beside_the_echo(tmp_path: Path) -> None:
    """A typo read as its order word is said on its line, beside the echo of what was read;
    the orders are good, so the exit code is 0."""
    args = _files(tmp_path, "toss: bat\nafter 10 ovres all batsmen aggressive\n")
    result = CliRunner().invoke(main, ["orders", "check", *args])
    assert result.exit_code == 0, result.output
    assert "2: after 10 overs: all batsmen bat aggressive" in result.output
    assert "2: read 'ovres' as 'overs'" in result.output


def test_orders_check_says_what_was_read_past(tmp_path: Path) -> None:
    """`pbm orders check` prints the note on its line beside the echo, and exits 0; a word
    that may carry meaning is refused with what pbm could read without it, and exits 1."""
    args = _files(tmp_path, "Root bats normal, no drama\nStokes aggressive. What a hitter\n")
    result = CliRunner().invoke(main, ["orders", "check", *args])
    assert result.exit_code == 0, result.output
    assert "1: Joe Root bats normal" in result.output
    assert "1: passed over: 'no drama'" in result.output
    assert "2: passed over: 'What a hitter'" in result.output
    args = _files(tmp_path, "Stokes bats wahoo in the fixture\n")
    result = CliRunner().invoke(main, ["orders", "check", *args])
    assert result.exit_code == 1
    assert "'fixture'" in result.output
    assert 'pbm could read this as: "Stokes bats wahoo"' in result.output
    assert '(leaving out "in the fixture"): write it like that to have it' in result.output


def test_json_output(tmp_path: Path) -> None:
    """--json prints one document with the echo and located errors."""
    args = _files(tmp_path, "toss: bat\nwhen the moon is full: wahoo\n")
    result = CliRunner().invoke(main, ["orders", "check", *args, "--json"])
    doc = json.loads(result.output)
    assert result.exit_code == 1
    assert doc["echo"] == [{"line": 1, "text": "toss: bat"}]
    assert doc["errors"][0]["line"] == 2 and doc["errors"][0]["kind"] == "invalid"
    assert doc["not_understood"][0]["line"] == 2


def test_json_output_gives_the_nearest_reading(tmp_path: Path) -> None:
    """--json gives a refused line's nearest reading: the player's words that read, what
    they leave out, and the reading in canonical words; the line is still an error."""
    args = _files(tmp_path, "toss: bat\nStokes on wahoo, bish bash bosh\n")
    result = CliRunner().invoke(main, ["orders", "check", *args, "--json"])
    doc = json.loads(result.output)
    assert result.exit_code == 1
    assert doc["echo"] == [{"line": 1, "text": "toss: bat"}]
    assert doc["nearest"] == [
        {
            "line": 2,
            "text": "Stokes wahoo",
            "left_out": ["on", "bish bash bosh"],
            "reading": "Ben Stokes bats wahoo",
        }
    ]


def test_drinks_amendments(tmp_path: Path) -> None:
    """--drinks refuses selection changes at the drinks interval."""
    args = _files(tmp_path, "captain: Root\nJones wahoo\n")
    result = CliRunner().invoke(main, ["orders", "check", *args, "--drinks"])
    assert result.exit_code == 1
    assert "cannot change at drinks" in result.output


def test_bad_squad_file(tmp_path: Path) -> None:
    """A squad file that is not a team gives a usage error, not a traceback."""
    args = _files(tmp_path, "toss: bat\n")
    Path(args[2]).write_text("{}")
    result = CliRunner().invoke(main, ["orders", "check", *args])
    assert result.exit_code == os.EX_USAGE
    assert "cannot read the squad" in result.output


PREVIEW = (
    "after 3 overs, if wickets <= 4: Joe Root bats aggressive\n"
    "when the 10th wicket falls: all batsmen wahoo\n"
    "Jimmy Anderson bowls overs 1, 3\n"
)


def test_preview_plays_the_orders_in_practice(tmp_path: Path) -> None:
    """--preview adds the practice the answer to a mail gives: each conditional order with
    where it fired or why it never did, the bowling, and the scores; piped, no line is
    wrapped, so each entry is one line."""
    args = _files(tmp_path, PREVIEW)
    result = CliRunner().invoke(main, ["orders", "check", *args, "--format", "t20", "--preview"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Practice:" in out and "3 practice matches against " in out
    [after3] = [ln for ln in out.splitlines() if "- after 3 overs" in ln]
    assert "fired at 3.0 with " in after3 and "of 3" in after3
    [tenth] = [ln for ln in out.splitlines() if "10th wicket" in ln and ln.startswith("  - ")]
    assert ": never, " in tenth  # ten down ends the innings before the order can act
    assert any(ln.startswith("  - Bowling (overs, in ") for ln in out.splitlines())


def test_preview_is_the_same_for_the_same_orders(tmp_path: Path) -> None:
    """The preview's dice come from the orders: the same file twice prints the same
    practice; a changed order prints another."""
    args = _files(tmp_path, PREVIEW)
    run = ["orders", "check", *args, "--format", "t20", "--preview"]
    first = CliRunner().invoke(main, run).output
    assert CliRunner().invoke(main, run).output == first
    Path(args[0]).write_text(PREVIEW + "Ben Stokes defensive\n")
    assert CliRunner().invoke(main, run).output.split("Practice:")[1] != first.split("Practice:")[1]


def test_preview_shows_the_nearest_legal_plan(tmp_path: Path) -> None:
    """Under the house rule, two overs running is one problem, said once, with the mend."""
    args = _files(tmp_path, "Jimmy Anderson bowls overs 1, 2\nShane Warne bowls overs 3\n")
    result = CliRunner().invoke(
        main,
        ["orders", "check", *args, "--format", "t20", "--preview", "--no-consecutive-overs"],
    )
    out = result.output
    assert "the match plays the nearest legal plan" in out
    assert out.count("Jimmy Anderson would bowl more than 1 over in succession") == 1


def test_preview_in_json(tmp_path: Path) -> None:
    """--json --preview puts the practice's lines and the plan's mends in the document."""
    args = _files(tmp_path, PREVIEW)
    result = CliRunner().invoke(
        main, ["orders", "check", *args, "--format", "t20", "--preview", "--json"]
    )
    doc = json.loads(result.output)
    assert doc["practice"]["plan"] == []
    lines = doc["practice"]["practice"]
    assert lines[0].startswith("3 practice matches against ")
    assert any(ln.startswith("after 3 overs, if ") for ln in lines)
