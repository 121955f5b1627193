"""Amendments: orders given between turns (at drinks, or before the second innings).

What may change: the batting order of those still to come, styles, the bowling plan for overs
not yet begun, review policies, and the conditional orders (new rules replace the old, armed
afresh). The XI, captain, keeper and toss choice are fixed once the match has started; trying
to change them is reported and ignored.
"""

from __future__ import annotations

from dataclasses import replace

from engine.flungo.events import MatchEvent, OrdersAmended
from engine.flungo.innings import InningsState
from engine.flungo.orders import MatchOrders
from engine.flungo.rules import reset_side
from engine.flungo.state import MatchState

__all__ = ["amend"]


def _merge(old: MatchOrders, new: MatchOrders) -> MatchOrders:
    styles = dict(old.styles)
    styles.update(new.styles)
    return replace(
        old,
        batting_order=new.batting_order or old.batting_order,
        styles=tuple(sorted(styles.items())),
        bowling_plan=new.bowling_plan or old.bowling_plan,
        batting_reviews=new.batting_reviews or old.batting_reviews,
        bowling_reviews=new.bowling_reviews or old.bowling_reviews,
        rules=new.rules or old.rules,
    )


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
        orders[side] = _merge(orders[side], new)
        if live is not None:
            live = _amend_live(live, side, new, sel.xi, events, name)
        events.append(OrdersAmended(-1, 0, name, "amended orders accepted", True))
    innings = state.innings
    if live is not None:
        innings = (*innings[:-1], live)
    return replace(state, orders=(orders[0], orders[1]), innings=innings), events


def _amend_live(
    live: InningsState,
    side: int,
    new: MatchOrders,
    xi: tuple[str, ...],
    events: list[MatchEvent],
    name: str,
) -> InningsState:
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
    if not batting and new.bowling_plan:
        started = len(live.over_bowlers)
        live = replace(live, plan=tuple((o, b) for o, b in new.bowling_plan if o > started))
    pol_bat, pol_bowl = live.policies
    if batting and new.batting_reviews:
        pol_bat = new.batting_reviews
    if not batting and new.bowling_reviews:
        pol_bowl = new.bowling_reviews
    live = replace(live, policies=(pol_bat, pol_bowl))
    if new.rules and not live.super_over:
        live = replace(live, rules=reset_side(live.rules, side, len(new.rules)))
    return live
