"""A match: its frozen state, turn by turn, python-chess style.

>>> from engine.dice import MASK64, Dice, seed_from_text
>>> from engine.flungo import FORMATS, Format, MatchSetup, generate_squad, play_match
>>> from engine.flungo.ground import Conditions
>>> home = generate_squad(Dice(1), "Gunge Giants")
>>> away = generate_squad(Dice(2), "Snodge Stars")
>>> setup = MatchSetup(Format.T20, 7, Conditions("The Gunge Bowl", 3, 1), home, away)
>>> final = play_match(setup).state
>>> final.is_over, final.turn
(True, 4)

:func:`start_match` settles both XIs and tosses the coin; each :func:`play_turn` plays one turn
(an innings is two turns, split at drinks: turns 0-1 are the first innings, 2-3 the second)
and returns a :class:`Resolution`: a NEW state and the turn's events. Orders given to
:func:`play_turn` are amendments (at drinks, or before the second innings) and apply from that
turn. The dice of turn ``t`` are ``Dice(seed).derive(f"turn {t}")``, so a turn is a pure
function of the state and the amendments, and a match of (seed, squads, orders).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from engine.dice import MASK64, Dice, seed_from_text
from engine.flungo.amend import amend
from engine.flungo.events import (
    Drinks,
    Event,
    MatchEvent,
    ResultDeclared,
    SelectionFix,
    SubstituteFielder,
    SuperOverStarted,
    Termination,
    Toss,
)
from engine.flungo.innings import InningsState, Side, play_innings
from engine.flungo.orders import BattingStyle, MatchOrders, ReviewPolicy, TossChoice
from engine.flungo.plan import Selection, bowling_rank, select
from engine.flungo.plan_check import PlanContext, nearest_legal
from engine.flungo.rules import RulesSnapshot, fresh_snapshot
from engine.flungo.squad import BowlingStyle
from engine.flungo.state import TURNS, MatchSetup, MatchState, Resolution, Result

__all__ = [
    "TURNS",
    "MatchSetup",
    "MatchState",
    "Quiet",
    "Resolution",
    "Result",
    "Settled",
    "play_match",
    "play_turn",
    "settle",
    "start_match",
    "turn_dice",
    "turn_seed",
]

_D = TypeVar("_D", bound=Dice)
SUPER_OVERS_MAX = 5  # then boundaries, then a coin (see docs/rules/flungo.md)
_REVIEWS = 2


@dataclass(frozen=True, slots=True)
class Settled:
    """Both sides' XIs and orders as a match on ``setup`` plays them, and the fixes made:
    what :func:`start_match` settles before the toss. Nothing in it depends on the seed, so
    matches that differ only in theirs (a practice's three) can share one."""

    setup: MatchSetup
    selections: tuple[Selection, Selection]
    orders: tuple[MatchOrders, MatchOrders]
    events: tuple[MatchEvent, ...]

    def fits(self, setup: MatchSetup) -> bool:
        """Whether a match on ``setup`` settles the same: only the seed may differ."""
        return replace(setup, seed=self.setup.seed) == self.setup


@dataclass(slots=True)
class Quiet:
    """How a practice plays the turns of matches started from one :class:`Settled`: no ball
    is kept (see :func:`~engine.flungo.innings.play_innings`), each event of the orders is
    listed in ``scores`` with the runs and wickets then, and each side as an innings sees it
    is worked out once for the matches and kept here (they share the XIs, the pitch and the
    weather; only injuries and substitutes can tell them apart), and so are the default
    bowling plans (``plans``, by the bowlers able to bowl). It lives as long as the practice
    that makes it."""

    settled: Settled
    scores: list[tuple[MatchEvent, int, int]] = field(default_factory=list)
    sides: dict[tuple[int, tuple[object, ...], tuple[object, ...]], Side] = field(
        default_factory=dict
    )
    plans: dict[tuple[str, ...], Mapping[int, str]] = field(default_factory=dict)

    def side(self, state: MatchState, side: int) -> Side:
        """:func:`_side` of ``state``, kept for the next turn and match that can use it."""
        if state.selections is not self.settled.selections:  # not started from it
            return _side(state, side)
        key = (side, state.injuries, state.subs)
        known = self.sides.get(key)
        if known is None:
            known = self.sides[key] = _side(state, side)
        return known


def settle(
    setup: MatchSetup, home: MatchOrders | None = None, away: MatchOrders | None = None
) -> Settled:
    """Settle both XIs (defaults for anything missing or illegal) and the plans they play."""
    events: list[MatchEvent] = []
    sels: list[Selection] = []
    orders: list[MatchOrders] = []
    for team, given in ((setup.home, home), (setup.away, away)):
        sel, fixes = select(team, given, setup.conditions)
        base = _in_their_place(given or MatchOrders(), sel)
        # the plan the match plays is the nearest legal one (docs/rules/flungo.md)
        plan, problems = nearest_legal(
            base.bowling_plan,
            setup.spec,
            PlanContext(xi=sel.xi, unable=((sel.wicketkeeper, "keeps wicket"),)),
        )
        fixes += [f"bowling plan: {p.text}" for p in problems]
        events += [SelectionFix(-1, 0, team.name, f) for f in fixes]
        sels.append(sel)
        base = replace(base, bowling_plan=plan)
        orders.append(
            replace(
                base,
                xi=sel.xi,
                captain=sel.captain,
                wicketkeeper=sel.wicketkeeper,
                toss=sel.toss,
                batting_order=sel.xi,
                styles=tuple(sorted(sel.styles)),
            )
        )
    return Settled(setup, (sels[0], sels[1]), (orders[0], orders[1]), tuple(events))


def start_match(
    setup: MatchSetup,
    home: MatchOrders | None = None,
    away: MatchOrders | None = None,
    *,
    settled: Settled | None = None,
) -> Resolution:
    """Settle both XIs (defaults for anything missing or illegal) and toss the coin.
    ``settled``: what :func:`settle` made of these orders for a match that differs from this
    one only in its seed (``ValueError`` otherwise), instead of settling them again."""
    if settled is None:
        settled = settle(setup, home, away)
    elif not settled.fits(setup):
        raise ValueError("settled for another match: only the seed may differ")
    events = list(settled.events)
    sels = settled.selections
    dice = Dice(setup.seed).derive("toss")
    coin = dice.roll(2, "toss")
    winner = 0 if coin == 1 else 1
    choice = sels[winner].toss
    first = winner if choice is TossChoice.BAT else 1 - winner
    wname = (setup.home, setup.away)[winner].name
    text = f"{wname} won the toss (coin {coin}) and chose to {choice.value}"
    events.append(Toss(-1, 0, wname, text, coin, choice.value))
    subs: list[tuple[str, str, int, str]] = []
    for side, sel in enumerate(sels):
        team = (setup.home, setup.away)[side]
        for k in range(11 - len(sel.xi)):
            f = 1 + dice.roll(4, "substitute fielding")
            subs.append((team.name, f"substitute {k + 1}", f, ""))
            text = f"substitute {k + 1} fields (fielding {f})"
            events.append(SubstituteFielder(-1, 0, team.name, text, f"substitute {k + 1}", f))
    state = MatchState(
        setup=setup,
        selections=sels,
        orders=settled.orders,
        toss_winner=winner,
        batting_first=first,
        subs=tuple(subs),
        log=tuple(events),
    )
    return Resolution(state, tuple(events))


def _in_their_place(orders: MatchOrders, sel: Selection) -> MatchOrders:
    """``orders`` with each injured player the XI named replaced by the player who took his
    slot, where they name him for the match still to play: the batting order, styles and the
    bowling plan (standing orders written before the injury, and amendments, keep their
    meaning). Conditional orders are left as written."""
    if not sel.replacements:
        return orders
    subs = dict(sel.replacements)
    order = orders.batting_order
    styles = dict(orders.styles)
    for out, sub in subs.items():
        if out in styles:
            styles.setdefault(sub, styles.pop(out))
    return replace(
        orders,
        batting_order=None if order is None else tuple(subs.get(n, n) for n in order),
        styles=tuple(sorted(styles.items())),
        bowling_plan=tuple((o, subs.get(b, b)) for o, b in orders.bowling_plan),
    )


def _side(state: MatchState, side: int) -> Side:
    team = state.team(side)
    sel = state.selections[side]
    cond = state.setup.conditions
    squad = {p.name: p for p in team.players}
    players = [squad[n] for n in sel.xi]
    mods = {style: cond.modifier(style) for style in BowlingStyle}
    hurt = {name for t, name, _ in state.injuries if t == team.name}
    subs = [s for s in state.subs if s[0] == team.name]
    sub_for = {s[3]: (s[1], s[2]) for s in subs if s[3]}
    field: list[tuple[str, int]] = []
    for p in players:
        if p.name == sel.wicketkeeper:
            continue
        field.append(sub_for[p.name] if p.name in hurt else (p.name, p.fielding))
    field += [(s[1], s[2]) for s in subs if not s[3]]
    while len(field) < 10:  # only with many hurt and short XIs: the last substitute again
        field.append(field[-1] if field else ("substitute", 3))
    keeper = squad[sel.wicketkeeper]
    k = sub_for[keeper.name] if keeper.name in hurt else (keeper.name, keeper.fielding)
    unable = [(sel.wicketkeeper, "keeps wicket")]
    unable += [(n, "is retired hurt, out of the match") for n in sel.xi if n in hurt]
    return Side(
        team=team.name,
        batting=tuple((p.name, p.batting) for p in players),
        bowling=tuple((p.name, p.bowling + mods[p.bowling_style]) for p in players),
        rank=bowling_rank(players, cond),
        field=tuple(field[:10]),
        keeper=k,
        unable=tuple(unable),
    )


def _new_innings(state: MatchState, index: int, side: int, super_over: bool) -> InningsState:
    spec = state.setup.spec
    o = state.orders[side]
    team = state.team(side).name
    hurt = {name for t, name, _ in state.injuries if t == team}
    xi = state.selections[side].xi
    given = [n for n in (o.batting_order or xi) if n in xi]
    order = [n for n in given + [n for n in xi if n not in given] if n not in hurt]
    style_map = dict(o.styles)
    if super_over:
        order = order[:3]
    normal = BattingStyle.NORMAL  # an enum member's lookup is a descriptor call: once
    styles = tuple(sorted([(n, style_map.get(n, normal)) for n in xi]))
    opp = state.orders[1 - side]
    target = None
    if super_over and index % 2 == 1:
        target = state.innings[index - 1].runs + 1
    elif index == 1:
        target = state.innings[0].runs + 1
    return InningsState(
        index=index,
        batting_side=side,
        super_over=super_over,
        max_balls=spec.balls_per_over if super_over else spec.balls,
        max_wickets=min(2, len(order) - 1) if super_over else len(order) - 1,
        target=target,
        order=tuple(order),
        next_in=min(2, len(order)),
        striker=order[0] if order else None,
        non_striker=order[1] if len(order) > 1 else None,
        styles=styles,
        plan=() if super_over else opp.bowling_plan,
        reviews=(_REVIEWS, _REVIEWS),
        policies=(o.batting_reviews or ReviewPolicy(), opp.bowling_reviews or ReviewPolicy()),
        rules=RulesSnapshot()
        if super_over
        else fresh_snapshot((state.orders[0].rules, state.orders[1].rules)),
        closed="" if len(order) > 1 else "all out",
    )


def _play(
    state: MatchState,
    inn: InningsState,
    stop: int,
    dice: Dice,
    at_drinks: bool,
    quiet: Quiet | None = None,
) -> tuple[MatchState, list[Event]]:
    if quiet is None:
        sides = (_side(state, 0), _side(state, 1))
    else:
        sides = (quiet.side(state, 0), quiet.side(state, 1))
    rules = (state.orders[0].rules, state.orders[1].rules)
    if inn.super_over:
        rules = ((), ())
    new, events, hurt = play_innings(
        inn,
        stop,
        dice,
        state.setup.spec,
        sides,
        rules,
        at_drinks,
        None if quiet is None else quiet.scores,
        None if quiet is None else quiet.plans,
    )
    innings = (*state.innings[: inn.index], new, *state.innings[inn.index + 1 :])
    if not hurt:  # most turns: nobody retired hurt
        return replace(state, innings=innings), events
    team = state.team(inn.batting_side).name
    injuries = state.injuries + tuple((team, n, pts) for n, pts, _ in hurt)
    subs = state.subs + tuple((team, f"sub ({n})", f, n) for n, _, f in hurt)
    return replace(state, innings=innings, injuries=injuries, subs=subs), events


def turn_dice(state: MatchState, kind: type[_D]) -> _D:
    """The dice of turn ``state.turn``: ``Dice(seed).derive(f"turn {turn}")``, of ``kind``
    (:class:`~engine.dice.UnrecordedDice` for a practice: the same stream, not written down)."""
    return kind(turn_seed(state.setup.seed, state.turn))


def turn_seed(seed: int, turn: int) -> int:
    """The seed of turn ``turn``'s stream in a match of ``seed``: what
    ``Dice(seed).derive(f"turn {turn}")`` is seeded with."""
    return seed_from_text(f"{seed & MASK64}:turn {turn}")


def play_turn(
    state: MatchState,
    home: MatchOrders | None = None,
    away: MatchOrders | None = None,
    dice: Dice | None = None,
    *,
    quiet: Quiet | None = None,
) -> Resolution:
    """Play turn ``state.turn`` (0..3) with these amendments; ``ValueError`` after the last.

    A turn in which nothing is left to play (the innings closed before drinks, or the match is
    decided) only applies the amendments. ``dice`` defaults to the turn's own stream,
    ``Dice(seed).derive(f"turn {turn}")`` (tests pass scripted dice). ``quiet``: a practice's
    turn, which keeps no ball (see :class:`Quiet`); never in a knockout, whose Super Overs
    count the boundaries in the balls.
    """
    if state.is_over:
        raise ValueError("the match is over: all four turns have been played")
    if quiet is not None and state.setup.knockout:
        raise ValueError("a knockout keeps its balls: its Super Overs count their boundaries")
    spec = state.setup.spec
    if dice is None:
        dice = turn_dice(state, Dice)
    events: list[Event] = []
    if home is not None or away is not None:  # a frozen state is costly to copy: not for nothing
        home, away = (
            None if given is None else _in_their_place(given, state.selections[side])
            for side, given in ((0, home), (1, away))
        )
        state, amend_events = amend(state, (home, away))
        events += amend_events
    index, part = divmod(state.turn, 2)
    if state.result is None:
        inn = state.innings[index] if len(state.innings) > index else None
        if part == 0 and inn is None:
            side = state.batting_first if index == 0 else 1 - state.batting_first
            inn = _new_innings(state, index, side, False)
            if inn.closed:  # no one to bat with (else _play adds it, played)
                state = replace(state, innings=(*state.innings, inn))
        if inn is not None and not inn.closed:
            drinks = spec.drinks_after * spec.balls_per_over
            if part == 1:
                text = "play resumes after drinks"
                events.append(Drinks(index, inn.legal, "", text, inn.runs, inn.wickets, True))
            stop = drinks if part == 0 else spec.balls
            state, evs = _play(state, inn, stop, dice, part == 1, quiet)
            events += evs
            inn = state.innings[index]
            if part == 0 and not inn.closed:
                team = state.team(inn.batting_side).name
                text = f"drinks: {team} {inn.runs}/{inn.wickets}"
                events.append(Drinks(index, inn.legal, team, text, inn.runs, inn.wickets, False))
        if len(state.innings) == 2 and state.innings[1].closed:
            state, evs = _decide(state)
            events += evs
    log = state.log + tuple(e for e in events if isinstance(e, MatchEvent))
    return Resolution(replace(state, turn=state.turn + 1, log=log), tuple(events))


def _margin_text(state: MatchState, a: InningsState, b: InningsState) -> Result | None:
    ta, tb = state.team(a.batting_side).name, state.team(b.batting_side).name
    if b.runs > a.runs:
        w = len(state.selections[b.batting_side].xi) - 1 - b.wickets
        left = b.max_balls - b.legal
        balls = f"{left} ball{'s' * (left != 1)} left"
        text = f"{tb} won by {w} wicket{'s' * (w != 1)} ({balls})"
        return Result(tb, 0, w, text, termination=Termination.WICKETS)
    if a.runs > b.runs:
        r = a.runs - b.runs
        return Result(
            ta, r, 0, f"{ta} won by {r} run{'s' * (r != 1)}", termination=Termination.RUNS
        )
    return None


def _decide(state: MatchState) -> tuple[MatchState, list[Event]]:
    events: list[Event] = []
    a, b = state.innings[0], state.innings[1]
    result = _margin_text(state, a, b)
    if result is None and not state.setup.knockout:
        result = Result(None, 0, 0, "Match tied", termination=Termination.TIE)
    if result is None:
        state, result, events = _super_overs(state)
    margin = result.runs or result.wickets
    events.append(
        ResultDeclared(
            -1, 0, result.winner or "", result.text, result.winner, result.termination, margin
        )
    )
    return replace(state, result=replace(result, injuries=state.injuries)), events


def _super_overs(state: MatchState) -> tuple[MatchState, Result, list[Event]]:
    events: list[Event] = []
    first = 1 - state.batting_first  # the side that batted second bats first in a super over
    hundred = state.setup.spec.is_hundred
    name = "Super Five" if hundred else "Super Over"
    # The Hundred plays a second Super Five after a tied one, then the higher place decides
    tries = 2 if hundred and state.setup.seeding is not None else SUPER_OVERS_MAX
    for k in range(tries):
        dice = Dice(state.setup.seed).derive(f"super over {k + 1}")
        text = f"the match is tied: {name} {k + 1}"
        events.append(SuperOverStarted(-1, 0, "", text, k + 1, name))
        for side in (first, 1 - first):
            inn = _new_innings(state, len(state.innings), side, True)
            state = replace(state, innings=(*state.innings, inn))
            state, evs = _play(state, inn, inn.max_balls, dice, False)
            events += evs
        a, b = state.innings[-2], state.innings[-1]
        won = _margin_text(state, a, b)
        if won is not None:
            w = won.winner
            text = f"Match tied; {w} won the {name}"
            return state, Result(w, 0, 0, text, True, termination=Termination.SUPER_OVER), events
    seeding = state.setup.seeding
    if hundred and seeding is not None and seeding[0] != seeding[1]:
        w = state.team(0 if seeding[0] < seeding[1] else 1).name
        text = f"Match tied; {w} won on the higher place"
        return state, Result(w, 0, 0, text, True, termination=Termination.SEEDING), events
    fours = [0, 0]
    for inn in state.innings:
        fours[inn.batting_side] += sum(1 for b in inn.balls if b.boundary)
    if fours[0] != fours[1]:
        w = state.team(0 if fours[0] > fours[1] else 1).name
        text = f"Match tied; {w} won on boundaries"
        return state, Result(w, 0, 0, text, True, termination=Termination.BOUNDARIES), events
    coin = Dice(state.setup.seed).derive("tie coin").roll(2, "tie coin")
    w = state.team(coin - 1).name
    return (
        state,
        Result(
            w,
            0,
            0,
            f"Match tied; {w} won on the toss of a coin ({coin})",
            True,
            termination=Termination.COIN,
        ),
        events,
    )


def play_match(
    setup: MatchSetup,
    home: MatchOrders | None = None,
    away: MatchOrders | None = None,
    amendments: Mapping[int, tuple[MatchOrders | None, MatchOrders | None]] | None = None,
) -> Resolution:
    """Start the match and play all four turns; ``amendments`` maps a turn (0..3) to the
    (home, away) orders given before it. Returns the final state and every event, in order."""
    res = start_match(setup, home, away)
    state, events = res.state, list(res.events)
    amendments = amendments or {}
    while not state.is_over:
        res = play_turn(state, *amendments.get(state.turn, (None, None)))
        state = res.state
        events += res.events
    return Resolution(state, tuple(events))
