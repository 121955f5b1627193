"""The Cosmic Celebrity Cricket order language: a manager's email in, typed orders out.

Public API::

    parse_orders(text, team, fmt, *, context=None) -> ParsedOrders
    canonical(orders) -> str
    renamed(team, orders.naming) -> Team

``parse_orders`` reads every line, never raises for what the player wrote, and returns every
error at once (``ParsedOrders.errors``: :class:`~engine.errors.InvalidOrder`,
:class:`~engine.errors.IllegalOrder`, :class:`~engine.errors.AmbiguousOrder`), the canonical
echo of each accepted order and the conditional sentences it could not read. ``canonical``
writes :class:`~engine.flungo.orders.Orders` back as text that ``parse_orders`` reads back
equal. The player's guide is ``docs/players/orders.md``.
"""

from __future__ import annotations

from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.language._build import renamed
from engine.flungo.language._canonical import canonical, canonical_lines, rule_line
from engine.flungo.language._checks import HELPER_POINTS
from engine.flungo.language._grammar import (
    build_parser,
    name_words,
    shipped_parser,
    use_parser,
    use_tables,
)
from engine.flungo.language._lines import CHATTER_WORDS
from engine.flungo.language._lines import check_name as _check_name
from engine.flungo.language._model import (
    MAX_LINE_LENGTH,
    NAME_MAX_LENGTH,
    EchoLine,
    NotUnderstood,
    OrderContext,
    ParsedOrders,
)
from engine.flungo.language._read import read_orders
from engine.flungo.squad import Team

__all__ = [
    "CHATTER_WORDS",
    "HELPER_POINTS",
    "MAX_LINE_LENGTH",
    "NAME_MAX_LENGTH",
    "EchoLine",
    "NotUnderstood",
    "OrderContext",
    "ParsedOrders",
    "build_parser",
    "canonical",
    "canonical_lines",
    "check_name",
    "clear_caches",
    "parse_orders",
    "renamed",
    "rule_line",
    "shipped_parser",
    "use_parser",
    "use_tables",
]


def parse_orders(
    text: str,
    team: Team,
    fmt: FormatSpec | Format = FORMATS[Format.T20],
    *,
    context: OrderContext | None = None,
) -> ParsedOrders:
    """Read one email of orders for ``team`` in format ``fmt``; see :class:`ParsedOrders`.

    Never raises for the text: every problem is an ``OrderError`` in the result's ``errors``.
    """
    spec = FORMATS[fmt] if isinstance(fmt, Format) else fmt
    return read_orders(text, team, spec, context or OrderContext())


def clear_caches() -> None:
    """Forget every line, name and parse remembered, so the next mail is read from scratch
    (the remembering only saves time: results are the same either way)."""
    from engine.flungo.language import _chatter, _expand, _grammar, _lines, _names, _transform

    _grammar.clear_caches()
    _chatter.number_words.cache_clear()
    _expand._squad_numbers.cache_clear()
    _transform.clear_caches()
    _lines.clean_line.cache_clear()
    _lines._mask_names.cache_clear()
    _names._book.cache_clear()


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a squad member's name (a plain-English reason), or ``None``.

    1 to 40 characters of letters, digits, spaces and . ' ’ - &, with a letter; a one-word
    name may not be a word the orders use. (Uniqueness in the team is checked by naming.)
    """
    # one-letter words of the orders ("a", the "c" of "Root (c)") only mean something in
    # their place, so a player may still be called "A"
    return _check_name(name, name_words())
