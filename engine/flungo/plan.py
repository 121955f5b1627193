"""Selection and bowling defaults: what the engine does when orders are missing or illegal.

Every default and every fix is documented in ``docs/rules/flungo.md`` and reported as an
event by the caller (the functions here return the sentences to report).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.flungo.fitness import injury_points_text
from engine.flungo.formats import Format, FormatSpec
from engine.flungo.ground import Conditions
from engine.flungo.orders import BattingStyle, MatchOrders, TossChoice
from engine.flungo.squad import BowlingStyle, Player, Role, Team

__all__ = [
    "Selection",
    "choose_bowler",
    "default_batting_order",
    "default_orders",
    "default_plan",
    "default_xi",
    "replacement",
    "select",
    "slot_of",
]

XI_SIZE = 11


@dataclass(frozen=True, slots=True)
class Selection:
    """A side's settled XI for the match: players in batting order, captain, keeper, toss choice
    and the initial batting styles (every XI member, by batting order). ``replacements`` pair
    each injured player the orders named with the player who took his slot: orders naming
    him (the batting order, styles, the bowling plan, amendments) apply to his replacement."""

    xi: tuple[str, ...]
    captain: str
    wicketkeeper: str
    toss: TossChoice
    styles: tuple[tuple[str, BattingStyle], ...]
    # (injured player named in the orders' XI, the player who took his slot), by name
    replacements: tuple[tuple[str, str], ...] = ()


def _fit(team: Team) -> list[Player]:
    return [p for p in team.players if p.injury_points == 0]


def default_batting_order(players: Iterable[Player]) -> tuple[str, ...]:
    """Best batsman first: batting skill descending, squad order breaking ties."""
    return tuple(p.name for p in sorted(players, key=lambda p: -p.batting))


def default_xi(team: Team, conditions: Conditions | None = None) -> tuple[str, ...]:
    """The default XI, in default batting order.

    Fit players only (an injured, untreated player sits out): the fit wicketkeeper with the best
    fielding (then batting), the five best bowlers by bowling (with the day's pitch and weather
    modifiers, when ``conditions`` are known), then the five best of the rest by batting. If
    fewer than 11 are fit, every fit player plays and substitutes field.
    """
    fit = _fit(team)
    keepers = sorted(
        (p for p in fit if p.role is Role.WICKETKEEPER), key=lambda p: (-p.fielding, -p.batting)
    )
    chosen: list[Player] = keepers[:1]
    # by identity, not Player.__eq__ (every field of two players, for each pair): the players
    # are the squad's own, and two squad members are never the same value
    taken = {id(p) for p in chosen}
    rest = [p for p in fit if id(p) not in taken and p.role is not Role.WICKETKEEPER]
    mods = {s: conditions.modifier(s) for s in BowlingStyle} if conditions else {}
    bowlers = sorted(rest, key=lambda p: -(p.bowling + mods.get(p.bowling_style, 0)))[:5]
    chosen += bowlers
    taken |= {id(p) for p in bowlers}
    others = [p for p in fit if id(p) not in taken]
    chosen += sorted(others, key=lambda p: -p.batting)[: XI_SIZE - len(chosen)]
    return default_batting_order(chosen)


def default_orders(team: Team) -> MatchOrders:
    """Default orders: default XI and batting order, the best batsman captains, the chosen
    keeper keeps, bat on winning the toss, everyone normal, default bowling, review every lbw."""
    xi = default_xi(team)
    keeper = next((n for n in xi if team.player(n).role is Role.WICKETKEEPER), xi[-1])
    return MatchOrders(
        xi=xi, captain=xi[0], wicketkeeper=keeper, toss=TossChoice.BAT, batting_order=xi
    )


def select(
    team: Team, orders: MatchOrders | None, conditions: Conditions | None = None
) -> tuple[Selection, list[str]]:
    """Settle a side's XI, captain, keeper, toss choice, batting order and styles from its
    orders, filling gaps and fixing illegal choices by the defaults; returns the fixes made.

    A player in the given XI who is injured and not fully treated sits out, and the best fit
    player left *for his slot* takes his place (:func:`replacement`): in the XI, in the batting
    order, with his batting style, as keeper if he kept (and a keeper replaces him), and in his
    planned overs (see :attr:`Selection.replacements`). The rest of the orders stand.
    """
    orders = orders or MatchOrders()
    fixes: list[str] = []
    names = {p.name for p in team.players}
    injured = {p.name for p in team.players if p.injury_points > 0}
    replaced: dict[str, str] = {}
    if orders.xi is None:
        xi = list(default_xi(team, conditions))
        fixes.append("no XI given: the default XI plays")
    else:
        xi = []
        for n in orders.xi:
            if n not in names:
                fixes.append(f"{n} is not in the squad: left out")
            elif n in xi:
                fixes.append(f"{n} named twice in the XI")
            else:
                xi.append(n)
        if len(xi) > XI_SIZE:
            fixes.append(f"more than 11 named: {', '.join(xi[XI_SIZE:])} left out")
            xi = xi[:XI_SIZE]
        for i, n in enumerate(list(xi)):
            if n not in injured:
                continue
            taken = set(xi) | set(orders.xi) | set(replaced.values())
            sub = replacement(team, n, orders, taken, conditions)
            hurt = injury_points_text(team.player(n).injury_points)
            if sub is None:
                fixes.append(
                    f"{n} is injured ({hurt}, not treated) and sits out: nobody fit is left"
                )
                continue
            xi[i] = sub[0]
            replaced[n] = sub[0]
            fixes.append(
                f"{n} is injured ({hurt}, not treated) and sits out: {sub[0]} plays in his "
                f"place ({sub[1]})"
            )
        xi = [n for n in xi if n not in injured]
        if len(xi) < XI_SIZE:
            spare = [n for n in default_xi(team, conditions) if n not in xi]
            spare += [n for n in default_batting_order(_fit(team)) if n not in xi + spare]
            added = spare[: XI_SIZE - len(xi)]
            if added:
                fixes.append(f"XI short: {', '.join(added)} added by default")
            xi += added
    keeper = orders.wicketkeeper
    if keeper in replaced and team.player(replaced[keeper]).role is Role.WICKETKEEPER:
        fixes.append(f"{replaced[keeper]} keeps wicket in place of {keeper}")
        keeper = replaced[keeper]
    if keeper not in xi:
        if keeper is not None:
            fixes.append(f"wicketkeeper {keeper} is not in the XI")
        wks = [n for n in xi if team.player(n).role is Role.WICKETKEEPER]
        pool = wks or xi
        keeper = max(pool, key=lambda n: (team.player(n).fielding, -xi.index(n)))
        fixes.append(f"{keeper} keeps wicket by default")
    captain = orders.captain
    if captain not in xi:
        if captain is not None:
            fixes.append(f"captain {captain} is not in the XI")
        captain = default_batting_order(team.player(n) for n in xi)[0]
        fixes.append(f"{captain} captains by default")
    toss = orders.toss or TossChoice.BAT
    given = orders.batting_order
    if given is not None and replaced:
        given = tuple(replaced.get(n, n) for n in given)
    order = _order(given, xi, team, fixes)
    style_map = dict(orders.styles)
    for out, taker in replaced.items():
        if out in style_map:
            style_map.setdefault(taker, style_map.pop(out))
    normal = BattingStyle.NORMAL  # an enum member's lookup is a descriptor call: once
    styles = tuple([(n, style_map.get(n, normal)) for n in order])
    for n in style_map:
        if n not in order:
            fixes.append(f"style for {n} ignored: not in the XI")
    return Selection(
        tuple(order), captain, keeper, toss, styles, tuple(sorted(replaced.items()))
    ), fixes


_BOWLING_ROLES = frozenset(
    {Role.STAR_BOWLER, Role.BOWLER, Role.BOWLING_ALL_ROUNDER, Role.STAR_ALL_ROUNDER}
)


def slot_of(team: Team, name: str, orders: MatchOrders) -> str:
    """What ``name`` is in these orders' XI: ``"keeper"`` (a wicketkeeper, or the one named to
    keep), ``"bowler"`` (named in the bowling plan, or a bowler or bowling all-rounder by type)
    or ``"batsman"``."""
    player = team.player(name)
    if name == orders.wicketkeeper or player.role is Role.WICKETKEEPER:
        return "keeper"
    if any(b == name for _, b in orders.bowling_plan) or player.role in _BOWLING_ROLES:
        return "bowler"
    return "batsman"


def replacement(
    team: Team,
    name: str,
    orders: MatchOrders,
    taken: set[str],
    conditions: Conditions | None = None,
) -> tuple[str, str] | None:
    """The best fit player, not in ``taken``, for ``name``'s slot (:func:`slot_of`), and why
    (words for the report); None when nobody fit is left.

    A keeper for a keeper (the best fielder, then batsman; the best fielder of all when no fit
    keeper is left); for a bowler the best bowler for the day's pitch and weather (batting
    breaking ties), never a keeper; for a batsman the best batsman. Squad order breaks ties.
    """
    pool = [p for p in _fit(team) if p.name not in taken and p.name != name]
    if not pool:
        return None
    slot = slot_of(team, name, orders)
    if slot == "keeper":
        keepers = [p for p in pool if p.role is Role.WICKETKEEPER]
        if keepers:
            best = max(keepers, key=lambda p: (p.fielding, p.batting, -pool.index(p)))
            return best.name, "keeper for keeper"
        best = max(pool, key=lambda p: (p.fielding, -pool.index(p)))
        return best.name, "no fit wicketkeeper left: the best fielder"
    if slot == "bowler":
        mods = {s: conditions.modifier(s) for s in BowlingStyle} if conditions else {}
        bowlers = [p for p in pool if p.role is not Role.WICKETKEEPER] or pool
        best = max(
            bowlers,
            key=lambda p: (p.bowling + mods.get(p.bowling_style, 0), p.batting, -pool.index(p)),
        )
        day = " for the pitch and weather" if conditions else ""
        return best.name, f"the best fit bowler left{day}"
    best = max(pool, key=lambda p: (p.batting, -pool.index(p)))
    return best.name, "the best fit batsman left"


def _order(
    given: Sequence[str] | None, xi: Sequence[str], team: Team, fixes: list[str]
) -> list[str]:
    if given is None:
        return list(default_batting_order(team.player(n) for n in xi))
    order: list[str] = []
    for n in given:
        if n in xi and n not in order:
            order.append(n)
        else:
            fixes.append(f"{n} in the batting order ignored (not in the XI or named twice)")
    missing = [n for n in default_batting_order(team.player(n) for n in xi) if n not in order]
    if missing:
        fixes.append(f"not in the batting order, bat last: {', '.join(missing)}")
    return order + missing


def bowling_rank(players: Sequence[Player], conditions: Conditions) -> tuple[str, ...]:
    """Bowlers best first: bowling skill plus pitch and weather modifier, XI order breaking ties."""
    mods = {style: conditions.modifier(style) for style in BowlingStyle}
    ranked = sorted(players, key=lambda p: -(p.bowling + mods[p.bowling_style]))
    return tuple(p.name for p in ranked)


def _plainly_legal(
    name: str,
    over: int,
    rank: Sequence[str],
    unable: Mapping[str, str],
    counts: Mapping[str, int],
    previous: Sequence[str],
    spec: FormatSpec,
) -> bool:
    """Whether ``name`` may bowl ``over`` by every limit :func:`choose_bowler` checks."""
    if name in unable or counts.get(name, 0) >= spec.max_overs_per_bowler or name not in rank:
        return False
    k = len(previous)
    if spec.format is Format.HUNDRED and over % 2 == 1 and k and previous[-1] == name:
        return False
    run = spec.max_consecutive
    return k < run or any(previous[k - 1 - j] != name for j in range(run))


def choose_bowler(
    over: int,
    planned: str | None,
    rank: Sequence[str],
    unable: Mapping[str, str],
    counts: Mapping[str, int],
    previous: Sequence[str],
    spec: FormatSpec,
    plans: dict[tuple[str, ...], Mapping[int, str]] | None = None,
) -> tuple[str, str | None]:
    """Who bowls ``over`` (1-based): the planned bowler if legal, else the default.

    ``rank`` lists the side's XI best bowler first; ``unable`` maps those who may not bowl
    (the keeper, a retired-hurt player) to why; ``counts`` is overs bowled so far; ``previous``
    the bowlers of the overs before, in order. Returns the bowler and, when the plan was not
    followed, the reason. The default is the best-ranked legal bowler who did not bowl the
    previous over (so pairs alternate like real ends), else the best legal one at all; if
    nobody is legal (only possible with many hurt players) the limits are relaxed, consecutive
    overs first. ``plans`` keeps the default plans computed for the caller's innings: an
    innings with overs unplanned asks for one before each of them, and computing it was a
    quarter of a 50-over match's time; a caller keeps it for as long as ``spec`` holds.
    """
    limit, run = spec.max_overs_per_bowler, spec.max_consecutive
    if planned is None:
        # no plan for this over: the captain's default plan (see default_plan)
        able = tuple(n for n in rank if n not in unable) if unable else tuple(rank)
        if plans is None:
            plans = {}
        default_for = plans.get(able)
        if default_for is None:
            default_for = plans[able] = default_plan(able, spec)
        default = default_for.get(over)
        if default is not None and counts.get(default, 0) < limit:
            if _plainly_legal(default, over, rank, unable, counts, previous, spec):
                return default, "no bowler planned"
            chosen, why = choose_bowler(over, default, rank, unable, counts, previous, spec, plans)
            return chosen, why or "no bowler planned"
    elif _plainly_legal(planned, over, rank, unable, counts, previous, spec):
        return planned, None  # the usual case, without the reasons' bookkeeping below
    recent = list(previous[-run:])

    # The Hundred: ends change every ten balls, and a bowler's consecutive sets are from one
    # end, so he may not carry on into the set that starts a new ten (an odd set).
    new_end = spec.is_hundred and over % 2 == 1 and bool(previous)

    def legal(n: str) -> bool:
        if n in unable or counts.get(n, 0) >= limit:
            return False
        if new_end and previous[-1] == n:
            return False
        return not (len(recent) == run and all(b == n for b in recent))

    reason: str | None = None
    if planned is not None:
        if planned not in rank:
            reason = f"{planned} is not in the XI"
        elif planned in unable:
            reason = f"{planned} {unable[planned]}"
        elif counts.get(planned, 0) >= limit:
            reason = f"{planned} has bowled his {limit} overs"
        elif new_end and previous[-1] == planned:
            reason = f"{planned} bowled the last set from the other end"
        elif not legal(planned):
            reason = f"{planned} may not bowl more than {run} overs in succession"
        else:
            return planned, None
    else:
        reason = "no bowler planned"
    last = previous[-1] if previous else None
    fallback: str | None = None
    for n in rank:
        if legal(n):
            if n != last:
                return n, reason
            fallback = fallback or n
    if fallback is not None:
        return fallback, reason
    # Nobody is legal: relax the succession limit, then the quota.
    spare = [n for n in rank if n not in unable and counts.get(n, 0) < limit and n != last]
    spare = spare or [n for n in rank if n not in unable and n != last]
    spare = spare or [n for n in rank if n not in unable] or list(rank)
    return spare[0], f"{reason}; no legal bowler left, limits relaxed"


def default_plan(rank: Sequence[str], spec: FormatSpec) -> dict[int, str]:
    """The captain's default bowling plan for the bowlers ``rank`` (best first, for the day's
    pitch and weather): the best four bowl their full quotas, and the 5th and 6th share the
    overs left, alternating (about 9% of the overs each, 5 of 50, 2 of 20).

    The odd overs are bowled from one end by the 1st, 3rd and 5th bowlers, the even overs from
    the other by the 2nd, 4th and 6th, so nobody bowls two overs running. At each end the
    opener bowls a first spell, then the 3rd (4th) bowler, the 5th (6th), the 3rd (4th) again,
    and the opener comes back at the end. In The Hundred the ends change every ten balls, so
    each turn at an end is two sets (ten balls) by one bowler.
    """
    bowlers = list(rank[:6])
    if not bowlers:
        return {}
    block = 2 if spec.is_hundred else 1  # overs (sets) a bowler bowls at a go
    turns = spec.overs // block
    quota = spec.max_overs_per_bowler // block
    counts = [min(quota, turns)] * min(4, len(bowlers))
    left = max(turns - sum(counts), 0)
    extra = bowlers[4:6]
    if extra:
        counts += [(left + 1) // 2, left // 2][: len(extra)]
    while len(bowlers) < 6:
        bowlers.append(bowlers[len(bowlers) % max(len(rank[:6]), 1)])
        counts.append(0)
    plan: dict[int, str] = {}
    for end in (0, 1):
        first, second, third = end, end + 2, end + 4
        c1, c2, c3 = counts[first], counts[second], counts[third]
        spells = [
            (bowlers[first], (c1 + 1) // 2),
            (bowlers[second], (c2 + 1) // 2),
            (bowlers[third], c3),
            (bowlers[second], c2 // 2),
            (bowlers[first], c1 // 2),
        ]
        seq = [name for name, n in spells for _ in range(n)]
        for i, name in enumerate(seq):
            turn = end + 2 * i  # 0-based turn: this end takes every other one
            if turn >= turns:
                break
            for k in range(block):
                plan[turn * block + k + 1] = name
    return plan
