"""Accepted items to :class:`Orders`, and each line's canonical echo."""

from __future__ import annotations

from dataclasses import replace

from engine.flungo.language import _canonical as C
from engine.flungo.language._items import Item
from engine.flungo.orders import (
    BattingStyle,
    HelperSpend,
    MatchOrders,
    Orders,
    ReviewPolicy,
    Rule,
    SquadNaming,
    Stat,
    TossChoice,
)
from engine.flungo.squad import Team

__all__ = ["build_orders", "echo_lines", "renamed"]

_MATCH = {
    "xi",
    "captain",
    "keeper",
    "toss",
    "order",
    "style",
    "all_style",
    "plan",
    "reviews",
    "rule",
}


def _batting_names(
    items: list[Item], upto: int, standing: MatchOrders | None = None
) -> tuple[str, ...]:
    """Who "all batsmen" means on a line: the batting order given so far, else the XI, else
    the standing batting order or XI."""
    order = [i for i in items[:upto] if i.kind == "order"]
    if order:
        return tuple(n for n, _ in order[-1].value)
    xi = [i for i in items if i.kind == "xi"]
    if xi:
        return tuple(xi[-1].value)
    if standing is not None:
        return standing.batting_order or standing.xi or ()
    return ()


def build_orders(items: list[Item], standing: MatchOrders | None = None) -> Orders:
    """The orders the accepted items give; a later line wins where two conflict."""
    team_name: str | None = None
    slots: dict[int, str] = {}
    xi: tuple[str, ...] | None = None
    captain = keeper = None
    toss: TossChoice | None = None
    order: tuple[str, ...] | None = None
    styles: dict[str, BattingStyle] = {}
    plan: dict[int, str] = {}
    reviews: dict[str, ReviewPolicy] = {}
    rules: list[Rule] = []
    treatments: dict[str, int] = {}
    boosts: list[tuple[str, Stat]] = []
    notes: list[str] = []
    for k, item in enumerate(items):
        v = item.value
        match item.kind:
            case "team":
                team_name = v
            case "slot":
                slots[v[0]] = v[1]
            case "note":
                notes.append(C.note_line(v))  # extras hold canonical lines
            case "xi":
                xi = tuple(v)
            case "captain":
                captain = v
            case "keeper":
                keeper = v
            case "toss":
                toss = v
            case "order":
                order = tuple(n for n, _ in v)
                styles.update({n: s for n, s in v if s is not None})
            case "style":
                styles[v[0]] = v[1]
            case "all_style":
                styles.update(dict.fromkeys(_batting_names(items, k, standing), v))
            case "plan":
                plan[v[0]] = v[1]
            case "reviews":
                reviews[v[0]] = v[1]
            case "rule":
                rules.append(v)
            case "treat":
                treatments[v[0]] = v[1]
            case "boost":
                boosts.append(v)
    naming = None
    if team_name is not None or slots:
        naming = SquadNaming(team_name, tuple(sorted(slots.items())))
    match = None
    if any(i.kind in _MATCH for i in items):
        match = MatchOrders(
            xi=xi,
            captain=captain,
            wicketkeeper=keeper,
            toss=toss,
            batting_order=order,
            styles=tuple(sorted(styles.items())),
            bowling_plan=tuple(sorted(plan.items())),
            batting_reviews=reviews.get("batting"),
            bowling_reviews=reviews.get("bowling"),
            rules=tuple(rules),
        )
    helpers = None
    if treatments or boosts:
        helpers = HelperSpend(tuple(treatments.items()), tuple(boosts))
    return Orders(naming=naming, match=match, helpers=helpers, extras=tuple(notes))


def _line_echo(
    item: Item, items: list[Item], k: int, standing: MatchOrders | None = None
) -> list[str]:
    v = item.value
    match item.kind:
        case "team":
            return [C.team_line(v)]
        case "slot":
            return [C.slot_line(*v)]
        case "note":
            return [C.note_line(v)]
        case "xi":
            return [C.xi_line(v)]
        case "captain":
            return [C.captain_line(v)]
        case "keeper":
            return [C.keeper_line(v)]
        case "toss":
            return [C.toss_line(v)]
        case "order":
            return [C.order_line([n for n, _ in v], {n: s for n, s in v if s is not None})]
        case "style":
            return [C.style_line(*v)]
        case "all_style":
            return [C.style_line(n, v) for n in _batting_names(items, k, standing)]
        case "clear":
            return [C.clear_line(v)]
        case "fresh":
            return [C.fresh_line(v)]
        case "reviews":
            return [C.reviews_line(*v)]
        case "rule":
            return [C.rule_line(v)]
        case "treat":
            return [C.treat_line(*v)]
        case "boost":
            return [C.boost_line(*v)]
    return []  # "placed": its meaning is echoed with the batting order or styles it joined


def echo_lines(items: list[Item], standing: MatchOrders | None = None) -> list[tuple[int, str]]:
    """(line number, canonical text) for each accepted order, in the order of the lines."""
    out: list[tuple[int, str]] = []
    k = 0
    while k < len(items):
        item = items[k]
        if item.kind == "plan":
            j = k
            while j < len(items) and items[j].kind == "plan" and items[j].line is item.line:
                j += 1
            out += [(item.line.number, t) for t in C.bowler_lines(i.value for i in items[k:j])]
            k = j
            continue
        out += [(item.line.number, t) for t in _line_echo(item, items, k, standing)]
        k += 1
    return sorted(out, key=lambda p: p[0])


def renamed(team: Team, naming: SquadNaming | None) -> Team:
    """``team`` with the squad naming applied: new team name, new names by slot."""
    if naming is None:
        return team
    players = list(team.players)
    for slot, name in naming.names:
        players[slot - 1] = replace(players[slot - 1], name=name)
    return replace(team, name=naming.team_name or team.name, players=tuple(players))
