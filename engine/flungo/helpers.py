"""Squad helper points, injuries and healing: what happens to a squad between its matches.

The seed: "Each player has 6 squad helper points which can be spent on medical treatment for
injured cricketers and/or boosting squad members' stats. Only one point per squad member can be
spent on improvements, but there are no restrictions on medical treatment." Decisions (also in
``docs/rules/flungo-season.md``):

* **Window.** A team has :data:`HELPER_POINTS` (6) points in each window between two of its
  matches; points cannot be saved for later.
* **Treatment** costs one point per injury point, as many points on one member as needed.
  Partial treatment lowers the injury points, but a member with any left still sits out the next
  match (and is healed after it). Treating a member who is not injured, or for more points than
  he has, is illegal (the points would be wasted).
* **Boosts** add 1 to batting, bowling or fielding, at most one boost per member per window (a
  member may also be treated). Fielding never goes above 6; batting and bowling never above
  :data:`STAT_CAPS` (30: four above the best the squad table can roll, so a season of boosts
  cannot make every ball a chance).
* **Default spend.** Points the manager does not assign (all six when he sends nothing) go on
  +1 fielding for the members with the lowest fielding, lowest first, ties broken by squad slot
  (squad order), skipping members already at 6 or already boosted this window. Points left when
  nobody can be improved are lost (a :class:`HelperPointsLost` event). The default never treats
  injuries: the seed says it improves fielding.
* **Injuries.** A member hurt in a match gets D6-1 injury points (rolled by the match engine).
  0 points: fit for the next match. Otherwise he sits out the team's next match unless fully
  treated, and is healed after that match. ``after_match`` does both steps in the right order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from difflib import get_close_matches

from engine.errors import EngineError, IllegalOrder
from engine.flungo.orders import HelperSpend, Stat
from engine.flungo.season_events import (
    HelperPointsLost,
    InjuryTreated,
    PlayerHealed,
    PlayerInjured,
    PlayerSitsOut,
    SeasonEvent,
    StatBoosted,
)
from engine.flungo.squad import Player, Team

__all__ = [
    "HELPER_POINTS",
    "STAT_CAPS",
    "InjuryError",
    "after_match",
    "apply_helper_spend",
    "check_helper_spend",
    "default_spend",
    "record_injuries",
    "unavailable",
]

HELPER_POINTS = 6
STAT_CAPS: dict[Stat, int] = {Stat.BATTING: 30, Stat.BOWLING: 30, Stat.FIELDING: 6}


class InjuryError(EngineError, ValueError):
    """Injuries reported for a player who is not in the squad, or could not have played."""


def _stat(player: Player, stat: Stat) -> int:
    return {Stat.BATTING: player.batting, Stat.BOWLING: player.bowling}.get(stat, player.fielding)


def _unknown(team: Team, name: str) -> IllegalOrder:
    close = get_close_matches(name, [p.name for p in team.players], n=1)
    hint = f"did you mean {close[0]!r}?" if close else None
    return IllegalOrder(f"{team.name} has no squad member called {name!r}", hint=hint)


def check_helper_spend(team: Team, spend: HelperSpend) -> tuple[IllegalOrder, ...]:
    """Every reason ``spend`` is illegal for ``team`` (empty when it is legal)."""
    errors: list[IllegalOrder] = []
    names = {p.name for p in team.players}
    treated: dict[str, int] = {}
    for name, points in spend.treatments:
        if name not in names:
            errors.append(_unknown(team, name))
        elif points < 1:
            errors.append(IllegalOrder(f"treatment for {name} must be at least one point"))
        else:
            treated[name] = treated.get(name, 0) + points
    for name, points in treated.items():
        injury = team.player(name).injury_points
        if injury == 0:
            errors.append(IllegalOrder(f"{name} is not injured, so needs no treatment"))
        elif points > injury:
            errors.append(
                IllegalOrder(
                    f"{name} has {injury} injury point{'s' if injury != 1 else ''}; "
                    f"{points} points of treatment is more than needed"
                )
            )
    boosted: set[str] = set()
    for name, stat in spend.boosts:
        if name not in names:
            errors.append(_unknown(team, name))
            continue
        if name in boosted:
            errors.append(
                IllegalOrder(
                    f"only one helper point per squad member can go on improvements, "
                    f"and {name} already has one"
                )
            )
            continue
        boosted.add(name)
        value, cap = _stat(team.player(name), stat), STAT_CAPS[stat]
        if value >= cap:
            errors.append(
                IllegalOrder(f"{name}'s {stat.value} is {value}; it cannot go above {cap}")
            )
    total = sum(p for _, p in spend.treatments if p > 0) + len(spend.boosts)
    if total > HELPER_POINTS:
        errors.append(
            IllegalOrder(f"that spends {total} helper points; a team has {HELPER_POINTS}")
        )
    return tuple(errors)


def default_spend(
    team: Team, points: int, already_boosted: frozenset[str] = frozenset()
) -> tuple[tuple[str, Stat], ...]:
    """The default boosts for ``points`` points: +1 fielding for the lowest fielders (ties by
    squad slot), skipping those at 6 and those in ``already_boosted``. May return fewer."""
    candidates = [
        (p.fielding, slot, p.name)
        for slot, p in enumerate(team.players, start=1)
        if p.fielding < STAT_CAPS[Stat.FIELDING] and p.name not in already_boosted
    ]
    candidates.sort()
    return tuple((name, Stat.FIELDING) for _, _, name in candidates[: max(points, 0)])


def _boost(team: Team, name: str, stat: Stat, by_default: bool) -> tuple[Team, StatBoosted]:
    slot = next(i for i, p in enumerate(team.players, start=1) if p.name == name)
    player = team.players[slot - 1]
    before = _stat(player, stat)
    if stat is Stat.BATTING:
        improved = replace(player, batting=before + 1)
    elif stat is Stat.BOWLING:
        improved = replace(player, bowling=before + 1)
    else:
        improved = replace(player, fielding=before + 1)
    team = team.with_player(slot, improved)
    return team, StatBoosted(team.name, name, stat.value, before, before + 1, by_default)


def apply_helper_spend(
    team: Team, spend: HelperSpend | None
) -> tuple[Team, tuple[SeasonEvent, ...]]:
    """Spend ``team``'s six helper points: the manager's treatments and boosts, then the
    default spend for any points left (all six when ``spend`` is ``None``).

    Raises the first :class:`IllegalOrder` of :func:`check_helper_spend` if the spend is
    illegal. Ends with a :class:`PlayerSitsOut` event for each member still injured.
    """
    spend = spend or HelperSpend()
    errors = check_helper_spend(team, spend)
    if errors:
        raise errors[0]
    events: list[SeasonEvent] = []
    for name, points in spend.treatments:
        slot = next(i for i, p in enumerate(team.players, start=1) if p.name == name)
        player = team.players[slot - 1]
        remaining = player.injury_points - points
        team = team.with_player(slot, replace(player, injury_points=remaining))
        events.append(InjuryTreated(team.name, name, points, remaining))
    for name, stat in spend.boosts:
        team, event = _boost(team, name, stat, by_default=False)
        events.append(event)
    left = HELPER_POINTS - sum(p for _, p in spend.treatments) - len(spend.boosts)
    for name, stat in default_spend(team, left, frozenset(n for n, _ in spend.boosts)):
        team, event = _boost(team, name, stat, by_default=True)
        events.append(event)
        left -= 1
    if left > 0:
        events.append(HelperPointsLost(team.name, left, "no squad member left to improve"))
    events.extend(
        PlayerSitsOut(team.name, p.name, p.injury_points) for p in team.players if p.injury_points
    )
    return team, tuple(events)


def unavailable(team: Team) -> tuple[str, ...]:
    """Members who must sit out the team's next match (injured, not fully treated)."""
    return tuple(p.name for p in team.players if p.injury_points > 0)


