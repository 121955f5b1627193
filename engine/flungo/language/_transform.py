"""The parse tree of one line turned into drafts (see _drafts.py and orders.lark)."""

from __future__ import annotations

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
    CondD,
    Draft,
    Entries,
    HeaderD,
    KeeperD,
    NumberError,
    OpenD,
    OrderD,
    Ref,
    ReviewsD,
    RuleD,
    StyleD,
    TossD,
    TreatD,
    TrigD,
    XiD,
)
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

__all__ = ["to_draft", "to_entries"]


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
        return XiD(c[-1])

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

    def style_action(self, c: list[Any]) -> StyleD:
        style = next(x for x in c if isinstance(x, BattingStyle))
        target = next((x for x in c if isinstance(x, tuple)), None)
        if target is None:
            return StyleD(None, (), 0, style)
        return StyleD(target[0], (), target[1], style)

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
        return BowlD(refs, c[-1], refs[0].start)

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
        return ClauseD(trigger, conds, acts, until, meta_start)

    def chain(self, c: list[Any]) -> ClauseD:
        clause: ClauseD = c[-1]
        return clause

    def rule(self, c: list[Any]) -> RuleD:
        return RuleD(tuple(c))

    def start(self, c: list[Any]) -> Any:
        return c[-1]


def _prepare(tree: Tree[Token], text: str) -> Tree[Token]:
    """Rewrite word ordinals ("sixth") as ORDINAL tokens and note where each clause starts."""
    for sub in tree.iter_subtrees():
        if sub.data == "word_ordinal":
            word = text[sub.meta.start_pos : sub.meta.end_pos].lower()
            n = _ORDINAL_WORDS.get(word, 1)
            sub.data = Token("RULE", "ordinal")
            sub.children = [
                Token("ORDINAL", f"{n}th", start_pos=sub.meta.start_pos, end_pos=sub.meta.end_pos)
            ]
        elif sub.data in ("lead_clause", "cond_clause", "tail_clause"):
            sub.children.append(Token("CLAUSE_START", str(sub.meta.start_pos)))
            sub.data = Token("RULE", "clause")
    return tree


class _WithClause(_ToDraft):
    def clause(self, c: list[Any]) -> ClauseD:
        start = int(str(c[-1]))
        return self._clause(c[:-1], start)


def _transform(tree: Tree[Token], text: str, masked: dict[int, str]) -> Any:
    try:
        return _WithClause(masked).transform(_prepare(tree, text))
    except VisitError as exc:  # lark wraps what a callback raises
        if isinstance(exc.orig_exc, NumberError):
            raise exc.orig_exc from None
        raise


def to_entries(tree: Tree[Token], text: str, masked: dict[int, str]) -> Entries:
    """The names (and styles) of a line under a heading, parsed with ``start="entries"``."""
    result: Entries = _transform(tree, text, masked)
    return result


def to_draft(tree: Tree[Token], text: str, masked: dict[int, str]) -> Draft:
    """The draft a line's parse tree says (``NumberError`` for a bad number)."""
    result: Draft = _transform(tree, text, masked)
    return result
