"""The mail commands: each command word once, with its help, usage and audience.

A command is a decorated function; the decorator only attaches its :class:`Command` to it, and
registers nothing: each game lists its commands (:attr:`pbm.games.Game.commands`), the
game-agnostic ones are :mod:`pbm.inbound.builtin`'s, and :func:`registry` is the table of them
all, built from that one list of games (as python-chess keeps each variant one class with its
metadata, listed once)::

    @command("STATUS", help="your standing orders and the next deadline",
             audience=Audience.SEAT, game="flungo", needs_code=True)
    def status(ctx: MailContext, line: CommandLine) -> Handled: ...

``priority`` decides which command a mail with several is handled as (highest first; GM
commands in a GM's mail all run, in line order). ``needs_code``: the mail must name a
competition (its code in the subject or the plus-address) of ``game`` (None: any game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, TypeVar

from pbm.inbound.routing import CommandLine

if TYPE_CHECKING:
    from pbm.inbound.context import Handled, MailContext

__all__ = [
    "Audience",
    "Command",
    "CommandLine",
    "Handler",
    "command",
    "command_of",
    "commands_in",
    "fallbacks",
    "quotable_words",
    "registry",
    "table_of",
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


#: The attribute a decorated handler carries its command in.
_ATTRIBUTE = "__pbm_command__"


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
    """Mark the decorated function as the handler of ``word`` (upper case): the function is
    returned unchanged, carrying its :class:`Command` for :func:`commands_in` to find."""
    key = word.upper()

    def mark(handler: H) -> H:
        cmd = Command(
            key, help, usage or key, audience, game, needs_code, priority, handler, quotable
        )
        setattr(handler, _ATTRIBUTE, cmd)
        return handler

    return mark


def command_of(obj: object) -> Command | None:
    """The command ``obj`` was marked with by :func:`command` (None: not a handler)."""
    cmd = getattr(obj, _ATTRIBUTE, None)
    return cmd if isinstance(cmd, Command) else None


def commands_in(*modules: ModuleType) -> tuple[Command, ...]:
    """The commands marked in ``modules``, in the order they are defined."""
    found = (command_of(obj) for module in modules for obj in vars(module).values())
    return tuple(dict.fromkeys(cmd for cmd in found if cmd is not None))


def table_of(commands: Iterable[Command]) -> Mapping[str, Command]:
    """The commands by word (read-only); a word twice is a programming error."""
    table: dict[str, Command] = {}
    for cmd in commands:
        old = table.get(cmd.word)
        if old is not None and old.handler is not cmd.handler:
            name = getattr(old.handler, "__qualname__", repr(old.handler))
            raise ValueError(f"mail command {cmd.word} is already registered by {name}")
        table[cmd.word] = cmd
    return MappingProxyType(table)


@cache
def registry() -> Mapping[str, Command]:
    """Every command by word (read-only): the built-in ones and every game's
    (:data:`pbm.games.GAMES`). Built once: the table is the code's, not the data's."""
    from pbm import games
    from pbm.inbound import builtin

    return table_of((*commands_in(builtin), *(c for g in games.GAMES for c in g.commands())))


def words() -> tuple[str, ...]:
    """The command words, sorted."""
    return tuple(sorted(registry()))


def quotable_words() -> tuple[str, ...]:
    """The command words a quoted line may carry (a reply written on top of the mail it
    answers keeps the line only in the quote), sorted."""
    return tuple(sorted(w for w, c in registry().items() if c.quotable))


@cache
def fallbacks() -> Mapping[str, Handler]:
    """Each game's handler of a mail for one of its competitions that carries no command word
    (for Flungo: naming and orders, read by the order language), by game name (read-only)."""
    from pbm import games

    return MappingProxyType({g.name: h for g in games.GAMES if (h := g.fallback()) is not None})
