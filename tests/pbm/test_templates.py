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
    },
    "refused": {"reason": "your mail has 9999 lines of text; pbm reads at most 400"},
    "gm-alert": {"mail_id": 3, "sender": "a@x", "subject": "s", "error": "E"},
    "new-secret": {"competition": COMP, "team_name": "X", "secret": "S"},
    "gm-created": {"problem": None, "competition": COMP, "address": "pbm@example.test"},
}
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
