"""The parse tree of one line turned into drafts (see _drafts.py and orders.lark)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from enum import Enum
from types import MappingProxyType
from typing import Any

from lark import Token, Transformer, Tree
from lark.exceptions import VisitError

from engine.flungo.language._conditions import Conditions, int_of, tokens
from engine.flungo.language._drafts import (
    ActD,
    BoostD,
    BowlD,
    CaptainD,
    ClauseD,
    ClearD,
    CondD,
    HeaderD,
    KeeperD,
    NumberError,
    OpenD,
    OpenersD,
    OrderD,
    PositionD,
    Ref,
    RestD,
    ReviewsD,
    RuleD,
    StyleD,
    TossD,
    TreatD,
    TrigD,
    XiD,
)
from engine.flungo.language._grammar import fast_parser, parsed
from engine.flungo.language._lalr import meta, span
from engine.flungo.language._reader import KeptTable, spend
from engine.flungo.orders import (
    BattingStyle,
    Comparison,
    Condition,
    Quantity,
    ReviewMode,
    Stat,
    TargetKind,
    TossChoice,
    TriggerKind,
)

__all__ = ["read_line", "said", "walk"]


_ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}


class _ToDraft(Conditions, Transformer[Token, Any]):
    """Bottom-up: each grammar rule becomes a draft value (see orders.lark for the rules)."""

    def __init__(self, masked: dict[int, str]) -> None:
        super().__init__()
        self.masked = masked

    # names
    def name(self, children: list[Token]) -> Ref:
        first, last = children[0], children[-1]
        start, end = first.start_pos or 0, last.end_pos or 0
        if len(children) == 1 and first.type == "NAMEREF":
            exact = self.masked.get(ord(str(first)[0]) - 0xE100)
            return Ref(exact or str(first), start, end, exact)
        words = [
            self.masked.get(ord(str(c)[0]) - 0xE100, str(c)) if c.type == "NAMEREF" else str(c)
            for c in children
        ]
        return Ref(" ".join(words), start, end)

    def names(self, children: list[Ref]) -> tuple[Ref, ...]:
        return tuple(children)

    def ordinal(self, children: list[Token]) -> Token:
        """An ordinal as a NUMBER token ("6th" is 6), keeping its place for errors."""
        tok = children[0]
        digits = "".join(ch for ch in str(tok) if ch.isdigit())
        return Token("NUMBER", digits, start_pos=tok.start_pos, end_pos=tok.end_pos)

    # selection
    def xi(self, c: list[Any]) -> XiD:
        return c[-1]  # type: ignore[no-any-return]

    def mark_captain(self, _: list[Any]) -> str:
        return "c"

    def mark_keeper(self, _: list[Any]) -> str:
        return "wk"

    def mark_both(self, _: list[Any]) -> str:
        return "c+wk"

    def xi_name(self, c: list[Any]) -> tuple[Ref, str]:
        return (c[0], c[1] if len(c) > 1 else "")

    def xi_names(self, c: list[tuple[Ref, str]]) -> XiD:
        refs = tuple(r for r, _ in c)
        captain = next((r for r, m in c if "c" in m.split("+")), None)
        keeper = next((r for r, m in c if "wk" in m.split("+")), None)
        return XiD(refs, captain, keeper)

    def _one(self, refs: tuple[Ref, ...], what: str) -> Ref:
        if len(refs) != 1:
            raise NumberError(f"name one {what}", refs[0].start, refs[-1].end)
        return refs[0]

    def captain_after(self, c: list[Any]) -> CaptainD:
        return CaptainD(self._one(c[0], "captain"))

    def keeper_after(self, c: list[Any]) -> KeeperD:
        return KeeperD(self._one(c[0], "wicketkeeper"))

    def position(self, c: list[Any]) -> PositionD:
        ref = self._one(c[0], "batsman for each place")
        style = next((x for x in c if isinstance(x, BattingStyle)), None)
        num = tokens(c, "NUMBER")[0]
        place = int_of(num)
        if not 1 <= place <= 11:
            raise NumberError(
                "a place in the batting order is 1 to 11", num.start_pos or 0, num.end_pos or 0
            )
        return PositionD(ref, place, style)

    def bat_openers(self, c: list[Any]) -> OpenersD:
        return OpenersD(next(x for x in c if isinstance(x, tuple)))

    def part_rules(self, _: list[Any]) -> str:
        return "rules"

    def part_plan(self, _: list[Any]) -> str:
        return "plan"

    def part_order(self, _: list[Any]) -> str:
        return "order"

    def part_styles(self, _: list[Any]) -> str:
        return "styles"

    def part_helpers(self, _: list[Any]) -> str:
        return "helpers"

    def part_notes(self, _: list[Any]) -> str:
        return "notes"

    def clear(self, c: list[Any]) -> ClearD:
        return ClearD(next(x for x in c if isinstance(x, str)))

    def captain(self, c: list[Any]) -> CaptainD:
        return CaptainD(c[-1])

    def keeper(self, c: list[Any]) -> KeeperD:
        return KeeperD(c[-1])

    def bat(self, _: list[Any]) -> TossChoice:
        return TossChoice.BAT

    def bowl(self, _: list[Any]) -> TossChoice:
        return TossChoice.BOWL

    def toss(self, c: list[Any]) -> TossD:
        return TossD(next(x for x in c if isinstance(x, TossChoice)))

    def batting_header(self, _: list[Any]) -> HeaderD:
        return HeaderD("batting")

    def xi_header(self, _: list[Any]) -> HeaderD:
        return HeaderD("xi")

    def no_header(self, _: list[Any]) -> HeaderD:
        return HeaderD("none")

    # batting order
    def defensive(self, _: list[Any]) -> BattingStyle:
        return BattingStyle.DEFENSIVE

    def normal(self, _: list[Any]) -> BattingStyle:
        return BattingStyle.NORMAL

    def aggressive(self, _: list[Any]) -> BattingStyle:
        return BattingStyle.AGGRESSIVE

    def wahoo(self, _: list[Any]) -> BattingStyle:
        return BattingStyle.WAHOO

    def style(self, c: list[Any]) -> BattingStyle:  # pragma: no cover - every style is aliased
        return BattingStyle(str(c[0]).lower())

    def style_suffix(self, c: list[Any]) -> BattingStyle:
        return next(x for x in c if isinstance(x, BattingStyle))

    def entry(self, c: list[Any]) -> tuple[Ref, BattingStyle | None]:
        return (c[0], c[1] if len(c) > 1 else None)

    def entries(self, c: list[Any]) -> tuple[tuple[Ref, BattingStyle | None], ...]:
        return tuple(c)

    def batting_order(self, c: list[Any]) -> OrderD:
        return OrderD(c[-1])

    # reviews
    def batting_side(self, _: list[Any]) -> str:
        return "batting"

    def bowling_side(self, _: list[Any]) -> str:
        return "bowling"

    def policy_all(self, _: list[Any]) -> ReviewsD:
        return ReviewsD(None, ReviewMode.ALL)

    def policy_never(self, _: list[Any]) -> ReviewsD:
        return ReviewsD(None, ReviewMode.NEVER)

    def policy_named(self, c: list[Any]) -> ReviewsD:
        return ReviewsD(None, ReviewMode.NAMED, refs=c[-1])

    def policy_top(self, c: list[Any]) -> ReviewsD:
        return ReviewsD(None, ReviewMode.TOP_ORDER, top=int_of(tokens(c, "NUMBER")[0]))

    def reviews_action(self, c: list[Any]) -> ReviewsD:
        policy: ReviewsD = c[-1]
        side = c[0] if isinstance(c[0], str) else None
        return ReviewsD(side, policy.mode, policy.refs, policy.top)

    def reviews_never(self, c: list[Any]) -> ReviewsD:
        side = c[0] if c and isinstance(c[0], str) else None
        return ReviewsD(side, ReviewMode.NEVER)

    # helper points
    def treat(self, c: list[Any]) -> TreatD:
        nums = tokens(c, "NUMBER")
        return TreatD(c[0], int_of(nums[0]) if nums else None)

    def batting_stat(self, _: list[Any]) -> Stat:
        return Stat.BATTING

    def bowling_stat(self, _: list[Any]) -> Stat:
        return Stat.BOWLING

    def fielding_stat(self, _: list[Any]) -> Stat:
        return Stat.FIELDING

    def boost(self, c: list[Any]) -> BoostD:
        ref = next(x for x in c if isinstance(x, Ref))
        stat = next(x for x in c if isinstance(x, Stat))
        return BoostD(ref, stat)

    # triggers
    def _trig(self, kind: TriggerKind, c: list[Any], **kw: Any) -> TrigD:
        nums = tokens(c, "NUMBER")
        ints = [x for x in c if isinstance(x, int) and not isinstance(x, bool)]
        value = int_of(nums[0]) if nums else (ints[0] if ints else None)
        ref = next((x for x in c if isinstance(x, Ref)), None)
        start = (nums[0].start_pos or 0) if nums else (ref.start if ref else 0)
        return TrigD(kind, value, ref, start=start, **kw)

    def after_overs(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.AFTER_OVERS, c)

    def after_balls(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.AFTER_BALLS, c)

    def from_over(self, c: list[Any]) -> TrigD:
        """ "from over 15" is "after 14 overs"."""
        t = self._trig(TriggerKind.AFTER_OVERS, c)
        return TrigD(t.kind, (t.value or 0) - 1, t.ref, t.overs_left, t.start)

    def _need_off(self, c: list[Any], per_over: bool) -> TrigD:
        """ "if we need 30 off the last 12 balls": 12 balls left, if 30 or more are needed."""
        need, left = tokens(c, "NUMBER")[:2]
        cond = CondD(Condition(Quantity.RUNS_NEEDED, Comparison.GE, float(int_of(need))))
        return TrigD(
            TriggerKind.BALLS_LEFT,
            int_of(left),
            overs_left=per_over,
            start=left.start_pos or 0,
            conds=(cond,),
        )

    def need_off_balls(self, c: list[Any]) -> TrigD:
        return self._need_off(c, per_over=False)

    def need_off_overs(self, c: list[Any]) -> TrigD:
        return self._need_off(c, per_over=True)

    def at_drinks(self, c: list[Any]) -> TrigD:
        return TrigD(TriggerKind.AT_DRINKS)

    def wicket(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.WICKET, c)

    def batsman_out(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.BATSMAN_OUT, c)

    def score_reaches(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.SCORE_REACHES, c)

    def runs_needed(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.RUNS_NEEDED, c)

    def balls_left(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.BALLS_LEFT, c)

    def overs_left(self, c: list[Any]) -> TrigD:
        return self._trig(TriggerKind.BALLS_LEFT, c, overs_left=True)

    def first_overs(self, c: list[Any]) -> TrigD:
        """ "for the first 10 overs": from the start until after 10 overs."""
        t = self._trig(TriggerKind.AFTER_OVERS, c)
        return TrigD(TriggerKind.AFTER_OVERS, 0, start=t.start, until=t)

    def while_in(self, c: list[Any]) -> TrigD:
        """ "while Root is in": from the start until Root is out."""
        t = self._trig(TriggerKind.BATSMAN_OUT, c)
        return TrigD(TriggerKind.AFTER_BALLS, 0, start=t.start, until=t)

    def _rate(self, c: list[Any], q: Quantity, op: Comparison) -> TrigD:
        num = tokens(c, "NUMBER")[0]
        cond = CondD(Condition(q, op, float(str(num))))
        return TrigD(TriggerKind.CONDITIONS, start=num.start_pos or 0, conds=(cond,))

    def rate_up_required(self, c: list[Any]) -> TrigD:
        return self._rate(c, Quantity.REQUIRED_RATE, Comparison.GT)

    def rate_down_required(self, c: list[Any]) -> TrigD:
        return self._rate(c, Quantity.REQUIRED_RATE, Comparison.LT)

    def rate_up_run(self, c: list[Any]) -> TrigD:
        return self._rate(c, Quantity.RUN_RATE, Comparison.GT)

    def rate_down_run(self, c: list[Any]) -> TrigD:
        return self._rate(c, Quantity.RUN_RATE, Comparison.LT)

    def score_for(self, c: list[Any]) -> TrigD:
        """ "when the score is 100 for 2": when it reaches 100, if 2 or fewer are down."""
        runs, wickets = tokens(c, "NUMBER")[:2]
        cond = CondD(Condition(Quantity.WICKETS, Comparison.LE, float(int_of(wickets))))
        return TrigD(
            TriggerKind.SCORE_REACHES, int_of(runs), start=runs.start_pos or 0, conds=(cond,)
        )

    def trigger(self, c: list[Any]) -> TrigD:
        return next(x for x in c if isinstance(x, TrigD))

    def event(self, c: list[Any]) -> TrigD:  # pragma: no cover - every event is aliased
        return next(x for x in c if isinstance(x, TrigD))

    def until_part(self, c: list[Any]) -> tuple[str, TrigD]:
        return ("until", next(x for x in c if isinstance(x, TrigD)))

    # actions
    def all_target(self, _: list[Any]) -> tuple[TargetKind, int]:
        return (TargetKind.ALL, 0)

    def next_target(self, c: list[Any]) -> tuple[TargetKind, int]:
        return (TargetKind.NEXT, int_of(tokens(c, "NUMBER")[0]))

    def remaining_target(self, _: list[Any]) -> tuple[TargetKind, int]:
        return (TargetKind.REMAINING, 0)

    def others_target(self, _: list[Any]) -> tuple[TargetKind, int]:
        return (TargetKind.ALL, -1)  # -1: "everyone else", see style_action

    def except_part(self, c: list[Any]) -> tuple[str, tuple[Ref, ...], BattingStyle | None]:
        style = c[-1] if isinstance(c[-1], BattingStyle) else None
        return ("except", c[0], style)

    def except_names(self, c: list[Any]) -> tuple[str, tuple[Ref, ...], BattingStyle | None]:
        return ("except", c[0], None)

    def style_action(self, c: list[Any]) -> StyleD:
        style = next(x for x in c if isinstance(x, BattingStyle))
        exc = next((x for x in c if isinstance(x, tuple) and x and x[0] == "except"), None)
        excepted: tuple[Ref, ...] = exc[1] if exc else ()
        if exc is not None and exc[2] is not None:
            return StyleD(None, (), 0, style, excepted=excepted, except_style=exc[2])
        target = next(
            (x for x in c if isinstance(x, tuple) and x and isinstance(x[0], TargetKind)), None
        )
        if target is None:
            return StyleD(None, (), 0, style, excepted=excepted)
        if target[1] == -1:
            return StyleD(TargetKind.ALL, (), 0, style, others=True, excepted=excepted)
        return StyleD(target[0], (), target[1], style, excepted=excepted)

    def named_style_action(self, c: list[Any]) -> StyleD:
        style = next(x for x in c if isinstance(x, BattingStyle))
        return StyleD(TargetKind.NAMED, c[0], 0, style)

    def span(self, c: list[Token]) -> tuple[int, ...]:
        lo = int_of(c[0])
        hi = int_of(c[-1])
        if hi < lo:
            raise NumberError(
                f"the range {lo}-{hi} runs backwards", c[0].start_pos or 0, c[-1].end_pos or 0
            )
        if hi - lo > 200:
            raise NumberError(
                f"the range {lo}-{hi} is too long", c[0].start_pos or 0, c[-1].end_pos or 0
            )
        return tuple(range(lo, hi + 1))

    def overs(self, c: list[Any]) -> tuple[int, ...]:
        return tuple(o for span in c if isinstance(span, tuple) for o in span)

    def bowl_action(self, c: list[Any]) -> BowlD:
        refs: tuple[Ref, ...] = c[0]
        overs = next(x for x in reversed(c) if isinstance(x, tuple) and x and isinstance(x[0], int))
        return BowlD(refs, overs, refs[0].start)

    def ordinal_overs(self, c: list[Token]) -> tuple[int, ...]:
        return tuple(int_of(t) for t in c if isinstance(t, Token) and t.type == "NUMBER")

    def rest_action(self, c: list[Any]) -> RestD:
        return RestD(c[0])

    def open_either(self, c: list[Any]) -> OpenD:
        return OpenD(c[0], either=True)

    def overs_first(self, c: list[Any]) -> BowlD:
        refs: tuple[Ref, ...] = c[-1]
        return BowlD(refs, c[0], refs[0].start)

    def open_action(self, c: list[Any]) -> OpenD:
        """ "Anderson opens the bowling with Warne" is "Anderson and Warne open"."""
        names = next(x for x in c if isinstance(x, tuple))
        partner = tuple(x for x in c if isinstance(x, Ref))
        return OpenD(names + partner)

    def actions(self, c: list[Any]) -> tuple[ActD, ...]:
        return tuple(c)

    # rules
    def _clause(self, c: list[Any], meta_start: int) -> ClauseD:
        trigger = next((x for x in c if isinstance(x, TrigD)), None)
        conds = tuple(
            d for x in c if isinstance(x, tuple) and x and isinstance(x[0], CondD) for d in x
        )
        if trigger is not None and trigger.conds:
            conds = trigger.conds + conds
        acts = next(
            x for x in c if isinstance(x, tuple) and x and not isinstance(x[0], (CondD, str))
        )
        until = next((x[1] for x in c if isinstance(x, tuple) and x and x[0] == "until"), None)
        if until is None and trigger is not None:
            until = trigger.until  # "for the first 10 overs", "while Root is in"
        return ClauseD(trigger, conds, acts, until, meta_start)

    def chain(self, c: list[Any]) -> ClauseD:
        clause: ClauseD = c[-1]
        return clause

    def rule(self, c: list[Any]) -> RuleD:
        return RuleD(tuple(c))

    def start(self, c: list[Any]) -> Any:
        return c[-1]


class _WithClause(_ToDraft):
    def clause(self, c: list[Any]) -> ClauseD:
        start = int(str(c[-1]))
        clause = self._clause(c[:-1], start)
        return dataclasses.replace(clause, tail=True) if c[-1].type == _TAIL else clause


# How a rule's node is read: by the method of its name, a word ordinal ("sixth") as an
# ORDINAL token, each kind of clause as "clause" with where it starts as a last child.
_WORD_ORDINAL = frozenset(["word_ordinal"])
_CLAUSES = frozenset(["lead_clause", "cond_clause", "tail_clause"])
_TAIL = "TAIL_CLAUSE_START"  # a clause whose trigger follows its actions
# Constants of the class, made at import: each method of a rule's name, and the rules read
# by their method alone (see _Reader).
_METHODS: Mapping[str, Any] = MappingProxyType(
    {n: getattr(_WithClause, n) for n in dir(_WithClause) if not n.startswith("__")}
)
_PLAIN: Mapping[str, Any] = MappingProxyType(
    {n: m for n, m in _METHODS.items() if n not in _CLAUSES and n not in _WORD_ORDINAL}
)


def _method(data: str) -> Any:
    return _METHODS.get(data, False)


def _walk(walker: _WithClause, tree: Tree[Token], text: str) -> Any:
    """Bottom-up, as lark's ``Transformer.transform`` calls the methods (the parse tree is
    left as it is: it is remembered and shared)."""
    data = tree.data
    if data in _CLAUSES:
        children = [_walk(walker, c, text) if type(c) is Tree else c for c in tree.children]
        kind = _TAIL if data == "tail_clause" else "CLAUSE_START"
        children.append(Token(kind, str(tree.meta.start_pos)))
        data = "clause"
    elif data in _WORD_ORDINAL:
        meta = tree.meta
        n = _ORDINAL_WORDS.get(text[meta.start_pos : meta.end_pos].lower(), 1)
        children = [Token("ORDINAL", f"{n}th", start_pos=meta.start_pos, end_pos=meta.end_pos)]
        data = "ordinal"
    else:
        children = [_walk(walker, c, text) if type(c) is Tree else c for c in tree.children]
    method = _method(data)
    if method is False:
        return Tree(data, children, tree.meta)
    try:
        return method(walker, children)
    except Exception as exc:  # as lark's transformer does, so callers see one kind
        raise VisitError(data, tree, exc) from exc  # type: ignore[no-untyped-call]


class _Reader:
    """The methods of :class:`_ToDraft` applied as the parser reduces each rule, as
    :func:`_walk` applies them to the tree (see :meth:`FastParser.read`).

    What a method raises is kept and the rest of the line only parsed, not read: a line
    that breaks later is a line that does not parse, as it is when the tree is walked
    after the parse; one that parses raises the first error of a bottom-up walk.
    """

    __slots__ = ("error", "text", "walker")

    def __init__(self, text: str, masked: dict[int, str]) -> None:
        self.walker = _WithClause(masked)
        self.text = text
        self.error: tuple[str, Exception] | None = None

    def __call__(self, name: str, kept: list[Any], place: Any) -> Any:
        if self.error is not None:
            return None
        method = _PLAIN.get(name)
        try:
            if method is not None:  # most rules: the method of the rule's name, no more
                return method(self.walker, kept)
            if name in _CLAUSES:
                kind = _TAIL if name == "tail_clause" else "CLAUSE_START"
                kept.append(Token(kind, str(span(place)[0])))  # type: ignore[index]
                name = "clause"
            elif name in _WORD_ORDINAL:
                a, b = span(place)  # type: ignore[misc]
                n = _ORDINAL_WORDS.get(self.text[a:b].lower(), 1)
                kept = [Token("ORDINAL", f"{n}th", start_pos=a, end_pos=b)]
                name = "ordinal"
            method = _method(name)
            if method is False:
                return Tree(name, kept, meta(span(place)))
            return method(self.walker, kept)
        except Exception as exc:  # raised once the line is known to parse
            self.error = (name, exc)
            return None


def read_line(text: str, start: str, masked: dict[int, str]) -> Any:
    """What a masked line says, parsed and read in one pass: the draft (``start="start"``)
    or the names and styles of a line under a heading (``start="entries"``), the
    ``NumberError`` of a bad number, or the index where the line breaks (an ``int``); as
    :func:`walk` of the line's parse tree says, without the tree.

    Remembered, as a draft is: a line alike with the same slots masked is read once. The
    names behind the masks are not part of what is remembered: a turn's mails say the same
    lines with each team's own names (the same masked text when the names are as long), so
    the line is read once with a stand-in for each name and the names are put in after.
    """
    if "\x00" not in text and all(masked.values()):
        # (a stand-in could not be told from such a text, never a mail's: control characters
        # are refused; an empty name's token would stand for it)
        slots = (start, text, tuple(sorted(masked)))
        templates = _TEMPLATES.here()
        template = templates.get(slots)
        if template is None:
            # seen once: read with its names below (most lines of a mail are never seen
            # again, and for those reading with stand-ins and putting the names in after
            # would only cost more); the template is made the next time
            if len(templates) > 16384:
                templates.clear()
            templates[slots] = _SEEN_ONCE
        elif template is _SEEN_ONCE:
            template = templates[slots] = _template(said(text, start, _StandIns(slots[2])))
        if type(template) is tuple:
            value, fill = template
            return value if fill is None else fill(masked)
    key = (start, text, tuple(sorted(masked.items())))
    lines = _LINES.here()
    found = lines.get(key)
    if found is None:
        found = said(text, start, masked)
        if len(lines) > 16384:
            lines.clear()
        lines[key] = found
    return found


class _StandIns(dict[int, str]):
    """The masked names of a line as stand-ins: ``\x00<index>\x00`` for each index masked."""

    def __init__(self, indices: tuple[int, ...]) -> None:
        super().__init__((i, f"\x00{i}\x00") for i in indices)


_UNFILLED: Any = object()  # a reading the names cannot be put into (see _template)
_SEEN_ONCE: Any = object()  # a line read once, with its names (see read_line)
_STAND_IN = re.compile("\x00(\\d+)\x00")


def _template(value: Any) -> Any:
    """(``value``, the function that puts the names in, or ``None`` if it names no one) for
    a reading made with stand-ins; ``_UNFILLED`` when a stand-in is somewhere the names
    are not put (never seen: names only reach a draft as a :class:`Ref`)."""
    try:
        return value, _filler(value)
    except _Unfillable:
        return _UNFILLED


class _Unfillable(Exception):
    """A stand-in where :func:`_filler` does not look, or a value it does not look into."""


Filler = Callable[[dict[int, str]], Any]


def _filler(value: Any) -> Filler | None:
    """The function that makes ``value`` (read with stand-ins) with the names given in their
    places, or ``None`` when it has no stand-in. Made once for a line; the parts without a
    name are shared, as they are between two readings of a line that is remembered."""
    kind = type(value)
    if kind is Ref:
        return _ref_filler(value)
    if kind is tuple:
        if value and all(type(v) is Ref and v.exact is not None for v in value):
            return _names_filler(value)
        parts = [_filler(v) for v in value]
        return None if not any(parts) else _tuple_filler(kind, value, parts)
    fields = _FIELDS.get(kind)
    if fields is not None:
        values = tuple(getattr(value, f) for f in fields)
        parts = [_filler(v) for v in values]
        return None if not any(parts) else _tuple_filler(kind, values, parts)
    if kind is str and "\x00" in value:
        raise _Unfillable(value)
    if kind is Condition:  # its name is given when lowered, never in the reading
        if value.name is not None and "\x00" in value.name:
            raise _Unfillable(value)
        return None
    if kind in _ATOMS or isinstance(value, (Enum, NumberError)):
        return None
    raise _Unfillable(value)


def _ref_filler(ref: Ref) -> Filler | None:
    start, end = ref.start, ref.end
    if ref.exact is not None:  # one masked name: its text is the name
        if ref.text != ref.exact:  # pragma: no cover - name() makes them one
            raise _Unfillable(ref)
        i = int(ref.exact[1:-1])
        return lambda names: Ref(names[i], start, end, names[i])
    if "\x00" not in ref.text:
        return None
    # words and masked names written together ("Root Celebrity 3-1"): joined by spaces
    pieces = _STAND_IN.split(ref.text)  # text, index, text, index, ..., text

    def fill(names: dict[int, str]) -> Ref:
        text = "".join(p if k % 2 == 0 else names[int(p)] for k, p in enumerate(pieces))
        return Ref(text, start, end)

    return fill


def _names_filler(refs: tuple[Ref, ...]) -> Filler:
    """A tuple of masked names ("XI: 1, 2, 3 ..."), filled in one go."""
    for r in refs:
        if r.exact is None or r.text != r.exact:  # pragma: no cover - name() makes them one
            raise _Unfillable(r)
    places = [(int(r.exact[1:-1]), r.start, r.end) for r in refs if r.exact is not None]
    return lambda names: tuple([Ref(names[i], a, b, names[i]) for i, a, b in places])


def _tuple_filler(kind: type, values: tuple[Any, ...], parts: list[Filler | None]) -> Filler:
    """A tuple (``kind`` is tuple) or a draft (made from its fields in order) filled."""
    todo = [(k, f) for k, f in enumerate(parts) if f is not None]

    def fill(names: dict[int, str]) -> Any:
        out = list(values)
        for k, f in todo:
            out[k] = f(names)
        return tuple(out) if kind is tuple else kind(*out)

    return fill


# The drafts a reading is made of, with their fields in order (every one is in __init__).
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls))
    for cls in (
        XiD,
        CaptainD,
        KeeperD,
        TossD,
        HeaderD,
        OrderD,
        TreatD,
        BoostD,
        CondD,
        TrigD,
        StyleD,
        BowlD,
        OpenD,
        RestD,
        OpenersD,
        PositionD,
        ClearD,
        ReviewsD,
        ClauseD,
        RuleD,
    )
}
assert all(f.init for cls in _FIELDS for f in dataclasses.fields(cls))
_ATOMS = frozenset([str, int, float, bool, type(None)])


def said(text: str, start: str, masked: dict[int, str]) -> Any:
    """:func:`read_line`, not remembered."""
    if "\n" in text:  # never from a mail's lines: lark reads it (see _grammar._parsed)
        tree = parsed(text, start)
        if isinstance(tree, int):
            return tree
        try:
            return walk(tree, text, masked)
        except NumberError as exc:
            return exc
    spend(text)
    reader = _Reader(text, masked)
    result = fast_parser().read(text, start, reader)
    if isinstance(result, int) or reader.error is None:
        return result
    name, raised = reader.error
    if isinstance(raised, NumberError):
        return raised
    raise VisitError(name, None, raised) from raised  # type: ignore[no-untyped-call]


def walk(tree: Tree[Token], text: str, masked: dict[int, str]) -> Any:
    """What a line's parse tree says (``NumberError`` raised for a bad number), walking it
    as lark's transformer would: what :func:`read_line` gives in one pass."""
    try:
        return _walk(_WithClause(masked), tree, text)
    except VisitError as exc:  # what a callback raised
        if isinstance(exc.orig_exc, NumberError):
            raise exc.orig_exc from None
        raise


_LINES: KeptTable[tuple[str, str, tuple[tuple[int, str], ...]], Any] = KeptTable("lines")
# Lines read with stand-ins for their names: (start, text, the indices masked) -> (the
# reading, what puts the names in) or _UNFILLED, or _SEEN_ONCE (see read_line).
_TEMPLATES: KeptTable[tuple[str, str, tuple[int, ...]], Any] = KeptTable("templates")
