"""A mail's reading as it is built (the items, errors, questions and chatter of its lines),
and the result it gives: the orders, their echo, and which parts each line spoke to."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import OrderError
from engine.flungo.language._build import build_orders, echo_lines
from engine.flungo.language._canonical import CLEAR_WORDS
from engine.flungo.language._items import Item
from engine.flungo.language._model import (
    EchoLine,
    Nearest,
    NotUnderstood,
    OrderContext,
    ParsedOrders,
)
from engine.flungo.orders import BattingStyle
from engine.flungo.squad import Team

__all__ = ["Mark", "ReadState", "Taken", "result_of"]

# where a reading stands: items, errors, questions, chatter, the section lines, notes
Mark = tuple[int, int, int, int, dict[int, str], int]
# what was read since a mark: items, errors, questions, chatter, section lines, notes
Taken = tuple[
    list[Item],
    list[OrderError],
    list[NotUnderstood],
    list[EchoLine],
    dict[int, str],
    list[EchoLine],
]


@dataclass
class ReadState:
    """What the lines of one mail (or one reading of a line) have given so far."""

    items: list[Item] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    not_understood: list[NotUnderstood] = field(default_factory=list)
    chatter: list[EchoLine] = field(default_factory=list)
    team: Team | None = None
    context: OrderContext = field(default_factory=OrderContext)
    section_lines: dict[int, str] = field(default_factory=dict)  # line -> heading's kind
    notes: list[EchoLine] = field(default_factory=list)  # "read 'ovres' as 'overs'", by line
    nearest: list[Nearest] = field(default_factory=list)  # refused lines' nearest readings

    def mark(self) -> Mark:
        """Where the reading stands, for :meth:`undo` (a line tried one way, then another)."""
        return (
            len(self.items),
            len(self.errors),
            len(self.not_understood),
            len(self.chatter),
            dict(self.section_lines),
            len(self.notes),
        )

    def reads_whole(self, mark: Mark) -> bool:
        """Whether what was read since ``mark`` is orders, with no error and no question."""
        unchanged = len(self.errors) == mark[1] and len(self.not_understood) == mark[2]
        return unchanged and len(self.items) > mark[0]

    def since(self, mark: Mark) -> Taken:
        """What was read since ``mark``, to :meth:`restore` after trying the line otherwise."""
        return (
            self.items[mark[0] :],
            self.errors[mark[1] :],
            self.not_understood[mark[2] :],
            self.chatter[mark[3] :],
            dict(self.section_lines),
            self.notes[mark[5] :],
        )

    def restore(self, mark: Mark, taken: Taken) -> None:
        """The reading as it stood when :meth:`since` took it (the other tries undone)."""
        self.undo(mark)
        self.items += taken[0]
        self.errors += taken[1]
        self.not_understood += taken[2]
        self.chatter += taken[3]
        self.section_lines = taken[4]
        self.notes += taken[5]

    def undo(self, mark: Mark) -> None:
        """Forget what was read since ``mark`` (its notes too: a line read another way)."""
        del self.items[mark[0] :], self.errors[mark[1] :], self.not_understood[mark[2] :]
        del self.chatter[mark[3] :], self.notes[mark[5] :]
        self.section_lines = dict(mark[4])


def result_of(st: ReadState) -> ParsedOrders:
    accepted = [i for i in st.items if i.ok]
    orders = build_orders(
        [i for i in accepted if i.kind not in ("clear", "fresh")], st.context.standing
    )
    echo = tuple(EchoLine(n, t) for n, t in echo_lines(accepted, st.context.standing))
    errors = tuple(
        sorted(st.errors, key=lambda e: (e.span.line, e.span.column) if e.span else (0, 0))
    )
    clears = tuple(dict.fromkeys(i.value for i in accepted if i.kind in ("clear", "fresh")))
    return ParsedOrders(
        orders,
        errors,
        echo,
        tuple(st.not_understood),
        chatter=tuple(sorted(st.chatter, key=lambda e: e.line)),
        clears=clears,
        line_parts=_line_parts(st),
        notes=tuple(st.notes),
        # a line's nearest reading stands while its refusal does (a later line may read it)
        nearest=tuple(n for n in st.nearest if n.line in _refused(st)),
    )


def _refused(st: ReadState) -> set[int]:
    return {e.span.line for e in st.errors if e.span is not None and e.blocks}


def _item_parts(item: Item) -> tuple[str, ...]:
    kind = item.kind
    if kind == "slot":
        return (f"name {item.value[0]}",)
    if kind == "reviews":
        return (f"{item.value[0]} reviews",)
    if kind in ("clear", "fresh"):
        return (CLEAR_WORDS[item.value],)
    if kind == "placed":
        v = item.value
        styled = isinstance(v, BattingStyle) or (bool(v) and isinstance(v[0], BattingStyle))
        return ("styles",) if styled else ("batting order",)
    return (_KIND_PART[kind],) if kind in _KIND_PART else ()


_KIND_PART = {
    "team": "team name",
    "xi": "xi",
    "captain": "captain",
    "keeper": "wicketkeeper",
    "toss": "toss",
    "order": "batting order",
    "openers": "batting order",
    "position": "batting order",
    "style": "styles",
    "all_style": "styles",
    "others_style": "styles",
    "except_style": "styles",
    "plan": "bowling plan",
    "rest": "bowling plan",
    "rule": "conditional orders",
    "treat": "helper points",
    "boost": "helper points",
    "note": "notes",
}
# A line with an error and no order read from it is put to a part by its first word.
_FIRST_WORD_PART = (
    (re.compile(r"(?:captain|capt\.?|skipper)\b", re.I), "captain"),
    (re.compile(r"(?:wicket[\s-]?keeper|keeper|wk)\b", re.I), "wicketkeeper"),
    (re.compile(r"(?:xi|playing xi|eleven|selection|team\s*:)", re.I), "xi"),
    (re.compile(r"toss\b", re.I), "toss"),
    (re.compile(r"batting\s+order\b", re.I), "batting order"),
    (re.compile(r"(?:treat|heal|cure|boost|train|improve)\b", re.I), "helper points"),
    (re.compile(r"bowling\s+reviews?\b", re.I), "bowling reviews"),
    (re.compile(r"(?:batting\s+)?(?:reviews?|drs)\b", re.I), "batting reviews"),
    (
        re.compile(r"(?:if|when|whenever|once|after|from|at|with|unless|while|as soon as)\b", re.I),
        "conditional orders",
    ),
)


def _line_parts(st: ReadState) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Which parts of the orders each line spoke to (for merging a mail into what stands)."""
    parts: dict[int, list[str]] = {}
    for item in st.items:
        for p in _item_parts(item):
            parts.setdefault(item.line.number, []).append(p)
    for number, kind in st.section_lines.items():
        parts.setdefault(number, []).append(_KIND_PART[kind])
    for n in st.not_understood:
        parts.setdefault(n.line, []).append("conditional orders")
    for e in st.errors:
        if e.span is None or e.span.line in parts:
            continue
        text = _BULLET_STRIP.sub("", e.source_line or "").strip()
        for pattern, part in _FIRST_WORD_PART:
            if pattern.match(text):
                parts[e.span.line] = [part]
                break
    return tuple((n, tuple(dict.fromkeys(p))) for n, p in sorted(parts.items()))


_BULLET_STRIP = re.compile(r"^\s*(?:[-*•]+\s*|\d{1,3}[.):]\s+)?(?:please\s+)?", re.I)
