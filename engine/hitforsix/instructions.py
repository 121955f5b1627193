"""A whole over of changes sent at once, with conditions (Test by Post, issue 12).

The grammar is ``instructions.lark``. One **step** per window, separated by ``;`` or new
lines, an optional ``then`` before each::

    drop 2, 5, 9; then if Kohli comes, keep him, else drop the lowest average

* ``drop T, T, …`` — a target is a deal position, a name or initials (see
  :mod:`engine.hitforsix.choose`), or a selector ``the [N] lowest|highest|fewest|most|worst|
  best STAT`` over the men held (STAT: average, runs, strike rate, sixes, balls faced --
  "balls" alone means balls faced, as the tables' "BF" -- balls bowled, wickets, economy,
  bowling average; "worst"/"best" mean the bad or good end of that stat).
* ``keep`` / ``keep him`` / ``drop none`` / ``pass`` — drop nobody this window.
* ``name`` / ``name the XI`` / ``stand`` — name the XI now (law 3.03); nothing may follow.
* ``if W comes|does not come|is held|is not held, STEP [, else STEP]`` — ``W comes`` is true
  when W was drawn as a replacement in an earlier window; W is a name or a position.

What is decided here, and documented in ``docs/rules/hitforsix.md``:

* a step names at most its window's cap (3, 2, 1) of men, else :class:`IllegalOrder` at once;
  more than three steps are :class:`IllegalOrder`;
* every name must be some card of the deck (a typo is :class:`InvalidOrder` with a caret);
* when the over is played, a named man who is not held is **skipped** (the sender could not
  know who would come) and the note says so; a name fitting two men held, or a condition's name
  fitting two men of the deal, is :class:`AmbiguousOrder`;
* a selector picks among the men held not already named in the step, lowest position first on
  equal figures; a man with no record of the stat is never picked by it.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, Span
from engine.hitforsix.cards import Card, Deck
from engine.hitforsix.choose import find_card
from engine.hitforsix.deal import DEAL_SIZE, FACE_UP, Deal
from engine.hitforsix.over import CAPS, Decisions, Hand

__all__ = ["Outcome", "Program", "parse_instructions", "run_instructions"]

HINT = 'e.g. "drop 2, 5, 9; then if Kohli comes, keep him, else drop the lowest average"'


def _build_parser() -> Lark:
    text = importlib.resources.files(__package__).joinpath("instructions.lark").read_text("utf-8")
    return Lark(text, parser="lalr", lexer="contextual", propagate_positions=True)


# Built at import from the grammar shipped beside this module; parsing never changes it.
_PARSER = _build_parser()


@dataclass(frozen=True, slots=True)
class Target:
    """One thing to drop: a position, a name, or a selector."""

    kind: Literal["position", "player", "selector"]
    text: str
    line: int
    column: int
    count: int = 1
    direction: str = ""
    stat: str = ""


@dataclass(frozen=True, slots=True)
class Test:
    """A condition on a man: ``comes``, ``not_comes``, ``held`` or ``not_held``."""

    kind: str
    who: Target


@dataclass(frozen=True, slots=True)
class Step:
    """One window's instruction: ``drop`` (targets), ``keep``, ``name``, or a condition."""

    kind: Literal["drop", "keep", "name", "if"]
    line: int
    column: int
    targets: tuple[Target, ...] = ()
    test: Test | None = None
    then: Step | None = None
    otherwise: Step | None = None


