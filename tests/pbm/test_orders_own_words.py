"""A manager's mail in his own words, through the doors: chatter costs nothing, idioms and
typos are read, two readings are asked and flagged to the GM with both."""

from __future__ import annotations

from html import unescape

from sqlalchemy import select

from pbm.daemon import Daemon
from pbm.db.models import Flag
from pbm.db.session import transaction
from pbm.testing import RecordingSender, body_of
from tests.pbm.helpers import join, say


def test_own_words_mail_is_read_for_meaning_and_chatter_is_free(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Cheering is no error and not in the subject's count; "go agressive" is read; "anchor
    and tonk" for one batsman is shown both ways and flagged to the GM with both."""
    secret = join(daemon, sender, "player1@example.test")
    body = (
        f"SECRET {secret}\n"
        "Come on you Chutneys!!\n"
        "toss: bat\n"
        "after 10 overs if 2 or fewer down everyone go agressive\n"
        "Great win everyone!\n"
        "97 to defend, come on!\n"
        "Batsman 3 anchor and tonk\n"
    )
    [reply] = say(daemon, sender, body)
    subject, text = str(reply["Subject"]), body_of(reply)
    assert "error" not in subject
    words = " ".join(text.split())
    assert "after 10 overs, if wickets <= 2: all batsmen bat aggressive" in words
    assert "Batsman 3 bats defensive" in words and "Batsman 3 bats aggressive" in words
    with transaction(daemon.app.sessions) as s:
        [flag] = list(s.scalars(select(Flag)))
        assert flag.line == 7 and "two ways" in flag.reason


def test_a_sure_typo_is_read_and_the_answer_says_so(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A plain typo of an order word ("ovres") is read as the word, and the answer says on
    which line and as what, so the player sees it before the deadline; no error is counted."""
    secret = join(daemon, sender, "player1@example.test")
    body = f"SECRET {secret}\ntoss: bat\nafter 10 ovres all batsmen aggressive\n"
    [reply] = say(daemon, sender, body)
    subject, text = str(reply["Subject"]), body_of(reply)
    assert "error" not in subject
    words = " ".join(text.split())
    assert "after 10 overs: all batsmen bat aggressive" in words
    assert "Line 3: read 'ovres' as 'overs'." in words


def test_a_typo_read_is_said_beside_the_reading_it_changed(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The typo's note stands under "as pbm read it", before what will play, in the text and
    the HTML alike: a player checks the reading and what pbm made of his word together."""
    secret = join(daemon, sender, "player1@example.test")
    body = f"SECRET {secret}\ntoss: bat\nafter 10 ovres all batsmen aggressive\n"
    [reply] = say(daemon, sender, body)
    page = next(p.get_content() for p in reply.walk() if p.get_content_type() == "text/html")
    for text in (body_of(reply), unescape(page)):
        read_it = text.index("as pbm read it")
        assert read_it < text.index("read 'ovres' as 'overs'") < text.index("will play"), text
