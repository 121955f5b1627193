"""Templates: every email kind renders with a sample context; player text stays on one line."""

from __future__ import annotations

from typing import Any

import pytest
from jinja2 import UndefinedError

from pbm.core.config import ServerConfig
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck
from pbm.games.hitforsix.previews import contexts as hitforsix_previews
from pbm.games.hitforsix.previews._data import H6CARD
from pbm.mail.flowed import as_fixed, unflow
from pbm.outbound.previews import digest as digest_preview
from pbm.outbound.render import email_kinds, render_email
from pbm.outbound.render.env import oneline
from pbm.outbound.render.tables import CARD_WIDTH, SHORT_COUNTRIES, card_table

COMP = {
    "code": "DEMO",
    "name": "Demo Cup",
    "format": "Twenty20",
    "teams": 4,
    "naming_deadline": "2026-01-15 00:00 UTC",
    "house_rules": ["no bowler bowls two overs running (the cricket law)"],
    "no_consecutive_overs": True,
    "hundred_tiebreak": False,
    "hundred": False,
}
ROW = {
    "slot": 1,
    "name": "Zippy",
    "role": "Star Batsman",
    "batting": 22,
    "bowling": 7,
    "fielding": 3,
    "style": "spin",
}
WILL_PLAY = {"lines": ["toss: bat"], "notes": ["the default plan"], "version": 2, "retired": False}
TEAM_ROW = {
    "seat": 1,
    "team": "X",
    "address": "a@x",
    "sent": True,
    "defaults": False,
    "retired": False,
    "house": False,
    "missed": 3,
    "away": None,
    "bouncing": True,
}
SAMPLES: dict[str, dict[str, Any]] = {
    "join": {"competition": COMP, "seat": 1, "team_name": "Team 1", "secret": "S", "squad": [ROW]},
    "join-refused": {"competition": COMP, "outcome": "full", "team_name": ""},
    "naming": {
        "competition": COMP,
        "accepted": True,
        "errors": [],
        "echo": "TEAM X",
        "changes": [{"what": "Team name", "old": "Team 1", "new": "X"}],
        "squad": [ROW],
        "team_name": "X",
        "named": False,
        "version": 1,
        "naming": True,
        "orders_version": 2,
        "standing": "toss: bat",
        "flags": [{"line": 3, "text": "after 10 overs go bananas"}],
        "will_play": WILL_PLAY,
        "deadline": "2026-01-02 20:00 UTC",
        "fixture": "Round 1: X v Y at The Gunge Bowl (Average; Normal), turns 1-4",
    },
    "turn-report": {
        "competition": COMP,
        "stage": "Turn 2",
        "issue": 3,
        "season": ["X won by 3 runs"],
        "table": "Pos Team",
        "table_rows": [["1", "X", "1", "1", "0", "0", "2", "+1.000"]],
        "champion": None,
        "next": {"label": "Turn 3", "selection": False},
        "editorial": "Hello",
        "team_name": "X",
        "match": {
            "label": "Round 1",
            "fixture_id": "R1M1",
            "opponent": "Y",
            "card": "card",
            "scorecard": {"head": ["Twenty20: X v Y"], "innings": []},
            "events": ["drinks"],
            "xis": [{"team": "X", "xi": "A, B", "captain": "A", "keeper": "B"}],
            "defaults": True,
            "result": "X won by 3 runs",
            "seed": 7,
            "seed_sha256": "ab",
            "orders": [{"team": "X", "text": "toss: bat"}],
        },
        "bye": False,
        "fixture": None,
        "deadline": "2026-01-02 20:00 UTC",
        "will_play": WILL_PLAY,
    },
    "turn-digest": {
        "competition": COMP,
        "stage": "Turn 2",
        "issue": 3,
        "season": ["X won"],
        "champion": "X",
        "held": None,
        "teams": [TEAM_ROW],
        "flags": [{"id": 1, "line": 2, "text": "t"}],
        "bounces": [{"address": "a@x", "reason": "r"}],
        "dead_letters": [{"id": 1, "from": "a@x"}],
        "next_deadline": "none",
        "deadline_note": "Turn 3 opened late: its slot Thursday 3 December, 20:00 UTC had passed",
    },
    "fixtures": {
        "competition": COMP,
        "team_name": "X",
        "fixtures": ["Round 1: X v Y"],
        "byes": ["Round 1: Z"],
        "fixture": "Round 1: X v Y",
        "stage": "Round 1: selection and toss",
        "deadline": "2026-01-02 20:00 UTC",
        "will_play": WILL_PLAY,
    },
    "reminder": {
        "competition": COMP,
        "team_name": "X",
        "stage": "Turn 1",
        "deadline": "2026-01-02 20:00 UTC",
        "fixture": None,
        "will_play": WILL_PLAY,
    },
    "gm-hold": {
        "competition": COMP,
        "stage": "Turn 1",
        "reason": "3 of 4 sent nothing",
        "teams": [TEAM_ROW],
        "dead_letters": [],
    },
    "gm-notice": {
        "competition": COMP,
        "headline": "a@x resigned from X (team 1)",
        "lines": ["The standby list is empty: the team plays on its standing orders."],
    },
    "notice": {
        "competition": COMP,
        "title": "A team needs a manager: X",
        "lines": ["To take the team, mail JOIN with [DEMO] in the subject."],
    },
    "answer": {
        "competition": COMP,
        "title": "Status",
        "sections": [{"heading": "Where", "text": "Turn 1"}],
        "will_play": WILL_PLAY,
        "deadline": "2026-01-02 20:00 UTC",
    },
    "rules": {"competition": COMP},
    "gm-done": {"command": "HOLD", "line": "HOLD DEMO", "ok": True, "text": "held"},
    "name-rejected": {
        "competition": COMP,
        "team_name": "X",
        "old": "Zippy",
        "reason": "never on TV",
        "naming_deadline": "2026-01-02 20:00 UTC",
    },
    "flag-resolved": {
        "competition": COMP,
        "team_name": "X",
        "line": 3,
        "text": "after 10 overs go bananas",
        "resolution": "after 10 overs: all batsmen aggressive",
        "version": 3,
        "note": None,
    },
    "naming-closed": {"competition": COMP},
    "auth-refused": {"reason": "no secret"},
    "rate-limited": {"limit": 30},
    "help": {
        "competitions": [COMP],
        "commands": [
            {"word": "JOIN", "usage": "JOIN", "help": "take a team", "gm": False},
            {"word": "HOLD", "usage": "HOLD <CODE>", "help": "hold", "gm": True},
        ],
    },
    "not-understood": {"unknown_code": "NOPE", "competitions": [COMP]},
    "digest": digest_preview.context(),
    "refused": {"reason": "your mail has 9999 lines of text; pbm reads at most 400"},
    "gm-alert": {"mail_id": 3, "sender": "a@x", "subject": "s", "error": "E"},
    "new-secret": {"competition": COMP, "team_name": "X", "secret": "S"},
    "gm-created": {"problem": None, "competition": COMP, "address": "pbm@example.test"},
}
H6_SAMPLES = hitforsix_previews()
SAMPLES.update(H6_SAMPLES)
SERVER = ServerConfig(address="pbm@example.test")


