"""What pbm read past on a line (a remark beside an order, a word it does not know that
carries nothing) is said on that line, in the answer's text and HTML and at the terminal,
so the player sees it before the deadline; no error is counted."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

from click.testing import CliRunner

from pbm.cli import main
from pbm.daemon import Daemon
from pbm.testing import RecordingSender, body_of
from tests.engine.orders.squad import fixture_team, opponent_team
from tests.pbm.helpers import join, say


def test_a_remark_read_past_is_said_in_the_answer(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """ "; the weather looks grim" after an order is passed over: the order is read, the
    subject counts no error, and the note stands under "as pbm read it" before what will
    play, in the text and the HTML alike."""
    secret = join(daemon, sender, "player1@example.test")
    body = (
        f"SECRET {secret}\n"
        "toss: bat, no argument\n"
        "after 10 overs all batsmen aggressive; the weather looks grim\n"
    )
    [reply] = say(daemon, sender, body)
    assert "error" not in str(reply["Subject"])
    page = next(p.get_content() for p in reply.walk() if p.get_content_type() == "text/html")
    for text in (body_of(reply), unescape(page)):
        words = " ".join(text.split())
        assert "after 10 overs: all batsmen bat aggressive" in words
        read_it = words.index("as pbm read it")
        said = words.index("Line 3: passed over: 'the weather looks grim'.")
        assert read_it < said < words.index("will play"), words
        assert "Line 2: passed over: 'no argument'." in words


def _files(tmp_path: Path, orders: str) -> list[str]:
    squad = tmp_path / "squad.json"
    squad.write_text(json.dumps(fixture_team().to_json()))
    other = tmp_path / "other.json"
    other.write_text(json.dumps(opponent_team().to_json()))
    path = tmp_path / "orders.txt"
    path.write_text(orders)
    return [str(path), "--squad", str(squad), "--opponent", str(other)]


def test_orders_check_says_what_was_read_past(tmp_path: Path) -> None:
    """`pbm orders check` prints the note on its line beside the echo, and exits 0; a word
    that may carry meaning is refused with what pbm reads without it, and exits 1."""
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
    assert "without it, pbm reads: Ben Stokes bats wahoo" in result.output
