"""Practice innings: a mail's orders played before the deadline, so a misreading shows itself.

Every answer to an orders mail plays the orders in force (the mail merged into the standing
orders) in three practice matches against the next opponent and says, for each conditional
order, when it fired or why it never did, and who bowled which overs. Nothing here is the
match: the practice changes no state, and its dice are not the match's.

Algorithm (documented for players in ``docs/rules/dice.md`` and ``docs/players/orders.md``):

* **Seed.** ``practice_seed(text, seat)`` is ``seed_from_text("practice:{seat}:{text}")``,
  where ``text`` is the canonical text of the orders practised and ``seat`` names the team
  (pbm uses the competition's code and the seat's number). The same orders give the same
  practice, however the mail wrote them; any change to the orders gives other dice. The
  match's committed seed is never used (it is secret until the match is decided).
* **Three practices.** Practice ``k`` (1, 2, 3) is a match on ``MatchSetup(seed =
  seed_from_text(f"{seed}:practice {k}"))`` between the manager's side (home) and the next
  opponent (away) in the coming match's format, on its pitch and weather, with its house rule
  on consecutive overs, never a knockout (a tie stands: no Super Over). It is played by the
  engine's own :func:`~engine.flungo.match.start_match` and four
  :func:`~engine.flungo.match.play_turn`: the same selection, toss, innings, rules and ball
  code as the match, each turn on the turn's own stream. Only what the answer reads is kept
  (:class:`~engine.flungo.match.Quiet`): no roll, no ball, the score when each order fired;
  the XIs are settled once for the three (only their seeds differ). The manager's side
  plays the orders given; the opponent plays what is known of it, which is never its orders
  (they are its secret): its XI when its selection has been published (the match is under
  way), else the default XI, and always the default bowling plan and everything else the
  engine gives a side that sent no orders.
* **What is recorded.** For every conditional order (and each "but ..." chained to it), in
  every innings where it acts (a style change when the side bats, a bowling change when it
  bowls; a reviews change in both): the ball (``over.ball``, balls for The Hundred) and the
  state (wickets, score) where it fired or its conditions failed, or why it never did (the
  most wickets, the highest score, the innings' end...). For the bowling: who bowled each
  over, and the first over where the plan was not followed (the default took over) and why.

The text for the reply is made in one place, :func:`practice_lines`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from engine.dice import UnrecordedDice, seed_from_text
from engine.flungo.events import BowlerChanged, Event, MatchEvent, RuleFired, RuleSpent
from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.ground import Conditions
from engine.flungo.innings import InningsState
from engine.flungo.match import Quiet, play_turn, settle, start_match, turn_seed
from engine.flungo.orders import (
    BowlingChange,
    BowlingRest,
    MatchOrders,
    ReviewsChange,
    Rule,
    StyleChange,
    TriggerKind,
)
from engine.flungo.rules import rule_at
from engine.flungo.squad import Team
from engine.flungo.state import TURNS, MatchSetup, MatchState

__all__ = [
    "PRACTICES",
    "BowlingPractice",
    "Outcome",
    "OutcomeKind",
    "Practice",
    "RulePractice",
    "practice_lines",
    "practice_seed",
    "practise",
]

PRACTICES = 3
BATTING, BOWLING = "batting", "bowling"


def practice_seed(text: str, seat: str) -> int:
    """The practice's seed: from the orders' canonical ``text`` and the ``seat`` (see the
    module docstring), never from the match's seed."""
    return seed_from_text(f"practice:{seat}:{text}")


class OutcomeKind(StrEnum):
    """What became of a conditional order in one practice innings."""

    FIRED = "fired"
    SPENT = "spent"  # its trigger held, its conditions did not
    NEVER = "never"  # its trigger never held (or the rule before it never fired)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A conditional order in one innings: ``legal`` balls bowled, ``wickets`` and ``runs``
    when it fired or was spent; for ``NEVER``, ``reason`` in words (the most the innings
    reached), and ``wickets``/``runs``/``legal`` the innings' end."""

    kind: OutcomeKind
    legal: int
    wickets: int
    runs: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class RulePractice:
    """One conditional order: ``path`` as the match names it ((i,) for the i-th, (i, j) for
    the j-th "but" of it), its ``label`` (its trigger and conditions in canonical words), and
    its outcomes by side (``batting``, ``bowling``), one per practice."""

    path: tuple[int, ...]
    label: str
    outcomes: tuple[tuple[str, tuple[Outcome, ...]], ...]


