"""The checks across lines: the rules of the game and the state, on what the lines said.

Where two orders conflict, the later line wins; an order that breaks a rule is reported as
an :class:`IllegalOrder` and left out of the orders.
"""

from __future__ import annotations

from engine.errors import IllegalOrder, MendedPlan, OrderError
from engine.flungo.formats import FormatSpec
from engine.flungo.language._items import Item
from engine.flungo.language._model import OrderContext
from engine.flungo.orders import BowlingChange, BowlingRest, Rule, Stat, StyleChange, TargetKind
from engine.flungo.plan_check import PlanContext, nearest_legal
from engine.flungo.squad import Team

__all__ = ["HELPER_POINTS", "check_items", "final_order", "final_xi"]

HELPER_POINTS = 6
XI_SIZE = 11


def _last(items: list[Item], kind: str) -> Item | None:
    found = [i for i in items if i.kind == kind and i.ok]
    return found[-1] if found else None


def final_xi(items: list[Item]) -> Item | None:
    """The XI the orders give (the last one), if any."""
    return _last(items, "xi")


def final_order(items: list[Item]) -> Item | None:
    """The batting order the orders give (the last one), if any."""
    return _last(items, "order")


def check_items(
    items: list[Item], team: Team, fmt: FormatSpec, ctx: OrderContext, errors: list[OrderError]
) -> None:
    """Mark every item that breaks a rule (``item.ok = False``) and report why."""
    _helpers(items, team, errors)
    # Only what the state says outright: a squad member's injury does not make orders naming
    # him illegal. Orders stand while fitness changes (he may be hurt after they were sent, or
    # treated before the match), so the engine's selection puts the best fit player in his
    # slot when he must sit out, and the rest of the orders keep their meaning.
    unavailable = set(ctx.unavailable)
    if ctx.at_drinks:
        for item in items:
            if item.kind in ("xi", "captain", "keeper", "toss") and item.ok:
                errors.append(
                    item.error(
                        IllegalOrder, "the XI, captain, keeper and toss cannot change at drinks"
                    )
                )
    xi_item = final_xi(items)
    xi = set(xi_item.value) if xi_item else None
    if xi_item is not None:
        _check_xi(xi_item, unavailable, errors)
    for kind, what in (("captain", "captain"), ("keeper", "wicketkeeper")):
        last = _last(items, kind)
        if last is not None and xi is not None and last.value not in xi:
            errors.append(last.error(IllegalOrder, f"the {what}, {last.value}, is not in the XI"))
    for item in items:
        if item.kind == "order" and item.ok:
            _check_order(item, xi, unavailable, errors)
        elif item.kind == "style" and item.ok and xi is not None and item.value[0] not in xi:
            errors.append(item.error(IllegalOrder, f"{item.value[0]} is not in the XI"))
        elif item.kind == "rule" and item.ok:
            _check_rule(item, item.value, xi, unavailable, errors)
        elif (
            item.kind == "all_style"
            and item.ok
            and not (final_order(items) or xi_item)
            and not (ctx.standing and (ctx.standing.batting_order or ctx.standing.xi))
        ):
            errors.append(
                item.error(
                    IllegalOrder,
                    "'all batsmen' needs the batting order or the XI in the same orders",
                    hint="or make it conditional: at the start ... or after 0 overs ...",
                )
            )
    _check_plan(items, xi, unavailable, fmt, ctx, errors)


def _check_xi(item: Item, unavailable: set[str], errors: list[OrderError]) -> None:
    names = item.value
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        errors.append(item.error(IllegalOrder, f"{', '.join(dupes)} named twice in the XI"))
    elif len(names) != XI_SIZE:
        n = len(names)
        many = "a 12th man" if n == XI_SIZE + 1 else f"{n} player{'s' * (n != 1)}"
        errors.append(item.error(IllegalOrder, f"the XI must have 11 players, not {many}"))
    out = [n for n in names if n in unavailable]
    if out:
        errors.append(
            item.error(IllegalOrder, f"{', '.join(out)} cannot play this match (injured)")
        )


def _check_order(
    item: Item, xi: set[str] | None, unavailable: set[str], errors: list[OrderError]
) -> None:
    names = [n for n, _ in item.value]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        errors.append(
            item.error(IllegalOrder, f"{', '.join(dupes)} named twice in the batting order")
        )
    elif len(names) > XI_SIZE:
        errors.append(
            item.error(IllegalOrder, f"the batting order has {len(names)} batsmen, not 11")
        )
    elif xi is not None and (missing := [n for n in names if n not in xi]):
        errors.append(item.error(IllegalOrder, f"{', '.join(missing)} not in the XI"))
    elif out := [n for n in names if n in unavailable]:
        errors.append(
            item.error(IllegalOrder, f"{', '.join(out)} cannot play this match (injured)")
        )


def _rule_names(rule: Rule) -> list[str]:
    names: list[str] = []
    for a in rule.actions:
        if isinstance(a, StyleChange) and a.target.kind is TargetKind.NAMED:
            names += a.target.names
        elif isinstance(a, StyleChange):
            names += a.target.excluding
        elif isinstance(a, BowlingChange):
            names.append(a.bowler)
        elif isinstance(a, BowlingRest):
            names += a.bowlers
    for r in rule.then:
        names += _rule_names(r)
    return names


