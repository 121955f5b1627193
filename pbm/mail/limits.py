"""The bounds on the work one mail can cause, and the mails pbm never answers.

A mail over a bound is refused as a whole, before any of it is read as orders, with a reply
that says which bound and by how much (:func:`screen`); the bounds are constants here and are
documented in ``docs/ops/operations.md`` (Hostile mail).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "MAX_FLAGS",
    "MAX_LINES",
    "MAX_MULTIPARTS",
    "MAX_REPLY_CHARS",
    "NULL_SENDER",
    "Screened",
    "count_multiparts",
    "cut_reply",
    "screen",
    "too_many_flags",
]

#: Lines of text pbm reads in one mail (a naming is 20, a full set of orders well under 200).
MAX_LINES = 400
#: Sentences one mail may leave for the GM to read; more and the mail is refused.
MAX_FLAGS = 20
#: ``multipart/*`` parts in one mail: bounds the MIME nesting (and the parser's recursion).
MAX_MULTIPARTS = 40
#: Characters in the text of one reply; the rest is cut with a note saying so.
MAX_REPLY_CHARS = 60_000
#: How the doors record an empty SMTP reverse-path (``MAIL FROM:<>``).
NULL_SENDER = "<>"

_MULTIPART = re.compile(rb"content-type:[ \t]*(?:\r?\n[ \t]+)?multipart/", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Screened:
    """Why a mail is not handled: ``answer`` is the reason told to the sender, or None when
    pbm must stay silent (then ``note`` alone is recorded)."""

    status: str
    note: str
    answer: str | None = None


def count_multiparts(raw: bytes) -> int:
    """How many parts of ``raw`` declare a multipart type (an upper bound on its nesting)."""
    return len(_MULTIPART.findall(raw))


def screen(raw: bytes, body: str, envelope_from: str | None) -> Screened | None:
    """Whether a (non-automatic) mail must be refused before it is read: None if it may go on.

    ``envelope_from`` is the door's record of the SMTP reverse-path: a null one is never
    answered, whatever the From header says (RFC 5321 §4.5.5).
    """
    if envelope_from == NULL_SENDER:
        return Screened("ignored", "null reverse-path (MAIL FROM:<>): never answered")
    parts = count_multiparts(raw)
    if parts > MAX_MULTIPARTS:
        return Screened(
            "rejected",
            f"too many MIME parts ({parts})",
            f"your mail has {parts} nested multipart parts; pbm reads at most "
            f"{MAX_MULTIPARTS}. Send your orders as plain text.",
        )
    lines = body.count("\n") + (0 if body.endswith("\n") or not body else 1)
    if lines > MAX_LINES:
        return Screened(
            "rejected",
            f"too long ({lines} lines)",
            f"your mail has {lines} lines of text; pbm reads at most {MAX_LINES} lines "
            "in one mail, so none of it was read. Send your orders in a shorter mail.",
        )
    return None


def too_many_flags(count: int) -> str | None:
    """The answer to a mail that would leave ``count`` sentences for the GM, if too many."""
    if count <= MAX_FLAGS:
        return None
    return (
        f"{count} sentences of your orders could not be read, and pbm passes at most "
        f"{MAX_FLAGS} to the GM from one mail, so none of it was kept. Check the orders "
        "against the player's guide and send them again."
    )


def cut_reply(text: str) -> str:
    """``text`` cut to :data:`MAX_REPLY_CHARS`, saying so at the end."""
    if len(text) <= MAX_REPLY_CHARS:
        return text
    cut = text[:MAX_REPLY_CHARS].rsplit("\n", 1)[0]
    return (
        f"{cut}\n\n[pbm cut this reply here: it sends at most {MAX_REPLY_CHARS} characters "
        f"in one mail, and {len(text) - len(cut)} more were left out.]\n"
    )
