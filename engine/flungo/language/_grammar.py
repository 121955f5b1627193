"""The lark parser for one order line, and lark's errors turned into :class:`InvalidOrder`."""

from __future__ import annotations

import difflib
import importlib.resources
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.errors import InvalidOrder, Span
from engine.flungo.language._lalr import FastParser
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._near import close_matches
from engine.flungo.language._reader import active, kept, spend
from engine.flungo.language._tables import Tables, digest, shipped_tables

__all__ = [
    "ORDER_WORDS",
    "START_HINT",
    "break_at",
    "build_parser",
    "fast_parser",
    "grammar_text",
    "keywords",
    "make_tables",
    "name_words",
    "parse_line",
    "parsed",
    "parser",
    "shipped_parser",
    "starters",
    "tables_digest",
]

# The words an order line starts with, offered as "did you mean" for an unknown first word.
ORDER_WORDS = (
    "xi",
    "captain",
    "wicketkeeper",
    "keeper",
    "toss",
    "batting",
    "bowling",
    "reviews",
    "treat",
    "boost",
    "after",
    "when",
    "if",
    "at",
    "all",
    "name",
    "team",
    "note",
)


def grammar_text() -> str:
    """The grammar, orders.lark, as shipped in the package."""
    return importlib.resources.files(__package__).joinpath("orders.lark").read_text("utf-8")


_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": True,
    "start": ["start", "entries"],
}


def build_parser(cache: str | None = None) -> Lark:
    """The order-line parser, built from orders.lark.

    Building the LALR tables takes seconds; with ``cache`` (a file path the caller owns) lark
    keeps them there and loads them next time, checking they were made from this grammar with
    these options. The engine never picks a path itself: that is I/O, the caller's business.
    (A process normally needs neither: see :func:`shipped_parser`.)
    """
    return Lark(grammar_text(), cache=cache or False, **_OPTIONS)


def tables_digest() -> str:
    """What parser tables for this grammar are made from (see ``_tables``)."""
    return digest(grammar_text(), repr(sorted(_OPTIONS.items())))


def make_tables(built: Lark, packed: bytes | None = None) -> Tables:
    """A built parser made ready: the lean driver's tables and the grammar's words."""
    words = set()
    for term in built.terminals:
        if term.pattern.type == "str" and term.pattern.value.isalpha():
            words.add(term.pattern.value.lower())
    accepts: set[str] = built.parse_interactive("", start="start").accepts()  # type: ignore[no-untyped-call]
    first = set()
    for name in accepts:
        term = built.get_terminal(name)
        if term.pattern.type == "str":
            first.add(term.pattern.value.lower())
    return Tables(built, frozenset(words), frozenset(first), packed)


def shipped_parser() -> Tables | None:
    """The tables shipped in the package, if they were made from this grammar."""
    return shipped_tables(tables_digest())


# Loaded at import (a few milliseconds): a constant of the package, the same in every
# process. ``None`` when the shipped file was made from another grammar.
_SHIPPED = shipped_parser()


def _tables() -> Tables:
    """The active Reader's tables, else the shipped ones; when the shipped file is stale,
    tables built once for the active Reader (seconds: ``scripts/build-order-tables``)."""
    reader = active()
    if reader is not None and reader.tables is not None:
        return reader.tables
    if _SHIPPED is not None:
        return _SHIPPED
    built = make_tables(build_parser())
    if reader is not None:
        reader.tables = built
    return built


def parser() -> Lark:
    """The lark parser (for what the lean driver does not do: explaining a line in error)."""
    return _tables().lark()


def fast_parser() -> FastParser:
    """The order-line parser (LALR, so parsing a line is linear in its length)."""
    return _tables().fast


def keywords() -> frozenset[str]:
    """Every word the grammar uses, lower case."""
    return _tables().keywords


def name_words() -> frozenset[str]:
    """The words of the grammar a one-word squad name may not be (one letter is allowed)."""
    return _long_words(_tables().keywords)


T = TypeVar("T")


