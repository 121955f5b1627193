"""What the order language hands back (result, echo) and the state it checks orders against."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import OrderError
from engine.flungo.orders import MatchOrders, Orders
from engine.flungo.squad import Team

_QUOTED = re.compile(r"(?<![\w'])'([^']+)'(?![\w])")


def quoted(message: str) -> list[str]:
    """The words an error's message quotes from the player's line ("I don't know what
    'zoom' means"): what a refusal names, for the caret and for the tests of what it names."""
    return _QUOTED.findall(message)


__all__ = [
    "MAX_LINE_LENGTH",
    "NAME_MAX_LENGTH",
    "EchoLine",
    "Nearest",
    "NotUnderstood",
    "OrderContext",
    "ParsedOrders",
]

# A squad member's or a team's name: 1 to 40 characters (see check_name in _lines.py).
NAME_MAX_LENGTH = 40
# Longer lines are refused before parsing: no order needs more, and it bounds parse time.
MAX_LINE_LENGTH = 2000


@dataclass(frozen=True, slots=True)
class OrderContext:
    """What the game state knows when the orders are read, so illegal orders can be caught.

    ``unavailable``: squad members who may not play this match, by the state's say-so (a squad
    member's own injury points make no order illegal: the engine's selection replaces an injured
    player in his slot). ``at_drinks``: these are amendments at the drinks interval, so the XI,
    captain, wicketkeeper and toss can no longer change. ``batting``: whether the side bats
    (True) or bowls (False) in the innings in progress, if known. ``opponent``: the other team,
    whose names the bowling side's reviews and "when X is out" may use. ``bowled``: the overs
    already bowled in the innings in progress, as (over, bowler) pairs, counted against the
    bowlers' limits.
    """

    unavailable: frozenset[str] = frozenset()
    at_drinks: bool = False
    batting: bool | None = None
    opponent: Team | None = None
    bowled: tuple[tuple[int, str], ...] = ()
    # the orders that stand, so "all batsmen aggressive" in a mail without an XI means the
    # standing XI (or batting order)
    standing: MatchOrders | None = None
    # the squad's names before the player named it (placeholders), by slot: "rename Batsman 3
    # as X" still finds slot 3 after it has been named
    former_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EchoLine:
    """One understood order, written back canonically; ``line`` is its 1-based source line."""

    line: int
    text: str


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """A conditional sentence that could not be read: returned to the player, flagged to the GM."""

    line: int
    text: str
    reason: str
    readings: tuple[str, ...] = ()  # when it has two readings: each, in canonical words


@dataclass(frozen=True, slots=True)
class Nearest:
    """The nearest reading pbm can make of a line it refused: shown, never acted on.

    ``text``: the player's line with ``left_out`` left out (and ``swapped`` words read as
    the words offered), which reads as ``reading`` (canonical words, one order a line)."""

    line: int
    text: str
    left_out: tuple[str, ...]
    reading: str
    swapped: tuple[tuple[str, str], ...] = ()

    def said(self) -> str:
        """The suggestion as the player reads it in the refusal's hint."""
        parts = [f'leaving out "{w}"' for w in self.left_out[:1]]
        parts += [f'"{w}"' for w in self.left_out[1:]]
        said = (
            ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else ""
        )
        swaps = ", ".join(f'"{a}" as "{b}"' for a, b in self.swapped)
        why = "; ".join(p for p in (said, swaps and f"reading {swaps}") if p)
        return (
            f'pbm could read this as: "{self.text}"'
            + (f" ({why})" if why else "")
            + (": write it like that to have it")
        )


@dataclass(frozen=True, slots=True)
class ParsedOrders:
    """The result of reading one email of orders.

    ``orders`` holds only the orders accepted without error (what the engine will do);
    ``errors`` every problem found, sorted by line; ``echo`` the canonical form of each
    accepted order, by source line; ``not_understood`` the conditional sentences that could
    not be read (each also has an entry in ``errors``).
    """

    orders: Orders
    errors: tuple[OrderError, ...] = ()
    echo: tuple[EchoLine, ...] = ()
    not_understood: tuple[NotUnderstood, ...] = ()
    # lines that are no order (greetings, thanks, a signature, quoted or forwarded text):
    # noted in the reply, never an error
    chatter: tuple[EchoLine, ...] = ()
    # the parts of the standing orders the mail cleared ("no conditional orders")
    clears: tuple[str, ...] = ()
    # (line, parts) for every line that spoke to a part of the orders (see merge.PARTS)
    line_parts: tuple[tuple[int, tuple[str, ...]], ...] = ()
    # what the reader read otherwise than written, by line ("read 'ovres' as 'overs'"): said
    # in the answer so that the player sees it before the deadline, never an error
    notes: tuple[EchoLine, ...] = ()
    # for each line refused that pbm could read with parts left out, that reading: said in
    # the line's error, never acted on (see docs/rules/orders-unknown-words.md)
    nearest: tuple[Nearest, ...] = ()

    @property
    def ok(self) -> bool:
        """True when there is no error at all."""
        return not self.errors

    def echo_text(self) -> str:
        """The echo as text, one canonical order per line."""
        return "\n".join(e.text for e in self.echo)