def test_samples_cover_every_kind() -> None:
    """There is a sample context for every email kind in templates/email."""
    assert sorted(SAMPLES) == email_kinds()


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_template_renders(kind: str) -> None:
    """Each kind renders a one-line subject and a non-empty body with its notes."""
    out = render_email(kind, {"server": SERVER, "notes": ["a note"], **SAMPLES[kind]})
    assert out.subject and "\n" not in out.subject
    assert out.text.strip()


def test_missing_variable_is_an_error() -> None:
    """The environment is strict: a missing variable raises instead of rendering blank."""
    with pytest.raises(UndefinedError):
        render_email("auth-refused", {"server": SERVER, "notes": []})


def test_player_text_cannot_break_lines_in_subject() -> None:
    """A team name with line breaks renders on one line in a subject."""
    ctx = {**SAMPLES["join"], "team_name": "Evil\r\nBcc: x@y", "server": SERVER, "notes": []}
    assert "\n" not in render_email("join", ctx).subject
    assert oneline("a\u2028b\x00c") == "a b c"


# Long but allowed values: 40-character names (the most a name may have), a long competition
# name, a deadline in a second zone, full XIs.
TEAM40 = "The Gungeworth Gloopers of Lower Slaught"
NAME40 = "Sir Bartholomew Featherstonehaugh-Smythe"
LONG_XI = [
    "Brian Cant",
    "Zippy",
    "Mrs Snodgebucket",
    "Geoffrey Hayes",
    "Floella Benjamin",
    "Roy Castle",
    "Keith Harris",
    "Isla St Clair",
    "Derek Griffiths",
    "Bernard Cribbins",
    NAME40,
]
#: A hand of the longest name in any shipped deck (24), the longest country (a short form)
#: and the widest figures any deck holds.
LONG_HAND = [
    {**H6CARD, "pos": 30, "name": "Praveen Santhanakrishnan", "country": "Cook Islands",
     "matches": 331, "runs": 14059, "avg": "123.4", "sr": "300.0", "sixes": 338,
     "wickets": 682, "econ": "36.00"},
    {**H6CARD, "country": "United States of America"},
]  # fmt: skip
LONG_COMP = {
    **COMP,
    "name": "The Grand Intergalactic Celebrity Cup",
    "naming_deadline": "2026-01-15 00:00 UTC (01:00 in Europe/Paris)",
}
LONG_DEADLINE = "2026-01-02 20:00 UTC (2026-01-03 07:00 in Australia/Melbourne)"
LONG_FIXTURE = (
    f"Semi-final 2: {TEAM40} v Gamma Gnus at Reverse Sweep Ridge (Uneven bouncer; Overcast), "
    "turns 1-4"
)
LONG_ORDERS = "xi: " + ", ".join(LONG_XI) + "\nbatting order: " + ", ".join(LONG_XI)
LONG_WILL_PLAY = {
    "lines": [
        *LONG_ORDERS.splitlines(),
        f"if we are 50 for 3 after 10 overs and {NAME40} is out: all batsmen bat defensive",
    ],
    "notes": [
        "bowling: the default plan (the best bowlers for the pitch, at most 4 overs each, "
        "never 3 in a row)"
    ],
    "fitness": [
        f"{NAME40} is injured (2 injury points): he sits out your next match (Semi-final 2) "
        f'unless treated; to play him send "treat {NAME40}: 2" (2 of your 6 helper points; '
        f"the default spend treats nobody); {LONG_XI[3]} plays in his place in your XI"
    ],
    "version": 12,
    "retired": True,
    "names": LONG_XI,
}
LONG_SENTENCE = f"after ten overs if {NAME40} is still in then everyone goes bananas"
LONG: dict[str, dict[str, Any]] = {
    "join": {"competition": LONG_COMP},
    "join-refused": {"competition": LONG_COMP, "team_name": TEAM40, "outcome": "already"},
    "naming-closed": {"competition": LONG_COMP},
    "new-secret": {"competition": LONG_COMP, "team_name": TEAM40},
    "name-rejected": {
        "competition": LONG_COMP,
        "team_name": TEAM40,
        "old": NAME40,
        "reason": "never on TV or radio, as far as the GM can find after a long search",
        "naming_deadline": LONG_DEADLINE,
    },
    "flag-resolved": {
        "competition": LONG_COMP,
        "team_name": TEAM40,
        "text": LONG_SENTENCE,
        "resolution": LONG_ORDERS,
    },
    "not-understood": {"competitions": [{**LONG_COMP, "name": LONG_COMP["name"] + " of 2026"}]},
    "refused": {"reason": "your mail has 9999 lines of text; pbm reads at most 400 lines"},
    "auth-refused": {"reason": "the secret does not match your team's secret: " * 3},
    "rate-limited": {"limit": 1000},
    "fixtures": {
        "competition": LONG_COMP,
        "team_name": TEAM40,
        "fixtures": [LONG_FIXTURE],
        "byes": [f"Round 1: {TEAM40}"],
        "fixture": LONG_FIXTURE,
        "deadline": LONG_DEADLINE,
        "will_play": LONG_WILL_PLAY,
    },
    "reminder": {
        "competition": LONG_COMP,
        "team_name": TEAM40,
        "stage": "Round 1: selection and toss",
        "deadline": LONG_DEADLINE,
        "fixture": LONG_FIXTURE,
        "will_play": LONG_WILL_PLAY,
    },
    "answer": {
        "competition": LONG_COMP,
        "title": f"Status of {TEAM40}",
        "sections": [{"heading": "Your next match", "text": LONG_FIXTURE}],
        "will_play": LONG_WILL_PLAY,
        "deadline": LONG_DEADLINE,
    },
    "help": {
        "competitions": [LONG_COMP],
        "commands": [
            {
                "word": "SCOUT",
                "usage": "SCOUT <team name>",
                "help": "what a manager could know of a team: its published XIs, form, "
                "next pitch and weather",
                "gm": False,
            }
        ],
    },
    "turn-report": {
        "competition": LONG_COMP,
        "team_name": TEAM40,
        "editorial": "The GM's word on the weather, the pitch and the form of the teams, "
        "in one line well past the width of a phone.",
        "season": [f"{TEAM40} beat The Intergalactic Celebrity Wanderers by 3 runs"],
        "match": {
            **SAMPLES["turn-report"]["match"],
            "opponent": TEAM40,
            "names": LONG_XI,
            "xis": [
                {"team": TEAM40, "xi": ", ".join(LONG_XI), "captain": NAME40, "keeper": "Zippy"}
            ],
            "events": [f"{NAME40} retired hurt: 2 injury points; a substitute fields for him"],
            "card": "  Did not bat: " + ", ".join(LONG_XI),
            "result": f"{TEAM40} won by 3 runs",
            "seed_sha256": "ab" * 32,
            "orders": [{"team": TEAM40, "text": LONG_ORDERS}],
        },
        "next": {"label": "Round 2: selection and toss", "selection": True},
        "fixture": LONG_FIXTURE,
        "deadline": LONG_DEADLINE,
        "will_play": LONG_WILL_PLAY,
    },
    "naming": {
        "competition": LONG_COMP,
        "team_name": TEAM40,
        "named": False,
        "unnamed": ["slots " + ", ".join(str(n) for n in range(2, 19))],
        "changes": [
            {"what": "10 Batting All-rounder", "old": "Batting All-rounder 1", "new": NAME40}
        ],
        "still_stands": [
            "Your batting order had an error: the batting order of version 12 still stands."
        ],
        "flags": [{"line": 3, "text": LONG_SENTENCE, "readings": LONG_ORDERS.splitlines()}],
        "echo": LONG_ORDERS,
        "standing": LONG_ORDERS,
    },
    "h6-averages": {"name": NAME40, "deck": "t20i-2024"},
    "h6-deal": {
        "hand": LONG_HAND,
        "came_in": LONG_XI,
        "hint": "window 1: drop up to 3 of the men held, by "
        "position, name or initials, e.g. 2, Kohli, VK",
    },
    "h6-result": {"best": LONG_XI, "resemblance": {"name": NAME40, "country": "West Indies"}},
    "h6-refused": {"reason": "that deck is not dealt any more; send DECKS for the decks"},
    "h6-test-over": {
        "hand": LONG_HAND,
        "came_in": LONG_XI,
        "rule": "Wickets in the powerplay",
    },
    "h6-test-sealed": {"notes": [f"window 2: {NAME40} is not held, so that drop was skipped"]},
}
GM_KINDS = {
    "digest",
    "gm-alert",
    "gm-created",
    "gm-done",
    "gm-hold",
    "gm-notice",
    "turn-digest",
}


