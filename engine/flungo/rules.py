"""The evaluator of conditional orders, as the docstring of ``engine.flungo.orders`` defines them.

A rule is named by its side (0 home, 1 away) and its path: ``(i,)`` for the side's i-th rule,
``(i, j)`` for the j-th ``then`` rule of that one, and so on. Per innings, :class:`RuleBook`
remembers which rules are armed, which are spent, and which fired rules' ``until`` is watched.

Before each ball the innings calls :meth:`RuleBook.step` with the :class:`Situation`: first
every watched ``until`` that now holds is reported (``"reverted"``), then every armed rule whose
trigger holds, in the order written (side by side, path order, a ``then`` rule right after its
parent, so a rule armed by one that fired is tried in the same pass), is reported as
``"fired"`` (its conditions hold: apply its actions) or ``"spent"``. A fired rule's ``until``
is watched from the next ball.
"""

from __future__ import annotations

import bisect
import typing
from dataclasses import dataclass
from typing import NamedTuple

from engine.flungo.events import MatchEvent, RuleFired, RuleReverted, RuleSpent
from engine.flungo.orders import (
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
    TargetKind,
    Trigger,
    TriggerKind,
)

__all__ = [
    "Firing",
    "Limits",
    "RuleBook",
    "RulesSnapshot",
    "Situation",
    "Wake",
    "describe",
    "obey",
    "rearm",
    "rule_at",
    "share_rest",
]

Path = tuple[int, ...]
Key = tuple[int, Path]


class Situation(NamedTuple):
    """The innings in progress, as rules see it (before a ball, or at drinks)."""

    legal: int
    balls_per_over: int
    max_balls: int
    wickets: int
    score: int
    target: int | None
    out: frozenset[str]
    at_drinks: bool


def trigger_holds(t: Trigger, s: Situation) -> bool:
    """Whether trigger ``t`` holds now."""
    k, v = t.kind, t.value if t.value is not None else 0
    if k is TriggerKind.AFTER_OVERS:
        return s.legal >= v * s.balls_per_over
    if k is TriggerKind.AFTER_BALLS:
        return s.legal >= v
    if k is TriggerKind.AT_DRINKS:
        return s.at_drinks
    if k is TriggerKind.WICKET:
        return s.wickets >= v
    if k is TriggerKind.BATSMAN_OUT:
        return t.name in s.out
    if k is TriggerKind.SCORE_REACHES:
        return s.score >= v
    if k is TriggerKind.RUNS_NEEDED:
        return s.target is not None and s.target - s.score <= v
    if k is TriggerKind.CONDITIONS:
        return True  # the rule's conditions decide; see RuleBook.step
    return s.max_balls - s.legal <= v  # BALLS_LEFT


def quantity(q: Quantity, s: Situation, name: str | None = None) -> float | None:
    """The value of ``q`` now; ``None`` where it means nothing (runs needed or required rate in
    the first innings)."""
    overs = s.legal / s.balls_per_over
    if q is Quantity.NOT_OUT:
        return 0.0 if name in s.out else 1.0
    if q is Quantity.WICKETS:
        return s.wickets
    if q is Quantity.SCORE:
        return s.score
    if q is Quantity.RUN_RATE:
        return s.score / overs if s.legal else 0.0
    if q is Quantity.OVERS:
        return overs
    if q is Quantity.BALLS_LEFT:
        return s.max_balls - s.legal
    if s.target is None:
        return None
    if q is Quantity.RUNS_NEEDED:
        return s.target - s.score
    left = (s.max_balls - s.legal) / s.balls_per_over
    need = s.target - s.score
    return need / left if left else float("inf")


def condition_holds(c: Condition, s: Situation) -> bool:
    """Whether ``c`` holds now (a condition on a meaningless quantity does not)."""
    x = quantity(c.quantity, s, c.name)
    if x is None:
        return False
    op = c.op
    if op is Comparison.LE:
        return x <= c.value
    if op is Comparison.LT:
        return x < c.value
    if op is Comparison.GE:
        return x >= c.value
    if op is Comparison.GT:
        return x > c.value
    return x == c.value


def rule_at(rules: tuple[Rule, ...], path: Path) -> Rule:
    """The rule at ``path`` in a side's rules."""
    rule = rules[path[0]]
    for i in path[1:]:
        rule = rule.then[i]
    return rule


