"""Drafts to typed orders: names resolved, spells spread over overs, "but" clauses chained."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError, Span
from engine.flungo.formats import FormatSpec
from engine.flungo.language._drafts import (
    ActD,
    BowlD,
    ClauseD,
    CondD,
    OpenD,
    Ref,
    RestD,
    ReviewsD,
    RuleD,
    StyleD,
    TrigD,
)
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._names import NameBook
from engine.flungo.orders import (
    Action,
    BattingStyle,
    BowlingChange,
    BowlingRest,
    Comparison,
    Condition,
    Quantity,
    ReviewPolicy,
    ReviewsChange,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from engine.flungo.squad import Team

__all__ = ["Lowerer", "Plain"]


@dataclass
class Plain:
    """What a line of actions without a trigger says: ordinary orders."""

    styles: list[tuple[str, BattingStyle]] = field(default_factory=list)
    all_styles: list[BattingStyle] = field(default_factory=list)  # "all batsmen aggressive"
    plan: list[tuple[int, str]] = field(default_factory=list)
    where: list[tuple[int, int]] = field(default_factory=list)  # each plan entry's place
    reviews: list[tuple[str, ReviewPolicy]] = field(default_factory=list)
    openers: list[str] = field(default_factory=list)  # the batsmen who open
    others_styles: list[BattingStyle] = field(default_factory=list)  # "everyone else normal"
    # "all batsmen normal except Flintoff": the style and who keeps his own
    except_styles: list[tuple[BattingStyle, tuple[str, ...]]] = field(default_factory=list)
    rest: list[tuple[str, ...]] = field(default_factory=list)  # "Green and White the rest"
    # a sentence with two readings: not acted on, each reading in canonical words
    readings: list[str] = field(default_factory=list)


class Lowerer:
    """Resolves one line's drafts, raising the first :class:`OrderError` of each name."""

    def __init__(
        self, line: CleanLine, own: NameBook, opponent: NameBook | None, fmt: FormatSpec
    ) -> None:
        self.line = line
        self.own = own
        self.opponent = opponent
        self.fmt = fmt
        self.errors: list[OrderError] = []
        self.team: Team | None = None  # who bowls and who bats, for "X and Y open"
        # (clause, action) of each "everyone else" in a rule whose clause names nobody else:
        # it leaves out the batsmen the mail's other lines give a style (see _expand)
        self.elsewhere: list[tuple[int, int]] = []

    def span(self, start: int, end: int) -> Span:
        return self.line.span(start, end)

    def illegal(self, message: str, start: int, end: int, hint: str | None = None) -> IllegalOrder:
        return IllegalOrder(
            message, source_line=self.line.raw, span=self.span(start, end), hint=hint
        )

    def invalid(self, message: str, start: int, end: int, hint: str | None = None) -> InvalidOrder:
        return InvalidOrder(
            message, source_line=self.line.raw, span=self.span(start, end), hint=hint
        )

    def name(self, ref: Ref, book: NameBook | None = None) -> str:
        """The squad member ``ref`` means (errors are collected; "?" stands in)."""
        book = book or self.own
        if ref.exact is not None and ref.exact in book.names:
            return ref.exact
        try:
            return book.find(
                ref.text, source_line=self.line.raw, span=self.span(ref.start, ref.end)
            )
        except OrderError as exc:
            self.errors.append(exc)
            return "?"

    def either(self, ref: Ref) -> str:
        """A batsman of either side ("when Smith is out"): own squad first, then the opponent."""
        if self.opponent is None or self.own.candidates(ref.exact or ref.text):
            return self.name(ref)
        if self.opponent.candidates(ref.exact or ref.text):
            return self.name(ref, self.opponent)
        return self.name(ref)

    def many(self, ref: Ref, book: NameBook | None = None) -> tuple[str, ...]:
        """The squad members ``ref`` means: one, or several written without commas."""
        book = book or self.own
        if ref.exact is None and not book.candidates(ref.text):
            split = book.split(ref.text)
            if split is not None:
                return tuple(split)
        return (self.name(ref, book),)

    def names(self, refs: tuple[Ref, ...], book: NameBook | None = None) -> tuple[str, ...]:
        return tuple(n for r in refs for n in self.many(r, book))

    # ---- actions --------------------------------------------------------------------------

    def overs(self, d: BowlD) -> list[tuple[int, str]]:
        """The (over, bowler) pairs of a bowling draft; several bowlers take turns."""
        bowlers = self.names(d.refs)
        overs = sorted(set(d.overs))
        for o in overs:
            if not 1 <= o <= self.fmt.overs:
                word = "sets" if self.fmt.is_hundred else "overs"
                self.errors.append(
                    self.illegal(
                        f"there is no over {o}: {self.fmt.title} has {word} 1 to {self.fmt.overs}",
                        d.start,
                        d.start + len(d.refs[0].text),
                    )
                )
                return []
        if len(bowlers) > len(overs):
            # "overs 17-20: Warne, Rock, Grey, Flintoff, Stone": a bowler with no over of the
            # turns is never dropped silently
            self.errors.append(
                self.illegal(
                    f"{len(bowlers)} names take turns over {len(overs)} "
                    f"{'over' if len(overs) == 1 else 'overs'}, so "
                    f"{bowlers[len(overs)]} would bowl none: give each bowler his overs",
                    d.start,
                    d.start + len(d.refs[0].text),
                )
            )
            return []
        return [(o, bowlers[i % len(bowlers)]) for i, o in enumerate(overs)]

    def policy(self, d: ReviewsD, side: str | None) -> ReviewPolicy:
        if d.mode.value == "named":
            book = self.opponent if side == "bowling" else self.own
            if side == "bowling" and book is None:
                names = tuple(" ".join(r.text.split()) for r in d.refs)  # no opponent known yet
            else:
                names = self.names(d.refs, book)
            return ReviewPolicy(d.mode, names=names)
        if d.mode.value == "top_order":
            if not 1 <= d.top <= 11:
                self.errors.append(self.illegal("the top of the order is 1 to 11 batsmen", 0, 1))
            return ReviewPolicy(d.mode, top=d.top)
        return ReviewPolicy(d.mode)

    def plain(self, actions: tuple[ActD, ...]) -> Plain:
        """A line of actions with no trigger, as ordinary orders."""
        out = Plain()
        for a in actions:
            if isinstance(a, StyleD):
                if a.others:
                    out.others_styles.append(a.style)
                elif a.excepted and a.target in (None, TargetKind.ALL):
                    excepted = self.names(a.excepted)
                    out.except_styles.append((a.style, excepted))
                    if a.except_style is not None:
                        out.styles += [(n, a.except_style) for n in excepted]
                elif a.target in (None, TargetKind.ALL):
                    out.all_styles.append(a.style)
                elif a.target is TargetKind.NAMED:
                    out.styles += [(n, a.style) for n in self.names(a.refs)]
                else:
                    self.errors.append(
                        self.invalid(
                            "'the next' and 'the remaining' batsmen need a 'when'",
                            0,
                            len(self.line.text),
                            hint="for example: after 10 overs, the next 2 batsmen bat aggressive",
                        )
                    )
            elif isinstance(a, BowlD):
                pairs = self.overs(a)
                out.plan += pairs
                out.where += [(a.start, a.refs[-1].end)] * len(pairs)
            elif isinstance(a, RestD):
                out.rest.append(self.names(a.refs))
            elif isinstance(a, OpenD) and a.either and self._opens_batting(a, out):
                continue
            elif isinstance(a, OpenD):
                each = [(r, self.many(r)) for r in a.refs]
                bowlers = tuple(n for _, ns in each for n in ns)
                if len(bowlers) > 2:
                    self.errors.append(self.illegal("only two bowlers can open", 0, 1))
                out.plan += [(i + 1, b) for i, b in enumerate(bowlers[:2])]
                out.where += [(r.start, r.end) for r, ns in each for _ in ns][:2]
            else:
                # "reviews only for Root" names our batsmen, so it is the batting side's policy
                both = ["batting"] if a.mode.value == "named" else ["batting", "bowling"]
                sides = [a.side] if a.side else both
                out.reviews += [(s, self.policy(a, s)) for s in sides]
        return out

    def _opens_batting(self, a: OpenD, out: Plain) -> bool:
        """ "X and Y open": batsmen open the batting, bowlers the bowling; a pair of one of
        each, or all-rounders, has two readings and is not acted on (``out.readings``)."""
        names = self.names(a.refs)
        if "?" in names or self.team is None:
            return False
        kinds = set()
        for n in names:
            p = self.team.player(n)
            # a clear gap between the two skills says which he is; all-rounders are both
            if p.bowling > p.batting + 2:
                kinds.add("bowl")
            elif p.batting > p.bowling + 2:
                kinds.add("bat")
            else:
                kinds.add("?")
        if kinds == {"bat"}:
            out.openers += names
            return True
        if kinds == {"bowl"}:
            return False
        out.readings += [
            f"batting order: {', '.join(names)}",
            "; ".join(f"{n} bowls over {i + 1}" for i, n in enumerate(names[:2])),
        ]
        return True

    def actions(
        self, actions: tuple[ActD, ...], inherited: StyleTarget | None, clause: int
    ) -> list[Action]:
        """A clause's actions. "Everyone else", "except" and "the rest" of the batsmen become
        targets that leave out the batsmen the clause's other style actions name; an
        "everyone else" in a clause that names nobody is noted in ``elsewhere``, as it leaves
        out whom the mail's other lines name (see _expand)."""
        first: list[Action | tuple[StyleD, tuple[str, ...]] | None] = []
        for a in actions:
            if isinstance(a, StyleD) and (a.others or a.excepted):
                first.append((a, self.names(a.excepted)))
                continue
            act = self.action(a, inherited)
            first.append(act)
            if isinstance(act, StyleChange):
                inherited = act.target
        named: list[str] = []
        for x in first:
            if isinstance(x, StyleChange) and x.target.kind is TargetKind.NAMED:
                named += x.target.names
            elif isinstance(x, tuple) and x[0].except_style is not None:
                named += x[1]
        names = tuple(dict.fromkeys(n for n in named if n != "?"))
        out: list[Action] = []
        for x in first:
            if isinstance(x, tuple):
                out += self._except(x[0], x[1], names, actions, clause, len(out))
            elif isinstance(x, StyleChange) and x.target.kind is TargetKind.REMAINING and names:
                # "Root slog, the rest wahoo": the rest are the others, not Root as well
                out.append(StyleChange(StyleTarget(TargetKind.REMAINING, excluding=names), x.style))
            elif x is not None:
                out.append(x)
        return out

    def _except(
        self,
        a: StyleD,
        excepted: tuple[str, ...],
        named: tuple[str, ...],
        actions: tuple[ActD, ...],
        clause: int,
        at: int,
    ) -> list[Action]:
        kind = TargetKind.REMAINING if a.target is TargetKind.REMAINING else TargetKind.ALL
        if a.target is TargetKind.NEXT:
            self.errors.append(
                self.invalid(
                    "'the next' batsmen 'except' some is not an order: name the batsmen",
                    0,
                    len(self.line.text),
                )
            )
            return []
        if a.others:
            moving = [
                x
                for x in actions
                if isinstance(x, StyleD) and x.target in (TargetKind.NEXT, TargetKind.REMAINING)
            ]
            if moving:
                # who "the next 2" are is known only when the rule fires
                self.errors.append(
                    self.invalid(
                        "'everyone else' beside 'the next' or 'the remaining' batsmen cannot "
                        "be known in advance: name the batsmen",
                        0,
                        len(self.line.text),
                        hint="for example: after 30 overs, Root and Stokes aggressive, "
                        "everyone else normal",
                    )
                )
                return []
            if not named:
                self.elsewhere.append((clause, at))
        if a.others or kind is TargetKind.REMAINING:
            excepted = named + excepted
        excepted = tuple(dict.fromkeys(n for n in excepted if n != "?"))
        out: list[Action] = [StyleChange(StyleTarget(kind, excluding=excepted), a.style)]
        if a.except_style is not None:
            # "all batsmen wahoo except Root defensive": Root has his own order
            out.append(StyleChange(StyleTarget(TargetKind.NAMED, names=excepted), a.except_style))
        return out

    def action(self, a: ActD, inherited: StyleTarget | None) -> Action | None:
        if isinstance(a, RestD):
            return BowlingRest(self.names(a.refs))
        if isinstance(a, StyleD):
            if a.target is None:
                target = inherited or StyleTarget(TargetKind.ALL)
            elif a.target is TargetKind.NAMED:
                target = StyleTarget(TargetKind.NAMED, names=self.names(a.refs))
            elif a.target is TargetKind.NEXT:
                if not 1 <= a.count <= 10:
                    self.errors.append(self.illegal("'the next' is 1 to 10 batsmen", 0, 1))
                target = StyleTarget(TargetKind.NEXT, count=a.count)
            else:
                target = StyleTarget(a.target)
            return StyleChange(target, a.style)
        if isinstance(a, BowlD):
            pairs = self.overs(a)
            bowlers = {b for _, b in pairs}
            if len(bowlers) > 1:
                self.errors.append(
                    self.invalid(
                        "in a 'when' order give each bowler his overs", a.start, a.start + 1
                    )
                )
                return None
            if not pairs:
                return None
            return BowlingChange(pairs[0][1], tuple(o for o, _ in pairs))
        if isinstance(a, OpenD):
            self.errors.append(
                self.invalid("in a 'when' order give the bowlers' overs, not who opens", 0, 1)
            )
            return None
        return ReviewsChange(self.policy(a, a.side))

    # ---- triggers and rules ---------------------------------------------------------------

    def trigger(self, t: TrigD) -> Trigger:
        fmt = self.fmt
        name = self.either(t.ref) if t.ref is not None else None
        value = t.value
        if t.overs_left and value is not None:
            value *= fmt.balls_per_over
        limits = {
            TriggerKind.AFTER_OVERS: (0, fmt.overs - 1, "overs"),
            TriggerKind.AFTER_BALLS: (0, fmt.balls - 1, "balls"),
            TriggerKind.WICKET: (1, 10, "wickets"),
            TriggerKind.BALLS_LEFT: (1, fmt.balls, "balls"),
            TriggerKind.SCORE_REACHES: (1, 10_000, "runs"),
            TriggerKind.RUNS_NEEDED: (1, 10_000, "runs"),
        }
        if t.kind in limits and value is not None:
            lo, hi, what = limits[t.kind]
            if not lo <= value <= hi:
                self.errors.append(
                    self.illegal(
                        f"{value} is out of range here: {lo} to {hi} {what} in {fmt.title}",
                        t.start,
                        t.start + len(str(t.value)),
                    )
                )
        return Trigger(t.kind, value=value, name=name)

    def condition(self, d: CondD) -> Condition:
        """A condition, with a number of overs left counted in balls."""
        c = d.condition
        if d.ref is not None:
            return Condition(c.quantity, c.op, c.value, self.either(d.ref))
        if d.per_over:
            # "when we need 20, if there are 3 overs left": checked then, 3 or more left
            op = Comparison.GE if c.op is Comparison.EQ else c.op
            return Condition(c.quantity, op, c.value * self.fmt.balls_per_over)
        return c

    def rule(self, d: RuleD) -> Rule | Plain:
        """A rule, or ordinary orders when the line has no trigger at all."""
        if all(c.trigger is None and not c.conditions and c.until is None for c in d.clauses):
            # "Anderson and Warne open, then Flintoff 3-4": "then" only lists more orders
            return self.plain(tuple(a for c in d.clauses for a in c.actions))
        clauses: list[tuple[ClauseD, Trigger, tuple[Action, ...]]] = []
        inherited: StyleTarget | None = None
        parts = list(d.clauses)
        for k in range(1, len(parts)):
            before, c = parts[k - 1], parts[k]
            if c.trigger is None and not c.conditions and before.until is not None:
                # "Root defensive until 30 overs, then aggressive": the "until" is when the
                # next clause fires, and that clause's style replaces the one it ends
                head = before.trigger
                if head is None and not before.conditions:
                    head = TrigD(TriggerKind.AFTER_BALLS, 0)  # from the first ball, as below
                parts[k - 1] = replace(before, trigger=head, until=None)
                parts[k] = replace(c, trigger=before.until)
        for c in parts:
            if c.tail and c.trigger is not None and _independent(c.actions):
                # "Root aggressive; Stokes defensive after 20 overs": for both, or for Stokes
                # alone? Never guessed: the player says which
                self.errors.append(
                    AmbiguousOrder(
                        "the time said at the end can be for every order before it or for the "
                        "last alone",
                        source_line=self.line.raw,
                        span=self.span(c.start, len(self.line.text)),
                        hint="say it first for all of them ('after 20 overs: Root aggressive; "
                        "Stokes defensive'), or give the order it is for a line of its own",
                    )
                )
                return Plain()
            if c.trigger is None and not c.conditions and c.until is not None:
                # "Root bats defensive until the score reaches 100": from the first ball
                c = ClauseD(TrigD(TriggerKind.AFTER_BALLS, 0), (), c.actions, c.until, c.start)
            if c.trigger is None and (moment := moment_of(c.conditions)) is not None:
                c = replace(c, trigger=moment[0], conditions=moment[1])
            if c.trigger is None and c.conditions:
                # "if the asking rate goes above 8, ...": watched all innings
                c = ClauseD(
                    TrigD(TriggerKind.CONDITIONS), c.conditions, c.actions, c.until, c.start
                )
            if c.trigger is None:
                self.errors.append(
                    self.invalid(
                        "this conditional order has no trigger: say when it applies",
                        c.start,
                        c.start + 1,
                        hint="say 'after 20 overs', 'at drinks', 'when the 6th wicket falls'...",
                    )
                )
                return Plain()
            trigger = self.trigger(c.trigger)
            acts = self.actions(c.actions, inherited, len(clauses))
            inherited = next(
                (x.target for x in reversed(acts) if isinstance(x, StyleChange)), inherited
            )
            clauses.append((c, trigger, tuple(acts)))
        rule: Rule | None = None
        for c, trigger, done in reversed(clauses):
            until = self.trigger(c.until) if c.until is not None else None
            conds = tuple(self.condition(x) for x in c.conditions)
            rule = Rule(trigger, conds, done, until, (rule,) if rule is not None else ())
        assert rule is not None
        return rule


def _independent(actions: tuple[ActD, ...]) -> bool:
    """Two or more orders each whole alone: named batsmen given their styles. "Flintoff
    aggressive, everyone else normal" is one order (the others are Flintoff's others), so a
    time said after it is for the whole of it."""
    return len(actions) > 1 and all(
        isinstance(a, StyleD) and a.target is TargetKind.NAMED and not a.others and not a.excepted
        for a in actions
    )


def moment_of(conds: tuple[CondD, ...]) -> tuple[TrigD, tuple[CondD, ...]] | None:
    """ "if there are 10 overs left, ..." with no trigger: the moment 10 overs are left is
    the trigger (the rest stay its conditions), as "when there are 10 overs left" is; for
    as long as 10 or more are left, the player says "at least" (docs/rules/orders-idioms.md)."""
    for i, d in enumerate(conds):
        c = d.condition
        if d.per_over and c.quantity is Quantity.BALLS_LEFT and c.op is Comparison.EQ:
            trig = TrigD(TriggerKind.BALLS_LEFT, int(c.value), overs_left=True)
            return trig, conds[:i] + conds[i + 1 :]
    return None
