"""An orders answer's refusals read right in every client (issue M1): in the HTML twin the
word at fault is marked inside the player's line, so no client's wrapping can put a caret
row under another word; in the text part the error's words and a line's "why:" are flowed
paragraphs at the margin (prose in a proportional font), while the player's line and its
caret row stay fixed lines together (the caret under its word in a fixed font)."""

from __future__ import annotations

import re
from email.message import EmailMessage
from html import unescape

import pytest

from pbm.daemon import Daemon
from pbm.mail.flowed import unflow
from pbm.outbound.render.faults import fault
from pbm.testing import RecordingSender
from tests.pbm.helpers import join, say

_REFUSED = "Batsman 3 on defensive pls, blunt the seamers"


@pytest.fixture
def reply(daemon: Daemon, sender: RecordingSender, demo: str) -> EmailMessage:
    """The answer to orders with a line refused at a word, one that stops too soon and a
    sentence not understood (sent to the GM with its reason)."""
    secret = join(daemon, sender, "player1@example.test")
    body = (
        f"SECRET {secret}\n"
        "toss: bat\n"
        "bowling: Bowler 1 20 overs\n"
        f"{_REFUSED}\n"
        "Batsman 1 aggressive if the sun's out\n"
    )
    [answer] = say(daemon, sender, body)
    return answer


def _part(msg: EmailMessage, kind: str) -> EmailMessage:
    return next(p for p in msg.walk() if p.get_content_type() == kind)


def test_the_html_marks_the_word_at_fault_and_has_no_caret_row(reply: EmailMessage) -> None:
    """The HTML shows the refused line once, with exactly the word the carets stand under
    marked in it, and a missing word's place marked after its line; no row of carets."""
    page = str(_part(reply, "text/html").get_content())
    marked = re.findall(r'<strong class="at"[^>]*>([^<]*)</strong>', page)
    assert marked == ["^", "blunt"], marked
    shown = unescape(re.sub(r"<[^>]+>", "", page))
    assert _REFUSED in shown
    assert "bowling: Bowler 1 20 overs ^" in shown
    assert not re.search(r"^\s*\^{2,}\s*$", shown, re.M), "a caret row in the HTML"


def test_a_fixed_font_sees_the_caret_under_its_word(reply: EmailMessage) -> None:
    """In the text part as sent, the refused line and its caret row are consecutive lines,
    stuffed alike, and the carets stand under 'blunt', as many as its letters."""
    lines = str(_part(reply, "text/plain").get_content()).split("\n")
    [at] = [i for i, line in enumerate(lines) if line.endswith(_REFUSED)]
    code, carets = lines[at], lines[at + 1]
    start = code.index("blunt")
    assert carets == " " * start + "^" * len("blunt"), (code, carets)


def test_the_reasons_are_flowed_paragraphs(reply: EmailMessage) -> None:
    """Each soft break of the error's words and of the "why:" reason ends its line in a
    space and the next starts at the margin: a client that flows shows each as one
    paragraph, which no hanging indent makes ragged; none goes over 78 characters."""
    part = _part(reply, "text/plain")
    assert part.get_param("format") == "flowed"
    sent = str(part.get_content())
    assert all(len(line) <= 78 for line in sent.split("\n"))
    para = set(unflow(sent).split("\n"))
    assert (
        "why: I don't know what 'sun' means in an order, so this line is not acted on; pbm "
        'could read this as: "Batsman 1 aggressive" (leaving out "if the sun\'s out"): write '
        "it like that to have it" in para
    ), para
    assert (
        'pbm could read this as: "Batsman 3 defensive pls" (leaving out "on" and "blunt the '
        'seamers"): write it like that to have it' in para
    ), para
    why = sent.index("why: ")
    continued = sent[why:].split("\n")[1]
    assert sent[why:].split("\n")[0].endswith(" ") and not continued.startswith(" ")


@pytest.mark.parametrize(
    ("text", "before", "at", "after"),
    [
        ("line 1, column 5: no\nab cd ef\n   ^^", "ab ", "cd", " ef"),
        ("line 1, column 9: too soon\nab cd ef\n        ^", "ab cd ef ", "^", ""),
        ("line 1, column 1: all\nab cd\n^^^^^^^^", "", "ab cd", ""),
    ],
)
def test_a_fault_parts_its_line_where_the_carets_stand(
    text: str, before: str, at: str, after: str
) -> None:
    """The line is parted around the characters its carets stand under; carets past its
    end mark a missing word's place after a space."""
    f = fault(text)
    assert (f.before, f.at, f.after) == (before, at, after)
    assert f.code == text.split("\n")[1] and f.prose == (text.split("\n")[0],)


def test_an_error_without_a_caret_row_is_all_words() -> None:
    """An error that points into no line (a name refused as a lookalike) is prose alone:
    nothing is marked, a last line of carets is needed to read one."""
    f = fault("Your team name is too like another team's\nchoose another")
    assert f.prose == ("Your team name is too like another team's", "choose another")
    assert (f.code, f.at) == ("", "")
