"""Pure routing of inbound mail: which game, which commands, which secret.

``route`` finds the game code in a plus-address (``pbm+abc@host``) or a subject tag
(``[ABC]``, ``[pbm ABC]``); ``commands`` finds command words at the start of lines;
``extract_secret`` blanks the ``SECRET``/``PASSWORD`` line of a body. ``redact`` (from
``pbm.secrets.redact``) hides secrets in anything echoed, archived or logged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from pbm.mail.auto import base_address
from pbm.mail.parse import InboundEmail
from pbm.secrets.scrub import REDACTED, redact

__all__ = [
    "REDACTED",
    "SECRET_WORDS",
    "CommandLine",
    "Route",
    "commands",
    "extract_secret",
    "redact",
    "route",
]

SECRET_WORDS = ("SECRET", "PASSWORD")

_CODE = r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}"
_SUBJECT_TAG = re.compile(rf"\[\s*(?:pbm\s*[:\s-]\s*)?({_CODE})\s*\]", re.IGNORECASE)
# Bullets and list numbering a mail client or a tidy player may put before a command.
_LEADER = r"^[ \t]*(?:[-*•·‣◦+]+[ \t]*|\(?\d{1,3}[.)][ \t]+|#\d{1,3}[ \t]+)?"


@dataclass(frozen=True, slots=True)
class Route:
    """Where a mail goes: the game ``code`` (upper case) or None, how it was found, and which
    of pbm's addresses (its base form) it was sent to, if any."""

    code: str | None
    via: Literal["plus-address", "subject"] | None
    address: str | None


@dataclass(frozen=True, slots=True)
class CommandLine:
    """A line starting with a command word: 1-based ``line_no``, the canonical ``word``,
    the ``rest`` of the line (stripped) and the line's full ``text``. ``quoted``: the line was
    found only in the text the sender quoted (its ``line_no`` is then 0: it is no line of the
    body the handlers read)."""

    line_no: int
    word: str
    rest: str
    text: str
    quoted: bool = False


def _known(code: str, known_games: frozenset[str] | None) -> str | None:
    upper = code.upper()
    if known_games is None:
        return upper
    return upper if upper in {g.upper() for g in known_games} else None


def route(
    email: InboundEmail,
    *,
    addresses: tuple[str, ...],
    known_games: frozenset[str] | None = None,
) -> Route:
    """The game a mail is for: a plus-address on one of ``addresses`` wins over a subject tag.

    With ``known_games``, codes not in it are ignored (so ``[SPAM]`` or ``[External]`` tags
    added by mail systems are not mistaken for games).
    """
    ours = {base_address(a) for a in addresses}
    address = None
    for recipient in email.recipients:
        if base_address(recipient) not in ours:
            continue
        address = address or base_address(recipient)
        local = recipient.rpartition("@")[0]
        _, plus, tag = local.partition("+")
        if plus and tag and re.fullmatch(_CODE, tag) and (code := _known(tag, known_games)):
            return Route(code, "plus-address", base_address(recipient))
    for match in _SUBJECT_TAG.finditer(email.subject):
        if code := _known(match.group(1), known_games):
            return Route(code, "subject", address)
    return Route(None, None, address)


def _word_pattern(words: Iterable[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
    return re.compile(rf"{_LEADER}({alternatives})(?![\w-])[ \t]*[:=]?[ \t]*(.*)$", re.IGNORECASE)


@functools.lru_cache(maxsize=64)
def _matcher(words: tuple[str, ...]) -> tuple[MappingProxyType[str, str], re.Pattern[str]]:
    """Each of ``words`` by its upper case, and the pattern of their command lines: a pure
    memo, as the command words are a few sets (the registered ones, the secret's) and
    building these was a third of routing a mail."""
    canonical = {w.upper(): w for w in words}
    return MappingProxyType(canonical), _word_pattern(canonical.values())


def commands(body: str, words: Iterable[str]) -> list[CommandLine]:
    """Lines of ``body`` that start with one of ``words`` (case-insensitive, after an optional
    bullet or list number); ``word`` is returned as spelled in ``words``."""
    canonical, pattern = _matcher(tuple(words))
    if not canonical:
        return []
    found = []
    for number, line in enumerate(_lines(body), start=1):
        if match := pattern.match(line):
            found.append(
                CommandLine(number, canonical[match.group(1).upper()], match.group(2).strip(), line)
            )
    return found


_QUOTE_MARKS = re.compile(r"^(?:[ \t]{0,3}>)+[ \t]?")


def quoted_commands(full_text: str, words: Iterable[str]) -> list[CommandLine]:
    """Lines of the quoted text (``> …``) in ``full_text`` that start with one of ``words``,
    unquoted: for a reply written on top of the mail it answers (issue 27)."""
    unquoted = [
        _QUOTE_MARKS.sub("", line) for line in _lines(full_text) if _QUOTE_MARKS.match(line)
    ]
    return [
        CommandLine(0, c.word, c.rest, c.text, quoted=True)
        for c in commands("\n".join(unquoted), words)
    ]


def extract_secret(body: str, words: Iterable[str] = SECRET_WORDS) -> tuple[str | None, str]:
    """The first secret given on a ``SECRET xxx`` / ``PASSWORD: xxx`` line, and ``body``
    with every such line blanked (the daemon stores and echoes only the latter).

    The lines are blanked, not removed, so that the line numbers in error messages are the
    line numbers of the mail the player wrote."""
    secret = None
    kept = []
    for cmd_line, line in _classify(body, words):
        if cmd_line is None:
            kept.append(line)
            continue
        kept.append("")
        token = cmd_line.rest.split()[0] if cmd_line.rest.split() else ""
        if secret is None and token:
            secret = token
    rest = "\n".join(kept)
    return secret, rest + "\n" if body.endswith("\n") and kept else rest


def _classify(body: str, words: Iterable[str]) -> list[tuple[CommandLine | None, str]]:
    by_line = {c.line_no: c for c in commands(body, words)}
    return [(by_line.get(n), line) for n, line in enumerate(_lines(body), start=1)]


def _lines(body: str) -> list[str]:
    """Lines as lark and the order parser count them: split on newlines only."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines
