"""What pbm read past on a line (a remark beside an order, a word it does not know that
carries nothing) is said on that line, in the answer's text and HTML and at the terminal,
so the player sees it before the deadline; no error is counted (`pbm orders check`:
tests/pbm/test_orders_cli.py)."""

from __future__ import annotations

from html import unescape

from pbm.daemon import Daemon
from pbm.testing import RecordingSender, body_of
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
