"""A player's fitness: the one model every mail, the zine, SQUAD and the order check read.

The seed: "Injured players who do not receive the necessary treatment (e.g if they have 3 injury
points then 3 helper points will cure them) must sit out the next match after which they will be
healed." A squad member's ``injury_points`` say how hurt he is; *when* the squad is read says
what that means (``docs/rules/flungo-season.md``, "Fitness"):

* **Between matches** (his team's last match is decided, its next selection not yet played): a
  member with injury points sits out the next match unless his team treats him, one helper point
  per injury point, at that selection (``treat NAME: N``). Partial treatment is not enough.
* **During a match** (from its selection to its result): a member who still has injury points
  was not fully treated at the selection, so he sits out this match; he is healed after it and
  needs no treatment (a ``treat`` for him would fall in the next window, when he is fit).
* Otherwise he is fit.

Nothing here rolls or changes a squad but :func:`next_window_squad`, which gives the squad the
next helper-point window will see, as far as it is known now.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.flungo.squad import Player, Team

__all__ = [
    "Fitness",
    "FitnessStatus",
    "injured",
    "injury_points_text",
    "next_window_squad",
    "player_fitness",
    "squad_fitness",
]


def injury_points_text(points: int) -> str:
    """``"1 injury point"``, ``"3 injury points"``."""
    return f"{points} injury point{'s' * (points != 1)}"


class FitnessStatus(StrEnum):
    """Where a squad member stands for his team's matches."""

    FIT = "fit"
    NEEDS_TREATMENT = "needs treatment"  # between matches: sits out the next unless treated
    SITTING_OUT = "sitting out"  # during a match he was not treated for: healed after it


@dataclass(frozen=True, slots=True)
class Fitness:
    """One squad member's fitness: his ``injury_points`` and what they mean now."""

    player: str
    injury_points: int
    status: FitnessStatus

    @property
    def treatment(self) -> int:
        """Helper points of treatment he needs to play the next match (0: none)."""
        return self.injury_points if self.status is FitnessStatus.NEEDS_TREATMENT else 0

    @property
    def fit(self) -> bool:
        """Whether he is fit (no injury points)."""
        return self.status is FitnessStatus.FIT

    def short(self) -> str:
        """A word for a squad list, beside the stats (the sentence says the rest)."""
        if self.status is FitnessStatus.NEEDS_TREATMENT:
            return "injured"
        if self.status is FitnessStatus.SITTING_OUT:
            return "sits out"
        return "fit"

    def sentence(self, match: str = "your next match") -> str:
        """What it means for the manager, with the order that cures him (``match``: how the
        next match is called, e.g. "the Final")."""
        points = injury_points_text(self.injury_points)
        if self.status is FitnessStatus.NEEDS_TREATMENT:
            word = "point" if self.injury_points == 1 else "points"
            return (
                f"{self.player} is injured ({points}): he sits out {match} unless treated; "
                f'to play him send "treat {self.player}: {self.injury_points}" '
                f"({self.injury_points} of your 6 helper {word}; the default spend treats nobody)"
            )
        if self.status is FitnessStatus.SITTING_OUT:
            return (
                f"{self.player} is injured and sits out this match (not fully treated at "
                "selection); he is healed after it and needs no treatment"
            )
        return f"{self.player} is fit"


def player_fitness(player: Player, in_match: bool) -> Fitness:
    """``player``'s fitness; ``in_match``: his team is in a match (selection played, result
    not yet), so an injured member is one sitting it out."""
    if player.injury_points <= 0:
        return Fitness(player.name, 0, FitnessStatus.FIT)
    status = FitnessStatus.SITTING_OUT if in_match else FitnessStatus.NEEDS_TREATMENT
    return Fitness(player.name, player.injury_points, status)


def squad_fitness(team: Team, in_match: bool) -> tuple[Fitness, ...]:
    """Every squad member's fitness, in squad order."""
    return tuple(player_fitness(p, in_match) for p in team.players)


def injured(team: Team, in_match: bool) -> tuple[Fitness, ...]:
    """The squad members who are not fit, in squad order."""
    return tuple(f for f in squad_fitness(team, in_match) if not f.fit)


def next_window_squad(team: Team, in_match: bool) -> Team:
    """The squad as the team's next helper-point window will find it, as far as known now:
    during a match those sitting it out are healed after it (its own injuries are not known
    yet); between matches the squad as it stands."""
    if not in_match or not any(p.injury_points for p in team.players):
        return team
    return replace(team, players=tuple(replace(p, injury_points=0) for p in team.players))