def _whole_lines(text: str) -> set[str]:
    """The lines that are not text to wrap: the AVERAGES line to send back, which must stay
    one line (with a 40-character name it is 85 long), and a receipt's check command to
    paste into a shell (the text it hashes cannot be broken)."""
    return {
        line
        for line in text.splitlines()
        if line.startswith(("    AVERAGES ", "    printf '%s' 'h6-receipt:"))
    }


NOTE = "Not read as orders: line(s) " + ", ".join(str(n) for n in range(1, 30)) + "."


@pytest.mark.parametrize("kind", sorted(set(SAMPLES) - GM_KINDS))
def test_every_player_mail_fits_78_columns(kind: str) -> None:
    """Every mail a player gets, rendered with the longest names and the longest lists its
    values allow, has no line over 77 characters as written and none over 78 as sent
    (flowed: a soft line's trailing space, a stuffed line's leading one), but a line to send
    back that cannot be broken."""
    ctx = {"server": SERVER, "notes": [NOTE], **SAMPLES[kind], **LONG.get(kind, {})}
    rendered = render_email(kind, ctx)
    whole = _whole_lines(rendered.text)
    assert [
        line for line in rendered.text.splitlines() if len(line) > 77 and line not in whole
    ] == []
    sent = [line for line in rendered.flowed.split("\n") if line.removeprefix(" ") not in whole]
    assert [line for line in sent if len(line) > 78] == []


