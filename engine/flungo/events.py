"""What a match produces: one :class:`Ball` per delivery and a :class:`MatchEvent` for the rest.

Balls are compact named tuples (a 50-over match makes about 650 of them, so they are built on
the hot path); everything else (the toss, a default bowler, a conditional order firing, drinks,
an injury, the result) is a rare, typed :class:`MatchEvent`. Both convert to JSON lazily.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from engine.dice import Roll

__all__ = ["Ball", "Event", "EventKind", "MatchEvent", "ball_from_json", "event_from_json"]


class Ball(NamedTuple):
    """One delivery, with every die rolled for it.

    ``over`` counts from 1 (the set of five in The Hundred); ``ball`` is the legal-ball number
    within the over; an illegal delivery (wide, no ball) carries the number of the legal ball it
    comes before. ``runs`` are off the bat; ``boundary`` is False for the 3-3 "all run four".
    ``extra`` is ``no_ball``, ``wide``, ``bye`` or ``leg_bye``; ``wicket`` uses Cricsheet's words.
    ``note`` says in words what happened to a HOWZAT (dropped, benefit of the doubt, review).
    """

    over: int
    ball: int
    legal: bool
    bowler: str
    striker: str
    non_striker: str
    style: str
    d1: int
    d2: int
    runs: int
    boundary: bool
    extra: str | None
    extra_runs: int
    wicket: str | None
    player_out: str | None
    fielder: str | None
    rolls: tuple[Roll, ...]
    note: str

    @property
    def total(self) -> int:
        """Runs the batting side gets from this delivery."""
        return self.runs + self.extra_runs

    def to_json(self) -> dict[str, Any]:
        """The ``balls`` entry of ``pbm sim --json``: issue 2's shape, ``boundary`` and ``note``."""
        return {
            "over": self.over,
            "ball": self.ball,
            "legal": self.legal,
            "bowler": self.bowler,
            "striker": self.striker,
            "non_striker": self.non_striker,
            "style": self.style,
            "dice": [self.d1, self.d2],
            "runs": self.runs,
            "boundary": self.boundary,
            "extras": None if self.extra is None else {"kind": self.extra, "runs": self.extra_runs},
            "wicket": None
            if self.wicket is None
            else {"kind": self.wicket, "player_out": self.player_out, "fielder": self.fielder},
            "rolls": [{"die": r.die, "value": r.value, "purpose": r.purpose} for r in self.rolls],
            "note": self.note,
        }


def ball_from_json(data: dict[str, Any]) -> Ball:
    """Read back :meth:`Ball.to_json`."""
    extras = data["extras"]
    wicket = data["wicket"]
    return Ball(
        over=int(data["over"]),
        ball=int(data["ball"]),
        legal=bool(data["legal"]),
        bowler=str(data["bowler"]),
        striker=str(data["striker"]),
        non_striker=str(data["non_striker"]),
        style=str(data["style"]),
        d1=int(data["dice"][0]),
        d2=int(data["dice"][1]),
        runs=int(data["runs"]),
        boundary=bool(data["boundary"]),
        extra=None if extras is None else str(extras["kind"]),
        extra_runs=0 if extras is None else int(extras["runs"]),
        wicket=None if wicket is None else str(wicket["kind"]),
        player_out=None if wicket is None else wicket["player_out"],
        fielder=None if wicket is None else wicket["fielder"],
        rolls=tuple(Roll(int(r["die"]), int(r["value"]), str(r["purpose"])) for r in data["rolls"]),
        note=str(data["note"]),
    )


class EventKind(StrEnum):
    """Everything that is not a delivery."""

    TOSS = "toss"
    SELECTION = "selection"  # a default or a fix applied to an XI, captain, keeper or order
    ORDERS = "orders"  # amendments accepted or ignored
    BOWLER = "bowler"  # the plan's bowler replaced (illegal, missing, hurt) by the default
    RULE_FIRED = "rule_fired"
    RULE_SPENT = "rule_spent"  # its trigger held but its conditions did not
    RULE_REVERTED = "rule_reverted"  # its ``until`` held
    INJURY = "injury"
    DRINKS = "drinks"
    INNINGS_END = "innings_end"
    SUPER_OVER = "super_over"
    RESULT = "result"


@dataclass(frozen=True, slots=True)
class MatchEvent:
    """A non-delivery event: its kind, the innings (0-based) and legal balls bowled in it so far,
    the team concerned (or ``""``) and a sentence a player can read."""

    kind: EventKind
    innings: int
    at_ball: int
    team: str
    text: str

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {
            "kind": self.kind.value,
            "innings": self.innings,
            "at_ball": self.at_ball,
            "team": self.team,
            "text": self.text,
        }


def event_from_json(data: dict[str, Any]) -> MatchEvent:
    """Read back :meth:`MatchEvent.to_json`."""
    return MatchEvent(
        EventKind(data["kind"]),
        int(data["innings"]),
        int(data["at_ball"]),
        str(data["team"]),
        str(data["text"]),
    )


Event = Ball | MatchEvent
