"""The one place the pipeline meets the mail parser: raw bytes to an :class:`Incoming` view.

Everything the flows need from a message, flattened: who, what game, which commands, which
secret (taken out of the body), and whether it is automatic (and must never be answered).
Parsing and routing themselves are :mod:`pbm.mail.parse` and :mod:`pbm.inbound.routing`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from pbm.inbound.routing import CommandLine, commands, extract_secret, quoted_commands, route
from pbm.mail.parse import InboundEmail, normalise_message_id, parse_message

__all__ = [
    "SUBJECT_WORDS",
    "Incoming",
    "incoming_of",
    "message_key",
    "read_incoming",
    "subject_commands",
]

#: Commands read from the subject when the body has none: the List-Unsubscribe link's mail
#: (``ZINE OFF``), whose body a client may leave empty or fill with its own words. Only a
#: subject that is exactly such a command counts: "zine was great" over a body of orders is
#: the orders' mail.
SUBJECT_WORDS = ("ZINE",)
_SUBJECT_COMMAND = re.compile(r"^(ZINE)[ \t]+(OFF|ON)[ \t]*$", re.IGNORECASE)
_SUBJECT_NOISE = re.compile(
    r"^\s*(?:(?:re|aw|sv|antw|wg|fwd?|tr)\s*:\s*|\[[^\[\]]{1,40}\]\s*)*", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Incoming:
    """A message as the flows see it. ``body`` has quotes, signature and SECRET lines removed."""

    message_id: str | None
    references: tuple[str, ...]
    from_addr: str
    subject: str
    body: str
    code: str | None  # a known game's code (plus-address first, then subject tag)
    commands: tuple[CommandLine, ...]  # every line starting with a command word, in order
    secret: str | None
    is_automatic: bool = False
    auto_reason: str = ""
    bounced: tuple[str, ...] = ()  # addresses a delivery report says failed
    attachments: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = field(default=())
    unknown_code: str | None = None  # a code-like tag that names no game ("[NOPE]")


def message_key(raw: bytes) -> str:
    """The idempotency key: the Message-ID, or a hash of the bytes when it has none.

    Computed from the header block alone with the same normalisation as the parser, so the key
    exists even for bytes no parser can read.
    """
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    value = None
    lines = head.decode("utf-8", "replace").splitlines()
    for i, line in enumerate(lines):
        if line.lower().startswith("message-id:"):
            value = line.split(":", 1)[1]
            for cont in lines[i + 1 :]:  # folded header
                if not cont[:1].isspace():
                    break
                value += cont
            break
    mid = normalise_message_id(value)
    return mid or "sha256:" + hashlib.sha256(raw).hexdigest()


def subject_commands(subject: str, words: Iterable[str]) -> tuple[CommandLine, ...]:
    """The command the subject is, after any ``Re:`` and ``[TAG]``: ``ZINE OFF`` or
    ``ZINE ON`` (if ZINE is among ``words``); its line number is 0, as it is no body line."""
    allowed = {w.upper(): w for w in words if w.upper() in SUBJECT_WORDS}
    text = _SUBJECT_NOISE.sub("", subject.replace("\r", " ").replace("\n", " ")).strip()
    match = _SUBJECT_COMMAND.match(text)
    if match is None or match.group(1).upper() not in allowed:
        return ()
    return (CommandLine(0, allowed[match.group(1).upper()], match.group(2).upper(), text),)


def read_incoming(
    raw: bytes,
    own_address: str,
    recipients: tuple[str, ...] = (),
    known_codes: frozenset[str] | None = None,
    words: Iterable[str] | None = None,
) -> Incoming:
    """Parse and classify one message; never raises on malformed mail.

    With ``known_codes``, tags that name no game (``[SPAM]`` added by a filter) do not hide a
    real code; the first unknown one is kept in ``unknown_code`` to tell the player.
    ``words`` are the command words to find (default: every registered mail command); each
    command line keeps its arguments, so no handler reads the body again to find them.
    """
    email = parse_message(raw, own_addresses=(own_address,))
    if recipients:
        email = replace(email, delivered_to=(*recipients, *email.delivered_to))
    return incoming_of(email, own_address, known_codes, words)


def incoming_of(
    email: InboundEmail,
    own_address: str,
    known_codes: frozenset[str] | None = None,
    words: Iterable[str] | None = None,
) -> Incoming:
    """The flows' view of a parsed message (:func:`read_incoming` without the parse): pure, so
    the same parse can be routed again when the known codes change."""
    from pbm.inbound.commands import quotable_words

    if words is None:
        from pbm.inbound.commands import words as registered

        words = registered()
    words = tuple(words)
    where = route(email, addresses=(own_address,), known_games=known_codes)
    unknown = None
    if where.code is None and known_codes is not None:
        unknown = route(email, addresses=(own_address,)).code
    secret, body = extract_secret(email.body)
    found = tuple(commands(body, words)) or subject_commands(email.subject, words)
    if not found:  # a reply on top of the mail it answers: its game line is only in the quote
        found = tuple(quoted_commands(email.full_text, set(quotable_words()) & set(words)))
    bounced: tuple[str, ...] = ()
    if email.bounce is not None:
        bounced = email.bounce.addresses
    return Incoming(
        message_id=email.message_id,
        references=email.references,
        from_addr=(email.from_addr or "").lower(),
        subject=email.subject,
        body=body,
        code=where.code,
        commands=found,
        secret=secret,
        is_automatic=email.is_automatic or not email.from_addr,
        auto_reason=email.auto_reason or ("no sender address" if not email.from_addr else ""),
        bounced=bounced,
        attachments=tuple(a.filename or a.content_type for a in email.attachments),
        notes=email.notes,
        problems=email.problems,
        unknown_code=unknown,
    )