def test_a_mail_goes_out_flowed_its_paragraphs_joined_by_a_reader_that_flows() -> None:
    """A mail's paragraphs are sent as soft lines (RFC 3676), which a phone's flowing reader
    joins and fills to its own width; its tables, indented lines and signature stay as
    written, stuffed where they start with a space."""
    ctx = {"server": SERVER, "notes": [NOTE], **SAMPLES["naming"], **LONG["naming"]}
    rendered = render_email("naming", ctx)
    assert "\x1f" not in rendered.text + rendered.flowed
    assert as_fixed(rendered.flowed) == rendered.text
    read = unflow(rendered.flowed).splitlines()
    intro = [line for line in read if line.startswith("Your names for ")]
    assert len(intro) == 1 and intro[0].endswith("the others stand.")
    assert len(intro[0]) > 78  # one line, for the reader to fill its own width
    assert "   10 Batting All-rounder: Batting All-rounder 1 ->" in rendered.flowed.split("\n")
    assert "  10 Batting All-rounder: Batting All-rounder 1 ->" in read  # unstuffed, not joined
    assert "-- " in read


def test_a_played_match_says_its_result_once_and_sets_off_the_dice_and_the_orders() -> None:
    """The report leads with the result, and below the scorecard, which ends with it, does not
    say it again; the dice's paragraph and the orders as played each stand apart, by a blank
    line, from what comes before them."""
    sample = SAMPLES["turn-report"]
    card = "Batsman R B\nResult: X won by 3 runs\n"
    ctx = {"server": SERVER, "notes": [], **sample, "match": {**sample["match"], "card": card}}
    text = render_email("turn-report", ctx).text
    # the lead, the card's line, and "Around the competition"
    assert text.count("won by 3 runs") == 3
    assert text.index("Result: X won by 3 runs") < text.index("What comes next")
    assert "Result: X won by 3 runs\n\nThe dice: " in text
    assert "pbm verify DEMO R1M1\n\nOrders as played in the last turn:" in text


