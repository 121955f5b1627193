"""Hostile names through the door: a team or squad name that looks like one already taken, or
that cannot be seen at all, is refused with the reason (issue 23)."""

from __future__ import annotations

import unicodedata
from email.message import EmailMessage

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from engine.flungo.language import check_name
from engine.flungo.squad import Team
from engine.lookalike import is_invisible, lookalike_key, skeleton
from pbm.daemon import Daemon
from pbm.db.models import Seat
from pbm.db.session import transaction
from pbm.games.flungo.mail import _LOOKALIKE_KEYS
from pbm.mail.flowed import unflow
from pbm.testing import RecordingSender, body_of
from tests.pbm.helpers import join, say


def _read(reply: EmailMessage) -> str:
    """The text part as a reader that flows it reads it: an error is one paragraph."""
    part = reply.get_body(("plain",))
    assert part is not None
    return unflow(str(part.get_content()))


ROCK = "Rock & Roll's"
TAKEN = f'looks just like "{ROCK}", the name of team 1'
#: The same name with a Cyrillic о, with U+034F after a letter (refused first as a character
#: that cannot be seen), in capitals, with wider spaces, with a fullwidth R; and the reason.
LOOKALIKES = (
    ("R\u043eck & Roll's", TAKEN),
    ("Ro\u034fck & Roll's", "cannot be seen (U+034F COMBINING GRAPHEME JOINER)"),
    ("ROCK & ROLL'S", TAKEN),
    ("Rock  &  Roll's", TAKEN),
    ("\uff32ock & Roll's", TAKEN),
)
FILLERS = ("\u3164", "\u115f", "\u1160", "\uffa0")
_DI = regex.compile(r"\p{Default_Ignorable_Code_Point}")
DEFAULT_IGNORABLE = tuple(chr(c) for c in range(0x110000) if _DI.match(chr(c)))


def _team(daemon: Daemon, number: int) -> Team:
    with transaction(daemon.app.sessions) as s:
        seat = s.scalars(select(Seat).where(Seat.number == number)).one()
        return Team.from_json(seat.team)


@pytest.mark.parametrize(("name", "reason"), LOOKALIKES)
def test_a_team_name_like_another_teams_is_refused_and_says_whose(
    daemon: Daemon, sender: RecordingSender, demo: str, name: str, reason: str
) -> None:
    """Seat 1 is Rock & Roll's; seat 2's mail naming its team the same with a Cyrillic о, an
    invisible joiner, in capitals, with wider spaces or a fullwidth letter is refused: the
    reply names the team already called so, and seat 2 keeps the name it had."""
    one = join(daemon, sender, "one@example.test")
    two = join(daemon, sender, "two@example.test")
    [ok] = say(daemon, sender, f"SECRET {one}\nTEAM NAME {ROCK}\n", frm="one@example.test")
    assert _team(daemon, 1).name == ROCK, body_of(ok)
    before = _team(daemon, 2).name
    [reply] = say(daemon, sender, f"SECRET {two}\nTEAM NAME {name}\n", frm="two@example.test")
    body = _read(reply)
    assert "NOT accepted" in str(reply["Subject"]), body
    assert reason in body
    assert _team(daemon, 2).name == before


