"""Amendments: orders given between turns (at drinks, or before the second innings).

What may change: the batting order of those still to come, styles, the overs of the bowling
plan not yet begun (an amendment changes only the overs it names; the rest of the plan
stands, unless it gives the plan whole: ``cleared``), review policies, and the conditional
orders (the new rules replace the old; a rule given again unchanged keeps its state in the
innings, so it fires at most once an innings; a new or changed rule is armed afresh). The XI,
captain, keeper and toss choice are fixed once the match has started; trying to change them
is reported and ignored.

A manager's standing orders are sent whole at every stage; :func:`amendment` turns them into
what changed since the stage before, which is what a match under way receives. A stage in
which a manager's orders did not change gives no amendment, and so no "amended orders
accepted".
"""

from __future__ import annotations

from dataclasses import replace

from engine.flungo.events import MatchEvent, OrdersAmended
from engine.flungo.formats import FormatSpec
from engine.flungo.innings import InningsState
from engine.flungo.orders import BattingStyle, MatchOrders, ReviewPolicy
from engine.flungo.plan import Selection
from engine.flungo.plan_check import PlanContext, nearest_legal
from engine.flungo.rules import rearm
from engine.flungo.state import MatchState

__all__ = ["PLAN", "RULES", "amend", "amendment", "describe_amendment"]

PLAN = "bowling plan"
RULES = "conditional orders"


def amendment(before: MatchOrders | None, now: MatchOrders | None) -> MatchOrders | None:
    """What a match under way must change to go from orders ``before`` to orders ``now``
    (``None``: nothing changed). Both are a side's orders in force at two stages.

    Parts are compared one by one: a batting order given anew; the batsmen whose style changed
    (one no longer given goes back to normal); the overs whose bowler changed (or, if an over
    was taken out of the plan, the plan whole, ``cleared``); reviews (one no longer given goes
    back to the default); the rules, whole, if any changed. The XI, captain, keeper and toss
    are left out: they are fixed once the match has started.
    """
    b, n = before or MatchOrders(), now or MatchOrders()
    order = n.batting_order if n.batting_order not in (None, b.batting_order) else None
    old_styles, new_styles = dict(b.styles), dict(n.styles)
    normal = BattingStyle.NORMAL
    styles = tuple(
        sorted(
            (name, new_styles.get(name, normal))
            for name in old_styles.keys() | new_styles.keys()
            if new_styles.get(name, normal) != old_styles.get(name, normal)
        )
    )
    cleared: list[str] = []
    old_plan = dict(b.bowling_plan)
    if old_plan.keys() - dict(n.bowling_plan).keys():
        plan = n.bowling_plan
        cleared.append(PLAN)
    else:
        plan = tuple((o, x) for o, x in n.bowling_plan if old_plan.get(o) != x)
    rules = n.rules if n.rules != b.rules else ()
    if n.rules != b.rules and not n.rules:
        cleared.append(RULES)

    def reviews(old: ReviewPolicy | None, new: ReviewPolicy | None) -> ReviewPolicy | None:
        return None if old == new else new or ReviewPolicy()

    delta = MatchOrders(
        batting_order=order,
        styles=styles,
        bowling_plan=plan,
        batting_reviews=reviews(b.batting_reviews, n.batting_reviews),
        bowling_reviews=reviews(b.bowling_reviews, n.bowling_reviews),
        rules=rules,
        cleared=tuple(cleared),
    )
    return None if delta == MatchOrders() else delta


def describe_amendment(new: MatchOrders) -> str:
    """The parts an amendment changes, in words: ``"styles (Joe Root), bowling plan (overs
    14, 16)"`` (for the turn report's "amended orders accepted")."""
    parts: list[str] = []
    if new.batting_order:
        parts.append("batting order")
    if new.styles:
        parts.append(f"styles ({', '.join(name for name, _ in new.styles)})")
    if new.bowling_plan or PLAN in new.cleared:
        n = len(new.bowling_plan)
        overs = f"over{'s' * (n != 1)} {', '.join(str(o) for o, _ in new.bowling_plan)}"
        if PLAN in new.cleared:
            parts.append(f"a new bowling plan ({overs if n else 'no overs'})")
        else:
            parts.append(f"bowling plan ({overs})")
    if new.batting_reviews:
        parts.append("batting reviews")
    if new.bowling_reviews:
        parts.append("bowling reviews")
    if new.rules or RULES in new.cleared:
        parts.append("conditional orders" if new.rules else "no conditional orders")
    return ", ".join(parts)


def _plan(
    old: tuple[tuple[int, str], ...], new: tuple[tuple[int, str], ...]
) -> tuple[tuple[int, str], ...]:
    """An amendment changes only the overs it names; the rest of the plan stands."""
    plan = dict(old)
    plan.update(new)
    return tuple(sorted(plan.items()))