def describe(t: Trigger) -> str:
    """A trigger in words, for the ball log."""
    k = t.kind
    words = {
        TriggerKind.AFTER_OVERS: f"after {t.value} overs",
        TriggerKind.AFTER_BALLS: f"after {t.value} balls",
        TriggerKind.AT_DRINKS: "at drinks",
        TriggerKind.WICKET: f"at the fall of wicket {t.value}",
        TriggerKind.BATSMAN_OUT: f"when {t.name} is out",
        TriggerKind.SCORE_REACHES: f"when the score reaches {t.value}",
        TriggerKind.RUNS_NEEDED: f"when {t.value} or fewer are needed",
        TriggerKind.BALLS_LEFT: f"with {t.value} or fewer balls left",
        TriggerKind.CONDITIONS: "as soon as its conditions held",
    }
    return words[k]


_NEVER = 1 << 30


class Wake(NamedTuple):
    """See :meth:`RuleBook.wake`: ask the rules again once any of these is reached."""

    legal: int
    wickets: int
    score: int
    out: int


class Firing(NamedTuple):
    """One thing :meth:`RuleBook.step` reports: ``kind`` is ``fired``, ``spent`` or
    ``reverted``; ``reverts`` (for ``reverted``) are the styles to put back."""

    kind: str
    side: int
    path: Path
    rule: Rule
    reverts: tuple[tuple[str, BattingStyle], ...]


@dataclass(frozen=True, slots=True)
class RulesSnapshot:
    """A :class:`RuleBook` frozen between turns."""

    armed: tuple[tuple[int, tuple[int, ...]], ...] = ()
    done: tuple[tuple[int, tuple[int, ...]], ...] = ()
    watching: tuple[tuple[int, tuple[int, ...], tuple[tuple[str, BattingStyle], ...]], ...] = ()


def fresh_snapshot(rules: tuple[tuple[Rule, ...], tuple[Rule, ...]]) -> RulesSnapshot:
    """Every side's top-level rule armed, as at the start of an innings."""
    return RulesSnapshot(
        armed=tuple((side, (i,)) for side in (0, 1) for i in range(len(rules[side])))
    )


def rearm(
    snap: RulesSnapshot, side: int, old: tuple[Rule, ...], new: tuple[Rule, ...]
) -> RulesSnapshot:
    """``side``'s rules change from ``old`` to ``new`` in an innings under way.

    A rule sent again unchanged is the same order: it keeps its state in this innings (fired
    or spent rules stay so, its armed ``then`` rules stay armed, its ``until`` stays watched),
    so a conditional order fires at most once an innings however often the orders that hold it
    are sent. A new or changed rule is armed afresh; a rule no longer given is forgotten.
    """
    moved: dict[int, int] = {}  # old index -> new index, each old rule matched once
    for i, rule in enumerate(new):
        j = next((j for j, o in enumerate(old) if j not in moved and o == rule), None)
        if j is not None:
            moved[j] = i

    def mine(path: Path) -> Path | None:
        return (moved[path[0]], *path[1:]) if path[0] in moved else None

    kept = set(moved.values())
    armed = [a for a in snap.armed if a[0] != side]
    armed += [(side, m) for s, p in snap.armed if s == side and (m := mine(p)) is not None]
    armed += [(side, (i,)) for i in range(len(new)) if i not in kept]
    done = [d for d in snap.done if d[0] != side]
    done += [(side, m) for s, p in snap.done if s == side and (m := mine(p)) is not None]
    watching = [w for w in snap.watching if w[0] != side]
    watching += [
        (side, m, reverts)
        for s, path, reverts in snap.watching
        if s == side and (m := mine(path)) is not None
    ]
    return RulesSnapshot(
        armed=tuple(sorted(armed)), done=tuple(sorted(done)), watching=tuple(watching)
    )


