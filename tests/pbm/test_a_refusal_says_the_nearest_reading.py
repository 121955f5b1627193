"""A refused line's answer says the nearest reading pbm could make of it, in the player's
words, in the text and the HTML part alike, and to the GM's flag; nothing of it is acted on
(issue 24: "the nearest reading that pbm can make")."""

from __future__ import annotations

from html import unescape

from sqlalchemy import select

from pbm.daemon import Daemon
from pbm.db.models import Flag
from pbm.db.session import transaction
from pbm.testing import RecordingSender, body_of
from tests.pbm.helpers import join, say


def test_the_answer_says_what_pbm_could_read_and_acts_on_nothing_of_it(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Both parts of the reply give the refused line's suggestion with what it leaves out;
    the order it suggests is not among what the mail changed; the flagged line's reason for
    the GM holds the suggestion too."""
    secret = join(daemon, sender, "player1@example.test")
    body = (
        f"SECRET {secret}\n"
        "toss: bat\n"
        "Batsman 3 on defensive pls, blunt the seamers\n"
        "Batsman 1 aggressive if the sun's out\n"
    )
    [reply] = say(daemon, sender, body)
    page = next(p.get_content() for p in reply.walk() if p.get_content_type() == "text/html")
    for text in (body_of(reply), unescape(page)):
        words = " ".join(text.split())
        assert 'pbm could read this as: "Batsman 3 defensive pls"' in words, words
        assert '"Batsman 1 aggressive" (leaving out "if the sun\'s out")' in words
        assert words.count("write it like that to have it") >= 2, words
    words = " ".join(body_of(reply).split())
    changed = words.split("as pbm read it")[-1].split("What pbm will play")[0]
    assert "toss: bat" in changed and "Batsman 3" not in changed  # never acted on
    assert "error" in str(reply["Subject"])
    with transaction(daemon.app.sessions) as s:
        [flag] = list(s.scalars(select(Flag)))
        assert flag.line == 4
        assert 'pbm could read this as: "Batsman 1 aggressive"' in flag.reason