def _check_rule(
    item: Item, rule: Rule, xi: set[str] | None, unavailable: set[str], errors: list[OrderError]
) -> None:
    names = _rule_names(rule)
    out = sorted({n for n in names if xi is not None and n not in xi})
    if out:
        errors.append(item.error(IllegalOrder, f"{', '.join(out)} not in the XI"))
    elif hurt := sorted({n for n in names if n in unavailable}):
        errors.append(
            item.error(IllegalOrder, f"{', '.join(hurt)} cannot play this match (injured)")
        )


def _check_plan(
    items: list[Item],
    xi: set[str] | None,
    unavailable: set[str],
    fmt: FormatSpec,
    ctx: OrderContext,
    errors: list[OrderError],
) -> None:
    plan: dict[int, Item] = {}
    said: set[tuple[int, str]] = set()  # (line, message): one error per cause, not per over

    def refuse(item: Item, message: str) -> None:
        if (item.line.number, message) in said:
            item.ok = False
        else:
            said.add((item.line.number, message))
            errors.append(item.error(IllegalOrder, message))

    for item in items:
        if item.kind == "plan" and item.ok:
            over, bowler = item.value
            if ctx.at_drinks and ctx.batting is not True and over <= fmt.drinks_after:
                errors.append(item.error(IllegalOrder, f"over {over} was bowled before drinks"))
            elif xi is not None and bowler not in xi:
                refuse(item, f"{bowler} is not in the XI")
            elif bowler in unavailable:
                refuse(item, f"{bowler} cannot play this match (injured)")
            else:
                if (earlier := plan.get(over)) is not None:
                    # A later line wins an over given twice; the earlier one leaves the echo too,
                    # so the echo shows one bowler per over, as the engine will play it.
                    earlier.ok = False
                plan[over] = item
    bowled = dict(ctx.bowled)
    afresh = any(i.kind in ("clear", "fresh") and i.value == "plan" and i.ok for i in items)
    kept: dict[int, str] = {}
    if ctx.standing is not None and not afresh:
        # the overs of the standing plan the mail does not give stand, and count
        kept = {o: b for o, b in ctx.standing.bowling_plan if o not in plan and o not in bowled}
        bowled = {**kept, **bowled}
    # a plan that breaks a limit is mended to the nearest legal plan (plan_check, as the match
    # plays it): the echo shows the plan mended, and each cause is one error per bowler
    given = {o: i.value[1] for o, i in plan.items()}
    fixed = tuple(sorted(bowled.items()))
    mended, problems = nearest_legal(given.items(), fmt, PlanContext(bowled=fixed))
    if not problems:
        return
    now = dict(mended)
    for over, item in plan.items():
        if now.get(over) != item.value[1]:
            item.ok = False
    for over, bowler in mended:
        if given.get(over) != bowler:
            # an over the mend gives him: shown on the line that gave the over it came from
            source = next(
                (plan[o] for o, b in given.items() if b == bowler and now.get(o) != b),
                plan[min(plan)],
            )
            new = Item(source.line, "plan", (over, bowler), source.start, source.end)
            items.insert(items.index(source) + 1, new)
    word = "sets" if fmt.is_hundred else "overs"
    for problem in problems:
        errors.append(
            plan[problem.overs[0]].error(
                MendedPlan, problem.text, hint=_kept_hint(kept, problem.bowler, word)
            )
        )
        if now.get(problem.overs[0]) == given[problem.overs[0]]:
            plan[problem.overs[0]].ok = True  # its over stands: the error is the others'


def _kept_hint(kept: dict[int, str], bowler: str, word: str) -> str | None:
    his = sorted(o for o, b in kept.items() if b == bowler)
    if not his:
        return None
    return (
        f"with the plan that stands, where he bowls {word} {', '.join(map(str, his))}: give "
        "those to others, or send 'new bowling plan: ...' to give the whole plan afresh"
    )


def _helpers(items: list[Item], team: Team, errors: list[OrderError]) -> set[str]:
    """Check the helper points; return who stays injured (he sits out the next match)."""
    spent = 0
    boosted: set[str] = set()
    treated: dict[str, int] = {}
    for item in items:
        if not item.ok or item.kind not in ("treat", "boost"):
            continue
        name = item.value[0]
        player = team.player(name)
        if item.kind == "treat":
            points = item.value[1] if item.value[1] is not None else player.injury_points
            if player.injury_points == 0:
                errors.append(item.error(IllegalOrder, f"{name} is not injured"))
                continue
            if not 1 <= points <= player.injury_points:
                errors.append(
                    item.error(
                        IllegalOrder,
                        f"{name} has {player.injury_points} injury points; treat 1 to "
                        f"{player.injury_points}",
                    )
                )
                continue
            cost = points - treated.get(name, 0)
            item.value = (name, points)
        else:
            stat: Stat = item.value[1]
            if name in boosted:
                errors.append(
                    item.error(IllegalOrder, f"{name} already has a boost: one per member")
                )
                continue
            if stat is Stat.FIELDING and player.fielding >= 6:
                errors.append(
                    item.error(IllegalOrder, f"{name}'s fielding is 6 and cannot go higher")
                )
                continue
            cost = 1
        if spent + cost > HELPER_POINTS:
            errors.append(
                item.error(IllegalOrder, f"that makes more than {HELPER_POINTS} helper points")
            )
            continue
        spent += cost
        if item.kind == "treat":
            treated[name] = points
        else:
            boosted.add(name)
    return {p.name for p in team.players if p.injury_points > treated.get(p.name, 0)}