def test_a_lookalike_team_name_costs_only_its_own_part(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The slot names in the same mail are kept: only the team name is refused."""
    one = join(daemon, sender, "one@example.test")
    two = join(daemon, sender, "two@example.test")
    say(daemon, sender, f"SECRET {one}\nTEAM NAME {ROCK}\n", frm="one@example.test")
    mail = f"SECRET {two}\nTEAM NAME R\u043eck & Roll's\nNAME 5 Zippy\n"
    [reply] = say(daemon, sender, mail, frm="two@example.test")
    body = _read(reply)
    assert "looks just like" in body and "Zippy" in body
    team = _team(daemon, 2)
    assert team.players[4].name == "Zippy" and team.name != "R\u043eck & Roll's"


def test_a_team_may_send_its_own_name_again(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A team's own name is never taken from it: sending it again is accepted."""
    one = join(daemon, sender, "one@example.test")
    say(daemon, sender, f"SECRET {one}\nTEAM NAME {ROCK}\n", frm="one@example.test")
    [reply] = say(daemon, sender, f"SECRET {one}\nTEAM NAME {ROCK}\n", frm="one@example.test")
    assert "looks just like" not in _read(reply)
    assert _team(daemon, 1).name == ROCK


def test_a_squad_name_like_a_teammates_is_refused(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """NAME orders are compared the same way within the squad: "Zippy" with a Cyrillic о
    (here і and р) beside Zippy is refused, and the reply names the squad member."""
    one = join(daemon, sender, "one@example.test")
    [reply] = say(
        daemon,
        sender,
        f"SECRET {one}\nNAME 1 Zippy\nNAME 2 Z\u0456\u0440py\n",
        frm="one@example.test",
    )
    body = _read(reply)
    assert "looks just like 'Zippy', the name of squad member 1" in body, body
    team = _team(daemon, 1)
    assert team.players[0].name == "Zippy" and team.players[1].name != "Z\u0456\u0440py"


@pytest.mark.parametrize("filler", FILLERS)
def test_an_invisible_team_name_is_refused_by_mail(
    daemon: Daemon, sender: RecordingSender, demo: str, filler: str
) -> None:
    """A team named with Hangul fillers (which Python counts as letters) would show blank
    in every table: the reply refuses it, naming the character by its code point."""
    one = join(daemon, sender, "one@example.test")
    before = _team(daemon, 1).name
    [reply] = say(daemon, sender, f"SECRET {one}\nTEAM NAME {filler * 3}\n", frm="one@example.test")
    body = _read(reply)
    assert "cannot be seen" in body and f"U+{ord(filler):04X}" in body, body
    assert _team(daemon, 1).name == before


def test_every_default_ignorable_code_point_is_refused_in_a_name() -> None:
    """Every Default_Ignorable_Code_Point (all 4,000-odd, the unassigned ones too), alone,
    after a letter and between letters, makes a name the rules refuse, saying it cannot be
    seen; the same name without it is accepted."""
    assert len(DEFAULT_IGNORABLE) > 4000 and set(FILLERS) <= set(DEFAULT_IGNORABLE)
    assert "\u034f" in DEFAULT_IGNORABLE
    assert check_name("Rock") is None
    for ch in DEFAULT_IGNORABLE:
        for name in (ch, f"R{ch}", f"Ro{ch}ck", f"{ch}Rock"):
            problem = check_name(name)
            assert problem is not None and "cannot be seen" in problem, (hex(ord(ch)), problem)
        assert is_invisible(ch)


def test_the_skeleton_follows_ts39() -> None:
    """TS #39's skeleton: confusables map to their prototype (Cyrillic о to o, "m" and "rn"
    alike), default-ignorables vanish, and a name's own letters stand."""
    assert skeleton("R\u043eck") == skeleton("Rock") == "Rock"
    assert skeleton("Ro\u034fck") == "Rock"
    assert skeleton("Bam") == skeleton("Barn")
    assert skeleton("\u0131") != skeleton("Rock")
    assert lookalike_key("Iris")[0] == lookalike_key("lris")[0]
    assert lookalike_key("IRIS")[1] == lookalike_key("iris")[1]
    assert lookalike_key("Gloopers") != lookalike_key("Gluepers")


_LETTERS = st.characters(categories=("Lu", "Ll"), max_codepoint=0x24F)


@given(st.text(_LETTERS, min_size=1, max_size=20), st.sampled_from(DEFAULT_IGNORABLE))
def test_an_invisible_character_never_changes_the_skeleton(name: str, ch: str) -> None:
    """Any name, with a default-ignorable inserted anywhere, has the same skeleton: so an
    invisible character cannot make a second name that looks like the first."""
    for at in range(len(name) + 1):
        assert skeleton(name[:at] + ch + name[at:]) == skeleton(name)


@given(st.text(_LETTERS, min_size=1, max_size=20))
def test_the_skeleton_does_not_depend_on_normalisation(name: str) -> None:
    """The skeleton is in NFD, and a name typed composed (NFC) or decomposed (NFD) has one
    skeleton: "é" as one character or as e and an accent is one name."""
    once = skeleton(name)
    assert unicodedata.normalize("NFD", once) == once
    for form in ("NFC", "NFD"):
        assert skeleton(unicodedata.normalize(form, name)) == once


def test_the_other_teams_lookalike_keys_are_kept_by_the_app(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The look-alike keys of the names a naming mail compares are kept by the App's
    ``Kept`` (not a module global), and a look-alike is refused the same when the other
    team's key is read from there."""
    one = join(daemon, sender, "one@example.test")
    two = join(daemon, sender, "two@example.test")
    shelf = daemon.app.kept.shelf(_LOOKALIKE_KEYS)
    assert len(shelf) == 0
    say(daemon, sender, f"SECRET {one}\nTEAM NAME {ROCK}\n", frm="one@example.test")
    assert shelf.get(ROCK, None, lambda: ("", "")) == lookalike_key(ROCK)
    mail = f"SECRET {two}\nTEAM NAME ROCK & ROLL'S\n"
    [again] = say(daemon, sender, mail, frm="two@example.test")
    assert TAKEN in _read(again)
    assert _team(daemon, 2).name != "ROCK & ROLL'S"
