"""Conversation helpers for the daemon's tests: say something by mail, read the answer."""

from __future__ import annotations

import re
from email.message import EmailMessage
from typing import Any

from pbm.daemon import Daemon
from pbm.testing import Conversation, RecordingSender, body_of

SECRET_RE = re.compile(r"YOUR SECRET: (\S+)")


def say(
    daemon: Daemon,
    sender: RecordingSender,
    body: str,
    *,
    frm: str = "player1@example.test",
    subject: str = "[DEMO] orders",
    **kw: Any,  # make_eml's headers, or Conversation.say's expect
) -> list[EmailMessage]:
    """Deliver one mail through the store door, run a pass, return the replies to ``frm``."""
    return Conversation(daemon, sender, frm).say(body, subject=subject, **kw)


def join(daemon: Daemon, sender: RecordingSender, frm: str, code: str = "DEMO") -> str:
    """JOIN as ``frm``; returns the secret from the reply."""
    [reply] = say(daemon, sender, "JOIN\n", frm=frm, subject=f"[{code}] join")
    m = SECRET_RE.search(body_of(reply))
    assert m, body_of(reply)
    return m.group(1)


def naming_text(secret: str, team: str = "The Gloopers", prefix: str = "Celeb") -> str:
    """A complete naming mail: the secret, the team name and 18 names."""
    lines = [f"SECRET {secret}", f"TEAM NAME {team}"]
    lines += [f"NAME {i} {prefix} {i}" for i in range(1, 19)]
    return "\n".join(lines) + "\n"


#: Eighteen squad names of the length players give (two and three words, up to 16
#: characters): enough to push an XI or a batting order past one line of mail.
LONG_NAMES = (
    "Brian Cant",
    "Zippy",
    "Bungle",
    "Geoffrey Hayes",
    "Rod Hull",
    "Sweep",
    "Mrs Snodgebucket",
    "Roy Castle",
    "Keith Harris",
    "Orville",
    "Floella Benjamin",
    "Basil Brush",
    "Johnny Ball",
    "Tony Hart",
    "Derek Griffiths",
    "Isla St Clair",
    "Rustie Lee",
    "Bernard Cribbins",
)
