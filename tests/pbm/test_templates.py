"""Templates: every email kind renders with a sample context; player text stays on one line."""

from __future__ import annotations

from typing import Any

import pytest
from jinja2 import UndefinedError

from pbm.config import ServerConfig
from pbm.render import email_kinds, render_email
from pbm.render.env import oneline

COMP = {
    "code": "DEMO",
    "name": "Demo Cup",
    "format": "Twenty20",
    "teams": 4,
    "naming_deadline": "2026-01-15 00:00 UTC",
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
        "champion": None,
        "next": {"label": "Turn 3", "selection": False},
        "editorial": "Hello",
        "team_name": "X",
        "match": {
            "label": "Round 1",
            "fixture_id": "R1M1",
            "opponent": "Y",
            "card": "card",
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
    "digest": {
        "headline": "",
        "now": "2026-01-01 09:00",
        "since": "2025-12-31 09:00",
        "competitions": [
            {
                **COMP,
                "status": "open",
                "joined": 1,
                "recent_joins": [{"seat": 1, "address": "a@x", "at": "t"}],
                "unnamed": [{"seat": 1, "team": "Team 1", "address": "a@x"}],
            }
        ],
        "flags": [
            {"id": 4, "code": "DEMO", "seat": 1, "team": "X", "line": 2, "text": "go bananas"}
        ],
        "not_understood": [{"id": 1, "from": "a@x", "subject": "s", "note": "n"}],
        "dead_letters": [{"id": 2, "from": "b@x", "subject": "s", "error": "E"}],
        "bounces": [{"address": "c@x", "at": "t", "reason": "r"}],
        "outages_since": "2025-12-31 09:00",
        "outages": [
            {
                "door": "smtp",
                "kind": "refused",
                "first_seen": "2025-12-31 10:00:00",
                "until": "2025-12-31 10:05:00",
                "open": False,
                "duration": "5 min",
                "count": 4,
                "error": "connection refused",
            }
        ],
        "outage_losses": {
            "dead_letters": 0,
            "replies_given_up": 0,
            "replies_pending": 1,
            "mail_waiting": 0,
        },
    },
    "refused": {"reason": "your mail has 9999 lines of text; pbm reads at most 400"},
    "gm-alert": {"mail_id": 3, "sender": "a@x", "subject": "s", "error": "E"},
    "new-secret": {"competition": COMP, "team_name": "X", "secret": "S"},
    "gm-created": {"problem": None, "competition": COMP, "address": "pbm@example.test"},
}
H6CARD = {
    "pos": 0, "name": "V Kohli", "initials": "VK", "country": "India", "matches": 100,
    "runs": 4000, "avg": "50.0", "sr": "137.0", "sixes": 120, "wickets": 4, "econ": "8.00",
}  # fmt: skip
H6_SAMPLES: dict[str, dict[str, Any]] = {
    "h6-deal": {
        "deck": "t20i", "seed": 1, "rule": "Maximums", "window": 1, "cap": 3,
        "hint": "window 1: drop up to 3", "hand": [H6CARD], "came_in": [], "ghost": None,
        "game": "H6GAME t20i 1 maximums -", "note": "", "errors": ["line 1: no"],
    },
    "h6-result": {
        "deck": "t20i", "rule": "The Toss", "judged_by": "Wickets", "revealed": True,
        "xi": [H6CARD], "score": "1.00", "grade": "50.0", "beats": 1, "ties": 0,
        "resemblance": {"name": "V Kohli", "country": "India"}, "best": ["V Kohli"],
        "code": "A" * 32, "ghost": {"grade": "40.0", "verdict": "You beat the ghost."},
    },
    "h6-refused": {"reason": "no"},
    "h6-test-joined": {
        "wire": "K7PQ2M", "seat": 1, "seats": 3, "target": 20, "deck": "t20i",
        "ticket": "AAAA-BBBB-CCCC-DDDD", "over_hours": 48,
    },
    "h6-test-over": {
        "wire": "K7PQ2M", "over": 1, "seat": 1, "rule": "Wickets", "window": 1, "cap": 3,
        "hand": [H6CARD], "came_in": ["V Kohli"], "deadline": "2026-12-03 09:00 UTC",
        "errors": [],
    },
    "h6-test-sealed": {"wire": "K7PQ2M", "over": 1, "seat": 1, "receipt": "ab" * 32,
                       "decisions": "0,1", "notes": ["window 2: X is not held"]},
    "h6-test-reveal": {
        "wire": "K7PQ2M", "over": 1, "rule": "Wickets", "winner": 1, "runs": 4, "target": 10,
        "seats": [{"seat": 1, "decisions": "0", "how": "window", "nonce": "0" * 32,
                   "receipt": "ab" * 32, "verified": True, "grade": "75.0"}],
        "standings": [{"seat": 1, "wickets": 1, "runs": 4, "overs_won": 1}],
        "champion": None, "replay_code": "Ag" + "A" * 30,
    },
    "h6-test-reminder": {"wire": "K7PQ2M", "over": 1, "seat": 1, "deadline": "soon"},
    "h6-averages": {
        "name": "Ann", "number": "012345678901", "deck": "t20i", "day": "2026-12-01",
        "grade": "80.0", "rank": 1, "of": 3, "season": "2026-12", "season_best": "80.0",
        "season_rank": 2,
    },
}  # fmt: skip
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
