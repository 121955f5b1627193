"""The Cosmic Celebrity Cricket order language: a manager's email in, typed orders out.

Public API::

    parse_orders(text, team, fmt, *, context=None, reader=None) -> ParsedOrders
    canonical(orders) -> str
    renamed(team, orders.naming) -> Team

``parse_orders`` reads every line, never raises for what the player wrote, and returns every
error at once (``ParsedOrders.errors``: :class:`~engine.errors.InvalidOrder`,
:class:`~engine.errors.IllegalOrder`, :class:`~engine.errors.AmbiguousOrder`), the canonical
echo of each accepted order and the conditional sentences it could not read. ``canonical``
writes :class:`~engine.flungo.orders.Orders` back as text that ``parse_orders`` reads back
equal. The player's guide is ``docs/players/orders.md``.

What a read works out (a line's parse, its reading, a squad's names) is remembered by a
:class:`Reader` its caller owns and passes as ``reader`` (pbm keeps one per App); without
one, each call reads with a fresh Reader. The package itself keeps nothing between calls.
"""

from __future__ import annotations

from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.language._build import renamed
from engine.flungo.language._canonical import canonical, canonical_lines, rule_line
from engine.flungo.language._checks import HELPER_POINTS
from engine.flungo.language._grammar import build_parser, make_tables, name_words, shipped_parser
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
from engine.flungo.language._reader import Reader, reading
from engine.flungo.language._tables import Tables
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
    "Reader",
    "Tables",
    "build_parser",
    "canonical",
    "canonical_lines",
    "check_name",
    "make_tables",
    "parse_orders",
    "renamed",
    "rule_line",
    "shipped_parser",
]


def parse_orders(
    text: str,
    team: Team,
    fmt: FormatSpec | Format = FORMATS[Format.T20],
    *,
    context: OrderContext | None = None,
    reader: Reader | None = None,
) -> ParsedOrders:
    """Read one email of orders for ``team`` in format ``fmt``; see :class:`ParsedOrders`.

    Never raises for the text: every problem is an ``OrderError`` in the result's ``errors``.
    ``reader`` remembers what the read works out, for the next (``None``: the Reader of a
    read already under way, else a fresh one for this call alone).
    """
    spec = FORMATS[fmt] if isinstance(fmt, Format) else fmt
    with reading(reader):
        return read_orders(text, team, spec, context or OrderContext())


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a squad member's name (a plain-English reason), or ``None``.

    1 to 40 characters of letters, digits, spaces and . ' ’ - &, with a letter; a one-word
    name may not be a word the orders use. (Uniqueness in the team is checked by naming.)
    """
    # one-letter words of the orders ("a", the "c" of "Root (c)") only mean something in
    # their place, so a player may still be called "A"
    with reading(None):
        return _check_name(name, name_words())