@dataclass(frozen=True, slots=True)
class Program:
    """Parsed instructions, checked against the deck's names; run with :func:`run_instructions`."""

    text: str
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The decisions the instructions made on one deal, and notes on what was skipped."""

    decisions: Decisions
    notes: tuple[str, ...]


def _source_line(text: str, line: int) -> str:
    lines = text.splitlines() or [""]
    return lines[min(line, len(lines)) - 1]


_WORDS = {
    "_COMES": "comes", "_DOES": "does not come", "_IS": "is held", "_COMMA": "','",
    "_SEP": "';'", "_ELSE": "else", "NUMBER": "a position", "PLAYER": "a name",
    "_THE": "the", "_DROP": "drop", "_KEEP": "keep", "_NAMEXI": "name", "_IF": "if",
    "_PASS": "pass", "DIRECTION": "lowest/highest/…", "STAT": "a figure (average, runs, …)",
    "_HELD": "held", "_NOT": "not", "_COME": "come", "_HIM": "him", "_ALL": "all",
    "_NONE": "none", "_XI": "XI", "_STAND": "stand", "_THEN": "then", "COUNT": "a count",
}  # fmt: skip


def _expected(exc: UnexpectedInput) -> str:
    names = sorted({_WORDS.get(e, e.lower()) for e in getattr(exc, "expected", ()) or ()})
    return f"; expected {', '.join(names)}" if names else ""


def _lark_error(text: str, exc: UnexpectedInput) -> InvalidOrder:
    line, col = max(1, exc.line), max(1, exc.column)
    at_end = isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    )
    if at_end:
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        message = "the instructions stop too soon" + _expected(exc)
    elif isinstance(exc, UnexpectedToken):
        message = f"did not expect {str(exc.token)!r} here" + _expected(exc)
    else:
        word = (text.splitlines()[line - 1][col - 1 :].split() or ["?"])[0]
        message = f"cannot read {word!r} here" + _expected(exc)
    return InvalidOrder(
        message, source_line=_source_line(text, line), span=Span(line, col), hint=HINT
    )


def _target(tree: Tree[Token] | Token) -> Target:
    assert isinstance(tree, Tree)
    tokens = [t for t in tree.children if isinstance(t, Token)]
    first = tokens[0]
    line, column = first.line or 1, first.column or 1
    if tree.data == "position":
        return Target("position", str(first), line, column)
    if tree.data == "player":
        return Target("player", " ".join(str(first).split()), line, column)
    count = 1
    if len(tokens) == 3:
        count = int(tokens[0])
        tokens = tokens[1:]
    direction, stat = str(tokens[0]).lower(), " ".join(str(tokens[1]).lower().split())
    stat = stat.removesuffix("s") if stat not in {"runs", "sixes", "wickets"} else stat
    text = f"the {count} {direction} {stat}" if count > 1 else f"the {direction} {stat}"
    return Target("selector", text, line, column, count, direction, stat)


def _step(tree: Tree[Token]) -> Step:
    line = tree.meta.line if not tree.meta.empty else 1
    column = tree.meta.column if not tree.meta.empty else 1
    if tree.data == "step":
        inner = tree.children[0]
        assert isinstance(inner, Tree)
        return _step(inner)
    if tree.data == "drop":
        return Step("drop", line, column, tuple(_target(t) for t in tree.children))
    if tree.data == "keep":
        return Step("keep", line, column)
    if tree.data == "name_xi":
        return Step("name", line, column)
    test_tree, then, *rest = tree.children
    assert isinstance(test_tree, Tree) and isinstance(then, Tree)
    test = Test(str(test_tree.data), _target(test_tree.children[0]))
    otherwise = _step(rest[0]) if rest and isinstance(rest[0], Tree) else None
    return Step("if", line, column, test=test, then=_step(then), otherwise=otherwise)


def _names(step: Step | None) -> list[Target]:
    if step is None:
        return []
    found = [t for t in step.targets if t.kind == "player"]
    if step.test is not None and step.test.who.kind == "player":
        found.append(step.test.who)
    return found + _names(step.then) + _names(step.otherwise)


def _width(step: Step | None) -> int:
    if step is None or step.kind != "drop":
        return max(_width(step.then), _width(step.otherwise)) if step else 0
    return sum(t.count for t in step.targets)


def parse_instructions(text: str, deck: Deck, first: int = 0) -> Program:
    """Parse and check instructions for the windows from ``first`` (0-based) on; the three
    kinds of error carry the line and a caret."""
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as exc:
        raise _lark_error(text, exc) from None
    steps = tuple(_step(t) for t in tree.children if isinstance(t, Tree))

    def fail(kind: type[InvalidOrder | IllegalOrder], message: str, line: int, col: int) -> None:
        raise kind(message, source_line=_source_line(text, line), span=Span(line, col), hint=HINT)

    if first + len(steps) > len(CAPS):
        s = steps[len(CAPS) - first]
        which = "a fourth" if first == 0 else f"one more than the {len(CAPS) - first} left"
        fail(IllegalOrder, f"an over has {len(CAPS)} windows; this step is {which}", s.line,
             s.column)  # fmt: skip
    for i, s in enumerate(steps, start=first):
        if _width(s) > CAPS[i]:
            fail(
                IllegalOrder,
                f"window {i + 1} drops at most {CAPS[i]}, this step names {_width(s)}",
                s.line,
                s.column,
            )
        if s.kind == "name" and i + 1 < first + len(steps):
            nxt = steps[i + 1 - first]
            fail(IllegalOrder, "nothing follows naming the XI", nxt.line, nxt.column)
        for t in (*s.targets, *([s.test.who] if s.test else [])):
            if t.kind == "position" and not 0 <= int(t.text) < DEAL_SIZE:
                fail(InvalidOrder, f"{t.text!r} is not a deal position (0–16)", t.line, t.column)
        for t in _names(s):
            if not find_card(t.text, range(len(deck.cards)), deck.cards)[0]:
                fail(
                    InvalidOrder, f"{t.text!r} is no card of the {deck.name} deck", t.line, t.column
                )
    return Program(text, steps)


_STATS: dict[str, tuple[Callable[[Card], float | None], bool]] = {
    # stat -> (figure, higher is better)
    "average": (lambda c: c.runs / max(1, c.dismissals), True),
    "runs": (lambda c: float(c.runs), True),
    "strike rate": (lambda c: 100 * c.runs / c.balls_faced if c.balls_faced else None, True),
    "sixes": (lambda c: float(c.sixes), True),
    "balls faced": (lambda c: float(c.balls_faced), True),
    "ball": (lambda c: float(c.balls_faced), True),  # "balls" alone is balls faced, as shown
    "balls bowled": (lambda c: float(c.balls_bowled), True),
    "wickets": (lambda c: float(c.wickets), True),
    "economy": (lambda c: 6 * c.runs_conceded / c.balls_bowled if c.balls_bowled else None, False),
    "bowling average": (lambda c: c.runs_conceded / c.wickets if c.wickets else None, False),
}


def _select(t: Target, pool: Sequence[int], cards: Sequence[Card]) -> list[int]:
    figure, higher_better = _STATS[t.stat]
    low = t.direction in {"lowest", "fewest", "least"} or (
        t.direction in {"worst", "best"} and (t.direction == "worst") == higher_better
    )
    rated = [(v, p) for p in pool if (v := figure(cards[p])) is not None]
    rated.sort(key=lambda vp: (vp[0] if low else -vp[0], vp[1]))
    return [p for _, p in rated[: t.count]]


def run_instructions(
    program: Program, the_deal: Deal, played: Sequence[frozenset[int]] = ()
) -> Outcome:
    """Play ``program`` on ``the_deal`` after the windows ``played`` (answered one by one
    before it): the decisions of the whole over and notes on skipped names."""
    cards = the_deal.cards
    hand = Hand()
    for w in played:
        hand = hand.drop(w)
    windows: list[frozenset[int]] = list(played)
    notes: list[str] = []

    def resolve(t: Target, pool: Sequence[int]) -> list[int]:
        if t.kind == "position":
            return [int(t.text)] if int(t.text) in pool else []
        found, _ = find_card(t.text, pool, cards)
        if len(found) > 1:
            names = ", ".join(f"{cards[p].name} ({p})" for p in found)
            raise AmbiguousOrder(
                f"{t.text!r} could be {names}",
                source_line=_source_line(program.text, t.line),
                span=Span(t.line, t.column, t.column + len(t.text)),
            )
        return found

    def holds(test: Test) -> bool:
        drawn = range(FACE_UP, hand.next_replacement)
        pool = list(hand.held) if test.kind.endswith("held") else list(drawn)
        if test.who.kind == "player":
            # Resolve against the whole deal first so that a name is never ambiguous by luck.
            every = resolve(test.who, range(DEAL_SIZE))
            hit = bool(every) and every[0] in pool
        else:
            hit = bool(resolve(test.who, pool))
        return not hit if test.kind.startswith("not") else hit

    for i, first in enumerate(program.steps, start=len(played)):
        step: Step | None = first
        while step is not None and step.kind == "if":
            assert step.test is not None
            step = step.then if holds(step.test) else step.otherwise
        if step is None or step.kind == "keep":
            windows.append(frozenset())
            hand = hand.drop(())
            continue
        if step.kind == "name":
            break
        chosen: list[int] = []
        for t in step.targets:
            pool = [p for p in hand.xi if p not in chosen]
            if t.kind == "selector":
                chosen += _select(t, pool, cards)
                continue
            found = resolve(t, pool)
            if not found:
                notes.append(f"window {i + 1}: {t.text} is not held, so not dropped")
            chosen += found[:1]
        windows.append(frozenset(chosen))
        hand = hand.drop(chosen)
    return Outcome(Decisions(tuple(windows)), tuple(notes))
