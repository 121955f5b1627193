"""The items of a line read: batting-order entries, a plain reading's items, a number's error."""

from __future__ import annotations

from engine.errors import InvalidOrder, Span
from engine.flungo.language._drafts import NumberError, Ref
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._lower import Lowerer, Plain
from engine.flungo.orders import BattingStyle

__all__ = ["entries", "number_error", "plain_items"]


def entries(
    low: Lowerer, entries: tuple[tuple[Ref, BattingStyle | None], ...]
) -> tuple[tuple[str, BattingStyle | None], ...]:
    """Batting-order entries resolved; names written without commas share the style given."""
    out: list[tuple[str, BattingStyle | None]] = []
    for ref, style in entries:
        names = low.many(ref)
        if len(names) == 1:  # most often
            out.append((names[0], style))
            continue
        out += [(n, style if i == len(names) - 1 else None) for i, n in enumerate(names)]
    return tuple(out)


def plain_items(cl: CleanLine, p: Plain) -> list[Item]:
    end = len(cl.text)
    # every batsman's style first, then each one's: in one line, the batsman named wins
    # ("everyone aggressive, Stokes wahoo": Stokes wahoo, whichever is written first)
    items = [Item(cl, "all_style", s, 0, end) for s in p.all_styles]
    items += [Item(cl, "style", s, 0, end) for s in p.styles]
    items += [Item(cl, "plan", pair, a, b) for pair, (a, b) in zip(p.plan, p.where, strict=True)]
    items += [Item(cl, "reviews", r, 0, end) for r in p.reviews]
    if p.openers:
        items.append(Item(cl, "openers", tuple(p.openers), 0, end))
    items += [Item(cl, "others_style", s, 0, end) for s in p.others_styles]
    items += [Item(cl, "except_style", x, 0, end) for x in p.except_styles]
    items += [Item(cl, "rest", r, 0, end) for r in p.rest]
    return items


def number_error(cl: CleanLine, exc: NumberError) -> InvalidOrder:
    return InvalidOrder(
        str(exc),
        source_line=cl.raw,
        span=Span(cl.number, cl.column(exc.start), cl.column(max(exc.end, exc.start + 1))),
    )