class RuleBook:
    """The live rule state of one innings (mutable; frozen as :class:`RulesSnapshot`)."""

    __slots__ = ("armed", "done", "rules", "watching")

    def __init__(
        self, rules: tuple[tuple[Rule, ...], tuple[Rule, ...]], snap: RulesSnapshot
    ) -> None:
        self.rules = rules
        self.armed: list[Key] = sorted(snap.armed)
        self.done: list[Key] = list(snap.done)
        self.watching: list[tuple[int, Path, tuple[tuple[str, BattingStyle], ...]]] = list(
            snap.watching
        )

    def snapshot(self) -> RulesSnapshot:
        """The state, frozen."""
        return RulesSnapshot(tuple(self.armed), tuple(self.done), tuple(self.watching))

    def __bool__(self) -> bool:
        return bool(self.armed or self.watching)

    def watch(self, side: int, path: Path, reverts: tuple[tuple[str, BattingStyle], ...]) -> None:
        """Start watching a fired rule's ``until`` (with the styles to restore)."""
        self.watching.append((side, path, reverts))

    def wake(self, max_balls: int, bpo: int, target: int | None, outs: int) -> Wake | None:
        """The least (legal balls, wickets, score, batsmen out) at which an armed trigger or a
        watched ``until`` can next hold: before that, :meth:`step` would report nothing, so
        the innings need not ask (most balls of an innings). Every trigger is a threshold on
        one of these that only grows; None when some rule must be asked before every ball
        (one with no event, watched until its conditions hold)."""
        legal = wickets = score = out = _NEVER
        triggers = [rule_at(self.rules[side], path).trigger for side, path in self.armed]
        for side, path, _ in self.watching:
            until = rule_at(self.rules[side], path).until
            if until is not None:
                triggers.append(until)
        for t in triggers:
            k, v = t.kind, t.value if t.value is not None else 0
            if k is TriggerKind.AFTER_OVERS:
                legal = min(legal, v * bpo)
            elif k is TriggerKind.AFTER_BALLS:
                legal = min(legal, v)
            elif k is TriggerKind.BALLS_LEFT:
                legal = min(legal, max_balls - v)
            elif k is TriggerKind.WICKET:
                wickets = min(wickets, v)
            elif k is TriggerKind.SCORE_REACHES:
                score = min(score, v)
            elif k is TriggerKind.RUNS_NEEDED:
                if target is not None:
                    score = min(score, target - v)
            elif k is TriggerKind.BATSMAN_OUT:
                out = min(out, outs + 1)  # whoever goes next might be him
            elif k is TriggerKind.CONDITIONS:
                return None
            # AT_DRINKS holds only before the first ball after drinks, which is always asked
        return Wake(legal, wickets, score, out)

    def step(self, s: Situation) -> list[Firing]:
        """Report what happens before this ball (see the module docstring)."""
        out: list[Firing] = []
        if self.watching:
            keep = []
            for side, path, reverts in self.watching:
                rule = rule_at(self.rules[side], path)
                if rule.until is not None and trigger_holds(rule.until, s):
                    out.append(Firing("reverted", side, path, rule, reverts))
                else:
                    keep.append((side, path, reverts))
            self.watching = keep
        i = 0
        while i < len(self.armed):
            side, path = self.armed[i]
            rule = rule_at(self.rules[side], path)
            if not trigger_holds(rule.trigger, s):
                i += 1
                continue
            if rule.trigger.kind is TriggerKind.CONDITIONS and not all(
                condition_holds(c, s) for c in rule.conditions
            ):
                i += 1  # watched until its conditions hold, never spent by them
                continue
            del self.armed[i]
            self.done.append((side, path))
            if all(condition_holds(c, s) for c in rule.conditions):
                out.append(Firing("fired", side, path, rule, ()))
                for j in range(len(rule.then)):
                    # Sorted insertion puts the child right after its parent's place: tried next.
                    bisect.insort(self.armed, (side, (*path, j)))
            else:
                out.append(Firing("spent", side, path, rule, ()))
        return out


class Limits(NamedTuple):
    """What "the rest" of the overs must respect: the format's (or house rule's) limits.

    ``bowled`` is who bowled each over begun, in order; ``hundred``: a set that starts a new
    ten balls (an odd set) may not follow the same bowler's set, as he changes ends.
    """

    overs: int
    per_bowler: int
    consecutive: int
    bowled: tuple[str, ...]
    hundred: bool = False


def share_rest(
    bowlers: tuple[str, ...],
    plan: dict[int, str],
    given: set[int],
    started: int,
    limits: Limits,
) -> list[tuple[int, str]]:
    """Give ``bowlers`` in turn the overs after ``started`` not in ``given``, in ``plan``.

    Each takes an over only within his quota (his overs bowled and those the plan keeps for
    him) and the succession limit; an over none may take keeps the plan's bowler, unless the
    plan gave it to one of ``bowlers`` (then the innings' default chooses). Returns the (over,
    bowler) pairs given."""
    if not bowlers:
        return []
    free = [o for o in range(started + 1, limits.overs + 1) if o not in given]
    # the overs the rest takes over are no longer anyone's: free them before counting quotas
    for o in free:
        if plan.get(o) in bowlers:
            del plan[o]
    counts = dict.fromkeys(bowlers, 0)
    for b in limits.bowled:
        if b in counts:
            counts[b] += 1
    for o, b in plan.items():
        if o > started and b in counts:
            counts[b] += 1

    def who(o: int) -> str | None:
        if o < 1:
            return None  # before the first over: nobody (the first set has no set before it)
        return limits.bowled[o - 1] if o <= started else plan.get(o)

    got: list[tuple[int, str]] = []
    turn = 0
    for o in free:
        for k in range(len(bowlers)):
            b = bowlers[(turn + k) % len(bowlers)]
            run = [who(o - j) for j in range(1, limits.consecutive + 1) if o - j >= 1]
            if counts[b] >= limits.per_bowler:
                continue
            if len(run) == limits.consecutive and all(r == b for r in run):
                continue
            if limits.hundred and o % 2 == 1 and who(o - 1) == b:
                continue
            if who(o + 1) == b and _too_long(b, o, who, limits.consecutive):
                continue  # he bowls the next over already: this one would make a run too long
            plan[o] = b
            counts[b] += 1
            got.append((o, b))
            turn = (turn + k + 1) % len(bowlers)
            break
    return got