def record_injuries(
    team: Team, injuries: Mapping[str, int]
) -> tuple[Team, tuple[SeasonEvent, ...]]:
    """Add the injury points players took in a match (0 points: hurt but fit next match).

    Raises :class:`InjuryError` for an unknown member, negative points, or a member who was
    injured already (he sat the match out, so cannot have been hurt in it).
    """
    events: list[SeasonEvent] = []
    for name, points in sorted(injuries.items()):
        slot = next((i for i, p in enumerate(team.players, start=1) if p.name == name), None)
        if slot is None:
            raise InjuryError(f"{team.name} has no squad member called {name!r}")
        if points < 0:
            raise InjuryError(f"{name}: injury points cannot be negative ({points})")
        player = team.players[slot - 1]
        if player.injury_points:
            raise InjuryError(f"{name} was injured and sat the match out, so was not hurt in it")
        team = team.with_player(slot, replace(player, injury_points=points))
        events.append(PlayerInjured(team.name, name, points))
    return team, tuple(events)


def after_match(
    team: Team, injuries: Mapping[str, int] | None = None
) -> tuple[Team, tuple[SeasonEvent, ...]]:
    """After each match the team plays: heal those who sat it out, then record its injuries.

    Call it once per match played (not for a bye: an injured member sits out the team's next
    *match*). The members healed are exactly :func:`unavailable` before the match.
    """
    events: list[SeasonEvent] = []
    for slot, player in enumerate(team.players, start=1):
        if player.injury_points:
            team = team.with_player(slot, replace(player, injury_points=0))
            events.append(PlayerHealed(team.name, player.name))
    team, injured = record_injuries(team, injuries or {})
    return team, (*events, *injured)
