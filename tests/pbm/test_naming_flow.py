"""Naming a squad by mail: echo, errors with carets, replacement with a diff, the deadline."""

from __future__ import annotations

from sqlalchemy import select

from engine.flungo.squad import Team
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import NamingVersion, Seat
from pbm.db.session import transaction
from pbm.games.flungo.defaults import standing_orders, will_play
from pbm.games.flungo.standing import current_orders
from pbm.testing import RecordingSender, body_of
from tests.pbm.helpers import LONG_NAMES, join, naming_text, say


def _seat(daemon: Daemon, number: int = 1) -> Seat:
    with transaction(daemon.app.sessions) as s:
        return s.scalars(select(Seat).where(Seat.number == number)).one()


def test_naming_is_applied_and_echoed(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """A full naming with the secret is stored, the team marked named, the names echoed."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, naming_text(secret))
    body = body_of(reply)
    assert "version 1" in str(reply["Subject"])
    assert "team name: The Gloopers" in body and "name 18: Celeb 18" in body
    seat = _seat(daemon)
    assert seat.named and seat.naming_version == 1
    team = Team.from_json(seat.team)
    assert team.name == "The Gloopers" and team.players[0].name == "Celeb 1"


def test_naming_errors_listed_with_line_and_caret(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Errors are listed with their line number and a caret; they block only their own part,
    so the good team name is kept (names merge by part)."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, f"SECRET {secret}\nTEAM NAME Ok\nNAME 19 Nobody\nNAMEE 2 Zippy\n")
    body = body_of(reply)
    assert "version 1), 2 error(s)" in str(reply["Subject"])
    assert "line 3" in body and "slots are 1 to 18" in body
    assert "did you mean 'name'?" in body
    assert "\n  NAMEE 2 Zippy\n  ^^^^^\n" in body  # the line and its caret, two in
    assert _seat(daemon).naming_version == 1
    assert Team.from_json(_seat(daemon).team).name == "Ok"


def test_a_mail_with_only_errors_changes_nothing(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """When every part a mail gives has an error, nothing changes and the reply says so."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, f"SECRET {secret}\nNAME 19 Nobody\n")
    assert "NOT accepted" in str(reply["Subject"])
    assert _seat(daemon).naming_version == 0


def test_sending_again_replaces_and_shows_diff(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A second naming replaces the first, and the reply lists exactly what changed."""
    secret = join(daemon, sender, "player1@example.test")
    say(daemon, sender, naming_text(secret))
    text = naming_text(secret, team="The Gloopers").replace("NAME 5 Celeb 5", "NAME 5 Zippy")
    [reply] = say(daemon, sender, text)
    body = body_of(reply)
    assert "version 2" in str(reply["Subject"])
    assert "Celeb 5 -> Zippy" in body
    assert body.count(" -> ") == 1
    with transaction(daemon.app.sessions) as s:
        assert len(s.scalars(select(NamingVersion)).all()) == 2


def test_partial_naming_is_not_fully_named(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Naming only some slots is accepted but the team is not marked named."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, f"SECRET {secret}\nTEAM NAME Half\nNAME 1 Zippy\n")
    body = body_of(reply)
    assert "not all named yet" in body
    assert max(len(line) for line in body.splitlines() if "Still" in line) <= 78  # wrapped
    words = " ".join(body.split())
    assert (
        "Still to name: slots 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18." in words
    )
    assert not _seat(daemon).named


def test_a_team_named_as_its_placeholder_is_told_it_is_not_named(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A team given the name it carries until named ("Team 1") still counts as unnamed, and
    the reply says why, instead of only "not all named yet"."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, naming_text(secret, team="Team 1"))
    body = body_of(reply)
    assert "Your team: Team 1 (not all named yet)" in body
    words = " ".join(body.split())
    assert (
        'Still to name: the team itself ("Team 1" is the name it has until you name it).' in words
    )
    assert not _seat(daemon).named
    [again] = say(daemon, sender, f"SECRET {secret}\nTEAM NAME The Gloopers\n")
    assert "(fully named)" in body_of(again) and "Still to name" not in body_of(again)
    assert _seat(daemon).named


def test_naming_after_deadline_is_refused(
    daemon: Daemon, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """After the naming deadline the names stand and a naming mail is refused."""
    secret = join(daemon, sender, "player1@example.test")
    clock.advance(30 * 86400)
    [reply] = say(daemon, sender, naming_text(secret))
    assert "closed" in str(reply["Subject"])
    assert _seat(daemon).naming_version == 0


def test_rename_by_placeholder_name(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """A squad member can be named by its placeholder name as well as by slot."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, f"SECRET {secret}\nNAME Batsman 2 AS Bungle\n")
    assert "version 1" in str(reply["Subject"])
    assert Team.from_json(_seat(daemon).team).players[3].name == "Bungle"


def test_duplicate_names_are_an_error(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """Two squad members may not share a name."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, f"SECRET {secret}\nNAME 1 Zippy\nNAME 2 zippy\n")
    assert "already the name of squad member 1" in body_of(reply)


def test_quoted_reply_does_not_leak_into_orders(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Quoted text of our own welcome mail below the orders is not read as orders."""
    secret = join(daemon, sender, "player1@example.test")
    text = naming_text(secret) + "\nOn Thu, 1 Jan 2026 pbm wrote:\n> TEAM NAME Quoted\n> NAME 1 Q\n"
    [reply] = say(daemon, sender, text)
    assert "version 1" in str(reply["Subject"])
    assert Team.from_json(_seat(daemon).team).name == "The Gloopers"


def test_error_lines_are_numbered_as_the_player_wrote_them(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """An error's line number counts the SECRET line too: it is the line in the player's mail."""
    secret = join(daemon, sender, "player1@example.test")
    text = f"Hi GM,\nSECRET {secret}\nTEAM NAME The Gloopers\nNAME 19 Nobody\n"
    [reply] = say(daemon, sender, text)
    body = body_of(reply)
    assert "line 4, column" in body
    assert "NAME 19 Nobody" in body
    assert secret not in body


def test_a_one_line_rename_keeps_the_other_names(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """ "rename X as Y" changes one slot; the other 17 names and the team name stand, and the
    current name or the placeholder both find the slot."""
    secret = join(daemon, sender, "player1@example.test")
    say(daemon, sender, naming_text(secret))
    base = Team.from_json(_seat(daemon).team)
    [reply] = say(daemon, sender, f"SECRET {secret}\nrename Celeb 5 as Pat Butcher\n")
    assert "NOT accepted" not in str(reply["Subject"])
    team = Team.from_json(_seat(daemon).team)
    assert team.name == "The Gloopers" and team.players[4].name == "Pat Butcher"
    assert [p.name for p in team.players if p.name != "Pat Butcher"] == [
        p.name for i, p in enumerate(base.players) if i != 4
    ]
    say(daemon, sender, f"SECRET {secret}\nrename Pat Butcher as Dot Cotton\n")
    assert Team.from_json(_seat(daemon).team).players[4].name == "Dot Cotton"


def test_a_numbered_list_names_the_squad(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """ "1. Homer Simpson" ... "18. Lionel Hutz" names the 18 slots, with chatter around it."""
    secret = join(daemon, sender, "player1@example.test")
    names = [f"Simpson {chr(65 + i)}" for i in range(18)]
    text = "Hi GM\n" + "\n".join(f"{i}. {n}" for i, n in enumerate(names, 1)) + "\nbob\n"
    [reply] = say(daemon, sender, f"SECRET {secret}\n{text}")
    assert "version 1" in str(reply["Subject"]) and "error" not in str(reply["Subject"])
    assert [p.name for p in Team.from_json(_seat(daemon).team).players] == names


def test_every_acknowledgement_shows_what_stands(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A mail of names only still shows the standing orders, unchanged."""
    secret = join(daemon, sender, "player1@example.test")
    say(daemon, sender, f"SECRET {secret}\ntoss: bowl\n")
    [reply] = say(daemon, sender, f"SECRET {secret}\nNAME 5 Zippy\n")
    body = body_of(reply)
    assert "Your standing orders for the next match are unchanged (version 1)" in body
    assert "toss: bowl" in body


def test_the_squad_table_is_as_wide_as_the_longest_name(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The reply's squad rows pad names to the squad's longest one, not to 40 characters, so
    a squad of short names fits a phone's screen; the roles still line up in one column."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, naming_text(secret))
    rows = [
        ln for ln in body_of(reply).splitlines() if ln[:4].strip().isdigit() and ln[4:6] == "  "
    ]
    assert len(rows) == 18
    longest = max(len(f"Celeb {n}") for n in range(1, 19))
    assert all(row[6 : 6 + longest].rstrip().startswith("Celeb ") for row in rows)
    assert {row[6 + longest : 8 + longest] for row in rows} == {"  "}
    assert all(row[8 + longest] != " " for row in rows)  # the role starts right after
    assert max(len(row) for row in rows) <= 8 + longest + len("Bowling All-rounder")


def test_the_next_deadline_stands_apart_from_the_echo(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Before the draw there is no next match: the deadline's line is set off by a blank line
    from the echoed orders above it, not glued to the last of them (read at phone width)."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, naming_text(secret))
    assert "name 18: Celeb 18\n\nThe next deadline: the naming deadline" in body_of(reply)


def _name_all(secret: str, names: tuple[str, ...] = LONG_NAMES) -> str:
    lines = [f"SECRET {secret}", "TEAM NAME The Gungeworth Gloopers"]
    return "\n".join(lines + [f"NAME {i} {n}" for i, n in enumerate(names, start=1)]) + "\n"


def _listed(body: str, label: str) -> list[str]:
    """The entries of the first ``label:`` list in ``body``, its continuation lines (those
    further in than it) joined on."""
    lines = body.splitlines()
    at = next(i for i, x in enumerate(lines) if x.lstrip().startswith(label + ":"))
    indent = len(lines[at]) - len(lines[at].lstrip())
    text = lines[at].lstrip()[len(label) + 1 :]
    for line in lines[at + 1 :]:
        if len(line) - len(line.lstrip()) <= indent:
            break
        text += "," + line
    return [n.strip() for n in text.split(",") if n.strip()]


def _will_play_orders(body: str) -> str:
    """The order lines of the reply's "What pbm will play" block (its notes left out)."""
    lines = body.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("What pbm will play"))
    start = next(i for i in range(start, len(lines)) if lines[i].endswith("):")) + 1
    out = []
    for line in lines[start:]:
        if line.startswith(("  (", "To change")):
            break
        out.append(line)
    return "\n".join(out)


def test_a_naming_reply_of_long_names_fits_a_phone(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A reply to a squad of 18 real, long-ish names has no line over 78 characters, and its
    XI and batting order, their wrapped lines joined, still give every name of what pbm
    will play, in order."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, _name_all(secret))
    body = body_of(reply)
    assert "version 1" in str(reply["Subject"]) and "error" not in str(reply["Subject"])
    assert max(len(line) for line in body.splitlines()) <= 78, body
    seat = _seat(daemon)
    [xi_line] = [x for x in will_play(Team.from_json(seat.team), None, "t20").lines if "xi:" in x]
    xi = xi_line.removeprefix("xi: ").split(", ")
    assert len(xi) == 11 and set(xi) <= set(LONG_NAMES)
    assert len(", ".join(xi)) > 78  # the lists are long enough to need wrapping
    assert _listed(body, "xi") == xi
    assert _listed(body, "batting order") == xi


def test_what_pbm_will_play_can_be_sent_back_as_it_reads(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The wrapped orders of "What pbm will play" are still orders: sent back as they stand
    in the reply, they are read without an error as the same XI and batting order."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, _name_all(secret))
    orders = _will_play_orders(body_of(reply))
    assert "\n    " in orders  # wrapped
    [ack] = say(daemon, sender, f"SECRET {secret}\n{orders}\n")
    assert "Orders received (version 1)" in str(ack["Subject"]), body_of(ack)
    assert "error" not in str(ack["Subject"]), body_of(ack)
    seat = _seat(daemon)
    with transaction(daemon.app.sessions) as s:
        row = current_orders(s, s.merge(seat))
        assert row is not None
        standing = standing_orders(row.text, Team.from_json(seat.team), "t20")
    assert standing is not None and standing.match is not None
    assert standing.match.xi == tuple(_listed(body_of(reply), "xi"))
    assert standing.match.batting_order == tuple(_listed(body_of(reply), "batting order"))


def test_a_long_change_wraps_under_the_old_name(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A change to a 40-character name runs past 78 columns on one line: it is wrapped, the
    new name whole on the next line, under the old one."""
    secret = join(daemon, sender, "player1@example.test")
    long = "Sir Bartholomew Featherstonehaugh-Smythe"
    [reply] = say(daemon, sender, f"SECRET {secret}\nNAME 10 {long}\n")
    lines = body_of(reply).splitlines()
    assert max(len(line) for line in lines) <= 78
    at = next(i for i, x in enumerate(lines) if "Batting All-rounder: Batting All-rounder 1" in x)
    assert lines[at] == "  10 Batting All-rounder: Batting All-rounder 1 ->"
    assert lines[at + 1] == " " * len("  10 Batting All-rounder: ") + long


def test_a_naming_mail_writes_the_seat_once_and_reads_its_player_once(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The squad goes in by one UPDATE of the seat (no flush writes it again), and the player
    found with the seat is the one the reply's time zone comes from: no second players query.
    A second naming then reads as version 2, so the values the seat was given held."""
    from typing import Any

    from sqlalchemy import event

    secret = join(daemon, sender, "player1@example.test")
    seen: list[str] = []

    def log(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(daemon.app.db_engine, "before_cursor_execute", log)
    try:
        [reply] = say(daemon, sender, naming_text(secret))
    finally:
        event.remove(daemon.app.db_engine, "before_cursor_execute", log)
    assert "version 1" in str(reply["Subject"])
    seat_writes = [st for st in seen if st.startswith("UPDATE seats")]
    assert len(seat_writes) == 1 and "team=" in seat_writes[0]
    assert not [st for st in seen if "FROM players WHERE players.id" in st]
    seat = _seat(daemon)
    assert seat.named and seat.naming_version == 1
    [again] = say(daemon, sender, f"SECRET {secret}\nTEAM NAME The Second\n")
    assert "version 2" in str(again["Subject"])
    assert Team.from_json(_seat(daemon).team).name == "The Second"