def _too_long(b: str, o: int, who: typing.Callable[[int], str | None], limit: int) -> bool:
    """Whether ``b`` bowling over ``o`` makes a run of more than ``limit`` overs in a row."""
    lo = o
    while lo > 1 and who(lo - 1) == b:
        lo -= 1
    hi = o
    while who(hi + 1) == b:
        hi += 1
    return hi - lo + 1 > limit


def obey(
    firings: list[Firing],
    book: RuleBook,
    teams: tuple[str, str],
    bat_side: int,
    innings: int,
    legal: int,
    styles: dict[str, BattingStyle],
    plan: dict[int, str],
    policies: list[ReviewPolicy],
    order: list[str],
    next_in: int,
    out: list[str],
    started: int,
    limits: Limits | None = None,
) -> list[MatchEvent]:
    """Apply what :meth:`RuleBook.step` reported to the innings' ``styles``, ``plan`` (overs
    after the ``started`` ones) and ``policies`` ([batting side's, bowling side's]), in order;
    returns the events for the ball log. ``limits`` are what "the rest" of the overs must
    respect (a rule with :class:`BowlingRest` changes nothing without them)."""
    events: list[MatchEvent] = []
    for f in firings:
        team = teams[f.side]
        until = f.kind == "reverted" and f.rule.until is not None
        when = describe(f.rule.until if until and f.rule.until else f.rule.trigger)
        number = ".".join(str(p + 1) for p in f.path)
        name = f"rule {number} of {team}"
        if f.kind == "spent":
            text = f"{name} ({when}): conditions not met"
            events.append(RuleSpent(innings, legal, team, text, number, when))
            continue
        if f.kind == "reverted":
            for n, s in f.reverts:
                styles[n] = s
            what = ", ".join(f"{n} {s.value}" for n, s in f.reverts) or "nothing to undo"
            text = f"{name} undone ({when}): {what}"
            restored = tuple((n, s.value) for n, s in f.reverts)
            events.append(RuleReverted(innings, legal, team, text, number, when, restored))
            continue
        done: list[str] = []
        reverts: list[tuple[str, BattingStyle]] = []
        batting = f.side == bat_side
        for action in f.rule.actions:
            if isinstance(action, StyleChange) and batting:
                t = action.target
                if t.kind is TargetKind.ALL:
                    who = list(order)
                elif t.kind is TargetKind.NAMED:
                    who = [n for n in t.names if n in styles]
                elif t.kind is TargetKind.NEXT:
                    who = order[next_in : next_in + t.count]
                else:
                    who = [n for n in order if n not in out]
                if t.excluding:
                    who = [n for n in who if n not in t.excluding]
                for n in who:
                    reverts.append((n, styles[n]))
                    styles[n] = action.style
                done.append(f"{', '.join(who) or 'nobody'} {action.style.value}")
            elif isinstance(action, BowlingChange) and not batting:
                for o in action.overs:
                    if o > started:  # an over already begun is not changed
                        plan[o] = action.bowler
                done.append(f"{action.bowler} to bowl overs {', '.join(map(str, action.overs))}")
            elif isinstance(action, ReviewsChange):
                policies[0 if batting else 1] = action.policy
                done.append(f"reviews: {action.policy.mode.value}")
        rests = [a for a in f.rule.actions if isinstance(a, BowlingRest)]
        if rests and not batting and limits is not None:
            # after the overs the rule names, whatever order it names them in
            given = {o for a in f.rule.actions if isinstance(a, BowlingChange) for o in a.overs}
            for rest in rests:
                got = share_rest(rest.bowlers, plan, given, started, limits)
                given |= {o for o, _ in got}
                for b in rest.bowlers:
                    mine = [o for o, n in got if n == b]
                    said = ", ".join(map(str, mine)) if mine else "no over"
                    done.append(f"{b} to bowl the rest: {said}")
        if f.rule.until is not None:
            book.watch(f.side, f.path, tuple(reverts))
        text = f"{name} fired ({when}): {'; '.join(done) or 'nothing applies'}"
        events.append(RuleFired(innings, legal, team, text, number, when, tuple(done)))
    return events
