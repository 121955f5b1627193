"""The registry of mail commands: each command word once, with its help, usage and audience.

A game's mail module registers its handlers with :func:`command`; the dispatcher
(:mod:`pbm.inbound.dispatch`) finds them here by word, and HELP lists them from here, so a new
command is one decorated function (as python-chess keeps each variant one class with its
metadata)::

    @command("STATUS", help="your standing orders and the next deadline",
             audience=Audience.SEAT, game="flungo", needs_code=True)
    def status(ctx: MailContext, line: CommandLine) -> Handled: ...

``priority`` decides which command a mail with several is handled as (highest first; GM
commands in a GM's mail all run, in line order). ``needs_code``: the mail must name a
competition (its code in the subject or the plus-address) of ``game`` (None: any game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from pbm.inbound.routing import CommandLine

if TYPE_CHECKING:
    from pbm.inbound.context import Handled, MailContext

__all__ = [
    "Audience",
    "Command",
    "CommandLine",
    "command",
    "fallback",
    "fallbacks",
    "quotable_words",
    "registry",
    "words",
]


class Audience(StrEnum):
    """Who may send a command: anyone, a seat's manager (with its secret), or the GM."""

    ANYONE = "anyone"
    SEAT = "seat"
    GM = "gm"


Handler = Callable[["MailContext", CommandLine], "Handled"]
H = TypeVar("H", bound=Handler)


@dataclass(frozen=True, slots=True)
class Command:
    """One mail command."""

    word: str
    help: str
    usage: str
    audience: Audience
    game: str | None  # "flungo", "hitforsix", None = any
    needs_code: bool
    priority: int
    handler: Handler
    quotable: bool = False  # read from the quoted text when the reply has no command at all


_REGISTRY: dict[str, Command] = {}
_FALLBACKS: dict[str, Handler] = {}


def command(
    word: str,
    *,
    help: str,
    usage: str = "",
    audience: Audience = Audience.ANYONE,
    game: str | None = None,
    needs_code: bool = False,
    priority: int = 50,
    quotable: bool = False,
) -> Callable[[H], H]:
    """Register the decorated function as the handler of ``word`` (upper case, unique)."""
    key = word.upper()

    def register(handler: H) -> H:
        old = _REGISTRY.get(key)
        if old is not None and old.handler is not handler:
            name = getattr(old.handler, "__qualname__", repr(old.handler))
            raise ValueError(f"mail command {key} is already registered by {name}")
        _REGISTRY[key] = Command(
            key, help, usage or key, audience, game, needs_code, priority, handler, quotable
        )
        return handler

    return register


def registry() -> Mapping[str, Command]:
    """Every registered command by word (read-only)."""
    return MappingProxyType(_REGISTRY)


def words() -> tuple[str, ...]:
    """The registered command words, sorted."""
    return tuple(sorted(_REGISTRY))


def quotable_words() -> tuple[str, ...]:
    """The command words a quoted line may carry (a reply written on top of the mail it
    answers keeps the line only in the quote), sorted."""
    return tuple(sorted(w for w, c in _REGISTRY.items() if c.quotable))


def fallback(game: str) -> Callable[[H], H]:
    """Register the handler of a mail for a ``game`` competition that carries no command word
    (for Flungo: naming and orders, read by the order language)."""

    def register(handler: H) -> H:
        _FALLBACKS[game] = handler
        return handler

    return register


def fallbacks() -> Mapping[str, Handler]:
    """Each game's handler of a mail without a command word (read-only)."""
    return MappingProxyType(_FALLBACKS)