@dataclass(frozen=True, slots=True)
class BowlingPractice:
    """The manager's side in the field in one practice: the bowler of each over, and the
    first over the plan was not followed, its planned bowler, who bowled it and why (over 0:
    there was no plan at all)."""

    overs: tuple[str, ...]
    departure: tuple[int, str | None, str, str] | None


@dataclass(frozen=True, slots=True)
class Practice:
    """Three practice matches: the seed, the format, each conditional order's outcomes, each
    innings in the field, and the scores (batting, bowling) as a reader writes them."""

    seed: int
    spec: FormatSpec
    rules: tuple[RulePractice, ...]
    bowling: tuple[BowlingPractice, ...]
    scores: tuple[tuple[str, str], ...]
    planned: bool  # whether the side gave a bowling plan
    opponent: str = ""


def practise(
    team: Team,
    orders: MatchOrders | None,
    opponent: Team,
    fmt: Format,
    conditions: Conditions,
    seed: int,
    *,
    opponent_xi: tuple[str, ...] | None = None,
    no_consecutive_overs: bool = False,
    practices: int = PRACTICES,
) -> Practice:
    """Play ``orders`` for ``team`` in ``practices`` practice matches against ``opponent``
    (see the module docstring); pure: the same arguments give the same practice."""
    if opponent.name == team.name:  # a practice against a copy of oneself: tell them apart
        opponent = replace(opponent, name=f"{opponent.name} (practice)")
    opp = MatchOrders(xi=opponent_xi) if opponent_xi is not None else None
    setups = [
        MatchSetup(
            fmt,
            seed_from_text(f"{seed}:practice {k}"),
            conditions,
            team,
            opponent,
            knockout=False,
            no_consecutive_overs=no_consecutive_overs,
        )
        for k in range(1, practices + 1)
    ]
    # the XIs and plans settle alike in the three (only the seed differs), and so do the
    # sides as the innings see them: worked out once, for the three
    quiet = Quiet(settle(setups[0], orders, opp)) if setups else None
    # each turn's own stream, as the match draws it (turn_dice), but not written down, drawn
    # ahead together (numpy's cost is per call, the ints' per number): as many numbers as
    # the turn's balls take at most, some 2.2 a ball (a longer turn draws a small block more)
    spec = FORMATS[fmt]
    drinks = spec.drinks_after * spec.balls_per_over
    seeds = [[turn_seed(s.seed, t) for s in setups] for t in range(TURNS)]
    before = UnrecordedDice.together(seeds[0] + seeds[2], drinks * 5 // 2)
    after = UnrecordedDice.together(seeds[1] + seeds[3], (spec.balls - drinks) * 11 // 4)
    n = len(setups)
    streams = [(before, after)[t % 2][k + n * (t // 2)] for k in range(n) for t in range(TURNS)]
    matches: list[_Played] = []
    for k, setup in enumerate(setups):
        assert quiet is not None
        quiet.scores = []
        state = start_match(setup, settled=quiet.settled).state
        turns: list[list[Event]] = []
        while not state.is_over:
            # no ball kept: the practice reads what the orders did and the score then
            res = play_turn(state, dice=streams[k * TURNS + state.turn], quiet=quiet)
            state = res.state
            turns.append(list(res.events))
        matches.append(_Played(state, turns, _firings(state, quiet.scores)))
    first = matches[0].state
    spec = first.setup.spec
    rules = first.orders[0].rules
    found = [_rule_practice(rules, path, matches) for path in _paths(rules)]
    bowling = tuple(_bowling(m.state, m.turns) for m in matches)
    scores_text = tuple(_scores(m.state) for m in matches)
    planned = bool(first.orders[0].bowling_plan)
    return Practice(seed, spec, tuple(found), bowling, scores_text, planned, opponent.name)


@dataclass(frozen=True, slots=True)
class _Played:
    """One practice match: its final state, each turn's events (no balls among them), and
    the side's conditional orders as they fired or were spent, by (innings, rule number)."""

    state: MatchState
    turns: list[list[Event]]
    firings: dict[tuple[int, str], Outcome]


def _firings(
    state: MatchState, scores: list[tuple[MatchEvent, int, int]]
) -> dict[tuple[int, str], Outcome]:
    """The first firing or spending of each of the side's orders in each innings, with the
    wickets and runs at that ball."""
    home = state.setup.home.name
    out: dict[tuple[int, str], Outcome] = {}
    for e, runs, wickets in scores:
        if isinstance(e, RuleFired | RuleSpent) and e.team == home:
            kind = OutcomeKind.FIRED if isinstance(e, RuleFired) else OutcomeKind.SPENT
            out.setdefault((e.innings, e.rule), Outcome(kind, e.at_ball, wickets, runs))
    return out


def _paths(rules: tuple[Rule, ...]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def walk(rule: Rule, path: tuple[int, ...]) -> None:
        out.append(path)
        for j, child in enumerate(rule.then):
            walk(child, (*path, j))

    for i, rule in enumerate(rules):
        walk(rule, (i,))
    return out


def _sides(rule: Rule) -> tuple[str, ...]:
    """Where a rule acts: batting (styles), bowling (the plan), both (reviews)."""
    bat = any(isinstance(a, StyleChange) for a in rule.actions)
    bowl = any(isinstance(a, BowlingChange | BowlingRest) for a in rule.actions)
    if any(isinstance(a, ReviewsChange) for a in rule.actions) or not (bat or bowl):
        bat = bowl = True
    return tuple(s for s, on in ((BATTING, bat), (BOWLING, bowl)) if on)


def _label(rules: tuple[Rule, ...], path: tuple[int, ...]) -> str:
    from engine.flungo.language import rule_line

    rule = replace(rule_at(rules, path), then=())
    head = rule_line(rule).split(": ", 1)[0]
    return head if len(path) == 1 else f"but {head}"


def _rule_practice(
    rules: tuple[Rule, ...], path: tuple[int, ...], matches: list[_Played]
) -> RulePractice:
    rule = rule_at(rules, path)
    number = ".".join(str(p + 1) for p in path)
    parent = ".".join(str(p + 1) for p in path[:-1])
    per_side: dict[str, list[Outcome]] = {s: [] for s in _sides(rule)}
    for m in matches:
        for inn in m.state.innings[:2]:
            side = BATTING if inn.batting_side == 0 else BOWLING
            if side not in per_side:
                continue
            seen = m.firings.get((inn.index, number))
            if seen is None:
                before = m.firings.get((inn.index, parent)) if parent else None
                waited = len(path) == 1 or (before is not None and before.kind is OutcomeKind.FIRED)
                seen = _never(rule, inn, m.state, waited)
            per_side[side].append(seen)
    return RulePractice(
        path,
        _label(rules, path),
        tuple((s, tuple(o)) for s, o in per_side.items()),
    )


def _ball(legal: int, spec: FormatSpec) -> str:
    """Where in an innings: ``20.0`` (overs and balls), or ``ball 75`` in The Hundred."""
    if spec.is_hundred:
        return f"ball {legal}"
    return f"{legal // spec.balls_per_over}.{legal % spec.balls_per_over}"


def _never(rule: Rule, inn: InningsState, state: MatchState, waited: bool) -> Outcome:
    """Why a rule did not fire in ``inn``: what the innings reached, in words. ``waited``:
    whether its trigger was ever watched (a "but ..." is watched only once the order before
    it fired; when that one fired, the "but" missed on its own trigger, and says so)."""
    spec = state.setup.spec

    def out(reason: str) -> Outcome:
        return Outcome(OutcomeKind.NEVER, inn.legal, inn.wickets, inn.runs, reason)

    if not waited:
        return out("the order before it never fired")
    t = rule.trigger
    k = t.kind
    end = _ball(inn.legal, spec)
    if k is TriggerKind.WICKET:
        return out("wickets")
    if k is TriggerKind.SCORE_REACHES:
        return out("score")
    if k is TriggerKind.BATSMAN_OUT:
        return out(f"{t.name} was not out")
    if k is TriggerKind.RUNS_NEEDED:
        return out("batting first" if inn.target is None else "runs needed")
    if k is TriggerKind.CONDITIONS:
        return out("its conditions never held")
    if k is TriggerKind.AT_DRINKS:
        return out(f"the innings ended before drinks, at {end}")
    how = {"all out": "all out", "target": "target reached", "overs": "overs done"}[
        inn.closed or "overs"
    ]
    return out(f"the innings ended at {end} ({how})")


def _bowling(state: MatchState, turns: list[list[Event]]) -> BowlingPractice:
    home = state.setup.home.name
    inn = next(i for i in state.innings[:2] if i.batting_side == 1)
    departure = None
    for events in turns[2 * inn.index : 2 * inn.index + 2]:
        for e in events:
            if isinstance(e, BowlerChanged) and e.team == home:
                departure = (e.over, e.planned, e.bowler, e.reason)
                break
        if departure is not None:
            break
    return BowlingPractice(inn.over_bowlers, departure)


def _scores(state: MatchState) -> tuple[str, str]:
    """(the side's score, the opponent's), as "105/5", with the length when the innings
    ended early: "69/3 (19.5)" ("(83 balls)" in The Hundred)."""
    out = {}
    spec = state.setup.spec
    for inn in state.innings[:2]:
        side = BATTING if inn.batting_side == 0 else BOWLING
        score = f"{inn.runs}/{inn.wickets}"
        if inn.legal < inn.max_balls:
            o, b = divmod(inn.legal, spec.balls_per_over)
            score += f" ({inn.legal} balls)" if spec.is_hundred else f" ({o}.{b})"
        out[side] = score
    return out[BATTING], out[BOWLING]


# ---- the text ---------------------------------------------------------------------------


def _ranges(overs: Sequence[int]) -> str:
    """``1-2, 9-10, 17``; alternate overs, as from one end, as ``1-9 odd``."""
    xs = list(overs)
    parts: list[str] = []
    i = 0
    while i < len(xs):
        one = two = 1
        while i + one < len(xs) and xs[i + one] == xs[i] + one:
            one += 1
        while i + two < len(xs) and xs[i + two] == xs[i] + 2 * two:
            two += 1
        if two >= 3 and two > one:
            parts.append(f"{xs[i]}-{xs[i + two - 1]} {'odd' if xs[i] % 2 else 'even'}")
            i += two
        elif one >= 2:
            parts.append(f"{xs[i]}-{xs[i + one - 1]}")
            i += one
        else:
            parts.append(str(xs[i]))
            i += 1
    return ", ".join(parts)


def _span(values: Sequence[int]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo}" if lo == hi else f"{lo} to {hi}"


def _down(wickets: Sequence[int]) -> str:
    return f"with {_span(wickets)} down"


def _group(word: str, group: Sequence[Outcome], n: int, spec: FormatSpec) -> str:
    """Where an order fired (or failed) in ``len(group)`` of ``n`` innings, as short as it
    can be said: "fired at 20.0 with 2 down in 2 of 3". Where its conditions failed the
    score is said too, since a condition on the score fails with the wickets in range and the
    reader could not otherwise see why: "... with 0 to 1 down and 31 to 45 runs"."""
    k = f"{len(group)} of {n}"
    balls = sorted({o.legal for o in group})
    down = _down([o.wickets for o in group])
    if group[0].kind is OutcomeKind.SPENT:
        down += f" and {_span([o.runs for o in group])} runs"
    if len(balls) == 1:
        return f"{word} at {_ball(balls[0], spec)} {down} in {k}"
    if len({o.wickets for o in group}) == 1:
        return f"{word} in {k} {down}, at {', '.join(_ball(b, spec) for b in balls)}"
    each = ", ".join(f"{_ball(o.legal, spec)} with {o.wickets} down" for o in group)
    return f"{word} in {k}: at {each}"


def _summary(outcomes: Sequence[Outcome], spec: FormatSpec) -> str:
    """One side's outcomes of an order in words, short: "fired at 20.0 with 2 down in 2 of 3;
    never in 1: all out at 17.2"."""
    n = len(outcomes)
    fired = [o for o in outcomes if o.kind is OutcomeKind.FIRED]
    spent = [o for o in outcomes if o.kind is OutcomeKind.SPENT]
    never = [o for o in outcomes if o.kind is OutcomeKind.NEVER]
    parts = [
        _group(word, group, n, spec)
        for word, group in (("fired", fired), ("its conditions failed", spent))
        if group
    ]
    if never:
        reason = _never_text(never, spec)
        parts.append(f"never, {reason}" if len(never) == n else f"never in {len(never)}: {reason}")
    return "; ".join(parts)


def _never_text(never: Sequence[Outcome], spec: FormatSpec) -> str:
    """Why an order never fired, over the innings it never did: the nearest it came."""
    reasons = list(dict.fromkeys(o.reason for o in never))
    if reasons == ["wickets"]:
        most = max(o.wickets for o in never)
        return f"{most} down at most"
    if reasons == ["score"]:
        return f"{max(o.runs for o in never)} at most"
    if reasons == ["runs needed"]:
        return "the target was never that close"
    out = []
    for r in reasons:
        if r == "wickets":
            out.append(f"{max(o.wickets for o in never if o.reason == r)} down at most")
        elif r == "score":
            out.append(f"{max(o.runs for o in never if o.reason == r)} at most")
        elif r == "runs needed":
            out.append("the target was never that close")
        else:
            out.append(r)
    return "; ".join(out)


def practice_lines(p: Practice) -> list[str]:
    """The practice in a few short lines, for a phone: each conditional order (its trigger and
    conditions) and what became of it, then the bowling, then the scores."""
    spec = p.spec
    lines = [
        f"{len(p.scores)} practice matches against {p.opponent}, on the pitch and weather of "
        "the match, with dice from your orders (not the match's):"
    ]
    if not p.rules:
        lines.append("No conditional orders.")
    for r in p.rules:
        if len(r.outcomes) == 1:
            lines.append(f"{r.label}: {_summary(r.outcomes[0][1], spec)}")
        else:
            said = "; ".join(f"{s}, {_summary(o, spec)}" for s, o in r.outcomes)
            lines.append(f"{r.label}: {said}")
    lines += _bowling_lines(p)
    scores = ", ".join(f"{bat} v {bowl}" for bat, bowl in p.scores)
    lines.append(f"Scores (yours first): {scores}.")
    return lines


def _bowling_lines(p: Practice) -> list[str]:
    spec = p.spec
    unit = "sets" if spec.is_hundred else "overs"
    n = len(p.bowling)
    shapes = Counter(b.overs for b in p.bowling)
    common, count = shapes.most_common(1)[0]
    mine: dict[str, list[int]] = {}
    for o, b in enumerate(common, 1):
        mine.setdefault(b, []).append(o)
    who = "; ".join(f"{b} {_ranges(overs)}" for b, overs in mine.items())
    where = f"in {count} of {n}" if count < n else f"in all {n}" if n > 1 else "in practice"
    lines = [f"Bowling ({unit}, {where}): {who}."]
    if not p.planned:
        lines.append("No bowling plan: the default plan bowled every over.")
        return lines
    departures = Counter(b.departure for b in p.bowling)
    if departures.get(None) == n:
        lines.append("Your plan was followed to the end.")
        return lines
    for dep, k in sorted(departures.items(), key=lambda d: (d[0] is None, d[0] or (0,))):
        if dep is None:
            continue
        over, _, bowler, reason = dep
        times = f"in {k} of {n}" if k < n else f"in all {n}" if n > 1 else ""
        word = "set" if spec.is_hundred else "over"
        if reason == "no bowler planned":
            text = f"Your plan ran out at {word} {over}: the default bowled on from there"
        else:
            text = f"Your plan gave way at {word} {over} ({reason}): {bowler} bowled it"
        lines.append(f"{text}{' (' + times + ')' if times else ''}.")
        break  # the first is what to fix
    return lines