def by_grammar(fn: Callable[[frozenset[str]], T]) -> Callable[[frozenset[str]], T]:
    """``fn`` of the grammar's words, kept with the tables that have them (``derived``):
    a value of the grammar, the same whichever Reader asks and whatever it read before, so
    made once for the tables rather than once for each fresh Reader (once for every mail
    read with a fresh one)."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    def call(words: frozenset[str]) -> T:
        tables = _tables()
        if words is not tables.keywords:  # pragma: no cover - every caller passes them
            return fn(words)
        derived = tables.derived
        if name not in derived:
            derived[name] = fn(words)
        found: T = derived[name]
        return found

    return call


@by_grammar
def _long_words(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in words if len(w) > 1)


def starters() -> frozenset[str]:
    """The words an order line may start with (from the parser's first state)."""
    return _tables().starters


def _describe(name: str) -> str:
    lark = parser()
    try:
        term = lark.get_terminal(name)
    except KeyError:
        return name.lower()
    if term.pattern.type == "str":
        return f"'{term.pattern.value}'"
    return {
        "NUMBER": "a number",
        "ORDINAL": "an ordinal like 6th",
        "NAMEWORD": "a name",
        "NAMEREF": "a name",
        "_OSEP": "','",
        "_ASEP": "','",
        "_LSEP": "','",
        "_NSEP": "','",
    }.get(name, name.lower())


def _words(names: set[str] | frozenset[str]) -> list[str]:
    """The words among the terminals ``names`` (to offer for a misspelt word)."""
    out = []
    for name in names:
        try:
            term = parser().get_terminal(name)
        except KeyError:
            continue
        if term.pattern.type == "str" and term.pattern.value.isalpha():
            out.append(term.pattern.value.lower())
    return sorted(out)


def _expected(names: set[str] | frozenset[str]) -> str:
    """What could come next, in the player's terms (never the grammar's tokens)."""
    shown = {_describe(n) for n in names if n != "$END"}
    words = {w.strip("'") for w in shown}
    said: list[str] = []
    if words & {"<", "<=", ">", ">=", "="}:
        said.append("a comparison ('3 or fewer', 'more than 120', '<= 3')")
    if words & {"aggressive", "defensive", "normal", "wahoo"}:
        said.append("a batting style (defensive, normal, aggressive or wahoo)")
    if "a name" in shown:
        said.append("a squad member's name")
    if "a number" in shown:
        said.append("a number")
    if words & {"overs", "over", "balls"} and not said:
        said.append("'overs' or 'balls'")
    if words & {"out", "dismissed"} and not said:
        said.append("'is out'")
    if "$END" in names and not said:
        said.append("the end of the order")
    if not said:
        return "the words of the guide's examples here (see 'Orders in your own words')"
    return " or ".join(said)


_WORD = re.compile(r"[^\W\d_]+")
# The batting-style words of orders.lark's ``style`` rule: the words a line most often ends
# with, and the ones a misspelling of turns into part of a name. Only these are offered, so
# that a name near some other order word ("smith", "with") is not taken for a misspelling.
_STYLE_WORDS = (
    "defensive",
    "defensively",
    "defence",
    "defense",
    "normal",
    "normally",
    "sensible",
    "sensibly",
    "aggressive",
    "aggressively",
    "attacking",
    "attack",
    "wahoo",
)


def _misspelt_near_end(masked: str) -> tuple[int, int, str] | None:
    """(start, end, right spelling) of a misspelt style among the last words of a line.

    A misspelt last word ("Root agressive", "bats wahooo") can read as part of a name, so the
    line only fails at its end; pointing at the word with "did you mean" says more. Names
    the squad has are masked, so only words outside them are looked at.
    """
    for m in list(_WORD.finditer(masked))[-3:][::-1]:
        word = m.group().lower()
        if m.start() == 0 or word in keywords():
            continue  # a first word has its own "unknown order" error
        close = difflib.get_close_matches(word, _STYLE_WORDS, 1, 0.8)
        if close:
            return m.start(), m.end(), close[0]
    return None


def parse_line(line: CleanLine, masked: str, start: str = "start") -> Tree[Token]:
    """Parse one cleaned, masked line; raise :class:`InvalidOrder` located in the player's line.

    ``start="entries"`` reads a line under a "batting order:" heading: names with styles.
    """
    parsed = _parsed(masked, start)
    if isinstance(parsed, int):
        raise _invalid(line, masked, _failure(masked, start)) from None
    return parsed


@kept(maxsize=16384)
def _parsed(masked: str, start: str) -> Tree[Token] | int:
    """The parse of a masked line, or the index where it breaks, remembered.

    A turn reads many lines alike ("toss: bat", a canonical echo sent back), so each
    distinct line is parsed once. Sharing the tree is safe: nothing changes a parse tree.
    """
    spend(masked)
    if "\n" in masked:  # never from a mail's lines; lark counts lines, the driver does not
        return _lark_break(masked, start)
    return fast_parser().parse(masked, start)


def parsed(masked: str, start: str = "start") -> Tree[Token] | int:
    """The tree of a masked line, or the index where it breaks (remembered)."""
    return _parsed(masked, start)


def _lark_break(masked: str, start: str) -> Tree[Token] | int:
    try:
        return parser().parse(masked, start=start)
    except UnexpectedToken as exc:
        return len(masked) if exc.token.type == "$END" else exc.token.start_pos or 0
    except UnexpectedInput as exc:
        return max(getattr(exc, "pos_in_stream", None) or 0, 0)


@kept(maxsize=4096)
def _failure(masked: str, start: str) -> UnexpectedInput:
    """lark's own error for a line that does not parse: what it expected, and where."""
    spend(masked)
    try:
        parser().parse(masked, start=start)
    except UnexpectedInput as exc:
        return exc
    raise AssertionError("the line parses")  # pragma: no cover - the driver said it breaks


def break_at(masked: str, start: str = "start") -> int | None:
    """Where the masked line stops parsing (its index), or ``None`` if it parses."""
    parsed = _parsed(masked, start)
    return parsed if isinstance(parsed, int) else None


def _invalid(
    line: CleanLine, masked: str, exc: UnexpectedInput, accepts: frozenset[str] = frozenset()
) -> InvalidOrder:
    message, index, end, hint = _explain(line.text, masked, exc, accepts)
    return InvalidOrder(
        message,
        source_line=line.raw,
        span=line.span(index, end)
        if line.said
        else Span(line.number, line.column(index), line.column(end)),
        hint=hint,
    )


@kept(maxsize=4096)
def _explain(
    text: str, masked: str, exc: UnexpectedInput, accepts: frozenset[str]
) -> tuple[str, int, int, str | None]:
    """What went wrong where in a line that did not parse (remembered, as the parse is)."""
    if isinstance(exc, UnexpectedToken) and not accepts:
        # what the parser would have taken here: costly to work out, so only when reported
        accepts = frozenset(exc.accepts or exc.expected)
    index = max(getattr(exc, "pos_in_stream", None) or 0, 0)
    hint: str | None = None
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        index = len(masked)
        message = "this order stops too soon"
        hint = f"I expected {_expected(accepts or exc.expected)}"
        end = index + 1
        if near := _misspelt_near_end(masked):
            index, end, right = near
            message = f"I don't understand '{text[index:end]}' here"
            hint = f"did you mean '{right}'?"
    elif isinstance(exc, UnexpectedToken):
        index = exc.token.start_pos or 0
        end = exc.token.end_pos or index + 1
        while end < min(len(text), len(masked)) and masked[end] == " " and text[end].isalpha():
            end += 1  # a number written as a word is its digits and padding: the whole word
        word = text[index:end]
        message = f"I don't understand '{word}' here"
        hint = f"I expected {_expected(accepts or exc.expected)}"
        close = near_miss(word, _words(accepts or exc.expected), 0.75)
        if close:  # a misspelt word of the orders ("aggresive")
            hint = f"did you mean '{close[0]}'?"
        if index == 0:
            close = near_miss(word, ORDER_WORDS, 0.7)
            message = f"unknown order '{word}'"
            hint = f"did you mean '{close[0]}'?" if close else START_HINT
    elif isinstance(exc, UnexpectedCharacters):
        index = exc.pos_in_stream or 0
        word = text[index : index + 1]
        message = f"I don't understand '{word}' here"
        end = index + 1
        if index == 0:
            message = "this line is not an order I know"
            hint = START_HINT
    elif isinstance(exc, UnexpectedEOF):
        index = len(masked)
        message = "this order stops too soon"
        end = index + 1
    else:  # pragma: no cover - lark raises only the three above
        message = "I don't understand this line"
        end = index + 1
    return message, index, end, hint


START_HINT = (
    "orders start with a word like xi, captain, wicketkeeper, toss, batting order, "
    "a bowler's name, reviews, treat, boost, after or when"
)


def near_miss(word: str, words: Iterable[str], cutoff: float) -> list[str]:
    """The word of ``words`` ``word`` is a near miss of, for a "did you mean": never the word
    itself ("name" written where no order starts is not a misspelt "name")."""
    low = word.lower()
    return close_matches(low, [w for w in words if w != low], 1, cutoff)