def test_a_hand_prints_every_shipped_deck_as_cards_a_phone_reads() -> None:
    """The worst hand each shipped deck can deal (its longest name beside its longest
    country, the widest figures) prints as three lines a card, none over CARD_WIDTH: name and
    country with the attack marked, then every batting figure (balls faced among them), then
    every bowling one (balls bowled, bowling average); a long country in its short form."""
    for deck in (load_deck(name) for name in DECK_NAMES):
        name = max(deck.cards, key=lambda c: len(c.name))
        country = max(deck.cards, key=lambda c: len(SHORT_COUNTRIES.get(c.country, c.country)))
        rows = [
            {**H6CARD, "pos": 30, "name": name.name, "country": country.country,
             "matches": 331, "runs": 14059, "avg": "123.4", "bf": 26000, "sr": "300.0",
             "sixes": 338, "bb": 40000, "wickets": 682, "econ": "36.00", "bavg": "999.9"},
            {**H6CARD, "country": "United States of America", "attack": False},
        ]  # fmt: skip
        lines = card_table(rows).splitlines()
        assert len(lines) == 6 and max(len(line) for line in lines) <= CARD_WIDTH, lines
        assert lines[0].startswith(f"30 {name.name}, ") and lines[0].endswith(
            "(attack, part-timer)"
        )
        assert "14,059 runs" in lines[1] and "BF 26,000" in lines[1] and "SR 300.0" in lines[1]
        assert "BB 40,000" in lines[2] and "BAvg 999.9" in lines[2] and "econ 36.00" in lines[2]
        assert lines[3] == " 0 V Kohli, USA"