def _merge(old: MatchOrders, new: MatchOrders) -> MatchOrders:
    styles = dict(old.styles)
    styles.update(new.styles)
    whole_plan = PLAN in new.cleared
    return replace(
        old,
        batting_order=new.batting_order or old.batting_order,
        styles=tuple(sorted(styles.items())),
        bowling_plan=new.bowling_plan if whole_plan else _plan(old.bowling_plan, new.bowling_plan),
        batting_reviews=new.batting_reviews or old.batting_reviews,
        bowling_reviews=new.bowling_reviews or old.bowling_reviews,
        rules=new.rules if new.rules or RULES in new.cleared else old.rules,
    )


def _changes(new: MatchOrders) -> MatchOrders:
    """The parts of ``new`` that can change once the match has started."""
    return replace(new, xi=None, captain=None, wicketkeeper=None, toss=None)


def amend(
    state: MatchState, amendments: tuple[MatchOrders | None, MatchOrders | None]
) -> tuple[MatchState, list[MatchEvent]]:
    events: list[MatchEvent] = []
    orders = list(state.orders)
    live = state.innings[-1] if state.innings and not state.innings[-1].closed else None
    for side, new in enumerate(amendments):
        if new is None:
            continue
        name = state.team(side).name
        sel = state.selections[side]
        fixed = [
            label
            for label, value, now in (
                ("XI", new.xi, sel.xi),
                ("captain", new.captain, sel.captain),
                ("wicketkeeper", new.wicketkeeper, sel.wicketkeeper),
                ("toss choice", new.toss, sel.toss),
            )
            if value is not None and value != now
        ]
        if fixed:
            text = f"{', '.join(fixed)} cannot change once the match has started: ignored"
            events.append(OrdersAmended(-1, 0, name, text, False, tuple(fixed)))
        if _changes(new) == MatchOrders():
            continue  # nothing that may change was given: nothing to accept
        before = orders[side]
        orders[side] = _merge(before, new)
        if live is not None:
            live = _amend_live(live, side, before, new, sel, state.setup.spec, events, name)
        text = f"amended orders accepted: {describe_amendment(new)}"
        events.append(OrdersAmended(-1, 0, name, text, True))
    innings = state.innings
    if live is not None:
        innings = (*innings[:-1], live)
    return replace(state, orders=(orders[0], orders[1]), innings=innings), events


def _amend_live(
    live: InningsState,
    side: int,
    before: MatchOrders,
    new: MatchOrders,
    sel: Selection,
    spec: FormatSpec,
    events: list[MatchEvent],
    name: str,
) -> InningsState:
    xi, keeper = sel.xi, sel.wicketkeeper
    batting = live.batting_side == side
    if batting and new.batting_order:
        rest = live.order[live.next_in :]
        ignored = [n for n in new.batting_order if n not in rest]
        if ignored:
            text = "already batted or not in the XI, ignored in the new order: " + ", ".join(
                ignored
            )
            events.append(OrdersAmended(-1, 0, name, text, False, tuple(ignored)))
        first = [n for n in new.batting_order if n in rest]
        live = replace(
            live,
            order=live.order[: live.next_in]
            + tuple(first)
            + tuple(n for n in rest if n not in first),
        )
    if batting and new.styles:
        styles = dict(live.styles)
        styles.update((n, s) for n, s in new.styles if n in xi)
        live = replace(live, styles=tuple(sorted(styles.items())))
    if not batting and (new.bowling_plan or PLAN in new.cleared):
        started = len(live.over_bowlers)
        named = tuple((o, b) for o, b in new.bowling_plan if o > started)
        if PLAN in new.cleared:  # the plan given whole: the overs it leaves out are the default's
            begun = tuple((o, b) for o, b in live.plan if o <= started)
            live = replace(live, plan=begun + named)
        else:
            live = replace(live, plan=_plan(live.plan, named))
        # the overs to come, against the limits with the overs bowled counting: the innings
        # plays the nearest legal plan, as the match does from its start (plan_check)
        bowled = tuple(enumerate(live.over_bowlers, 1))
        ahead = tuple((o, b) for o, b in live.plan if o > started)
        mended, problems = nearest_legal(
            ahead, spec, PlanContext(xi=xi, unable=((keeper, "keeps wicket"),), bowled=bowled)
        )
        if problems:
            begun = tuple((o, b) for o, b in live.plan if o <= started)
            live = replace(live, plan=begun + mended)
            for p in problems:
                text = f"bowling plan: {p.text}"
                events.append(OrdersAmended(-1, 0, name, text, False, (p.bowler,)))
    pol_bat, pol_bowl = live.policies
    if batting and new.batting_reviews:
        pol_bat = new.batting_reviews
    if not batting and new.bowling_reviews:
        pol_bowl = new.bowling_reviews
    live = replace(live, policies=(pol_bat, pol_bowl))
    if (new.rules or RULES in new.cleared) and not live.super_over:
        live = replace(live, rules=rearm(live.rules, side, before.rules, new.rules))
    return live
