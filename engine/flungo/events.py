"""What a match produces: one :class:`Ball` per delivery and a :class:`MatchEvent` for the rest.

Balls are compact named tuples (a 50-over match makes about 650 of them, so they are built on
the hot path); everything else (the toss, a default bowler, a conditional order firing, drinks,
an injury, the result) is a rare, typed :class:`MatchEvent`. Both convert to JSON lazily.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar, NamedTuple

from engine.dice import Roll

__all__ = [
    "Ball",
    "BowlerChanged",
    "Drinks",
    "Event",
    "EventKind",
    "Injury",
    "InningsEnd",
    "MatchEvent",
    "OrdersAmended",
    "ResultDeclared",
    "RuleFired",
    "RuleReverted",
    "RuleSpent",
    "SelectionFix",
    "SubstituteFielder",
    "SuperOverStarted",
    "Termination",
    "Toss",
    "ball_from_json",
    "event_from_json",
]


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
    """Everything that is not a delivery: one :class:`MatchEvent` subclass per kind."""

    TOSS = "toss"
    SELECTION = "selection"  # a default or a fix applied to an XI, captain, keeper or order
    SUBSTITUTE = "substitute"  # a substitute fields for a short XI
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


class Termination(StrEnum):
    """How a match was decided: the fact behind the result's sentence."""

    RUNS = "runs"  # the side batting first won by a margin of runs
    WICKETS = "wickets"  # the side batting second reached the target
    TIE = "tie"  # equal scores, and the tie stands (a league match)
    SUPER_OVER = "super_over"  # a tie broken by a Super Over (Super Five in The Hundred)
    BOUNDARIES = "boundaries"  # still tied after every Super Over: more boundaries won
    COIN = "coin"  # still level on boundaries: the toss of a coin


@dataclass(frozen=True, slots=True)
class MatchEvent:
    """A non-delivery event: the innings (0-based, -1 before play) and legal balls bowled in it
    so far, the team concerned (or ``""``) and a sentence a player can read. Each kind is a
    subclass carrying its facts as typed fields, so reports read facts, not the sentence."""

    kind: ClassVar[EventKind]
    innings: int
    at_ball: int
    team: str
    text: str

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object: ``kind``, the common fields, then the kind's own."""
        out: dict[str, Any] = {"kind": self.kind.value}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Toss(MatchEvent):
    """The toss: who won it, the coin's face, and what they chose (``bat`` or ``bowl``)."""

    kind: ClassVar[EventKind] = EventKind.TOSS
    coin: int
    choice: str


@dataclass(frozen=True, slots=True)
class SelectionFix(MatchEvent):
    """A default or a fix applied to a side's XI, captain, keeper, batting order or styles."""

    kind: ClassVar[EventKind] = EventKind.SELECTION


@dataclass(frozen=True, slots=True)
class SubstituteFielder(MatchEvent):
    """A substitute who fields because the XI is short (``player`` is his label)."""

    kind: ClassVar[EventKind] = EventKind.SUBSTITUTE
    player: str
    fielding: int


@dataclass(frozen=True, slots=True)
class OrdersAmended(MatchEvent):
    """Amendments given between turns: ``accepted``, and the parts ``ignored`` (fixed once
    the match has started)."""

    kind: ClassVar[EventKind] = EventKind.ORDERS
    accepted: bool
    ignored: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BowlerChanged(MatchEvent):
    """The default chose a bowler for ``over`` (1-based) instead of the plan's ``planned``
    (``None``: the plan named nobody); ``bowler`` is ``""`` for "default bowling" throughout."""

    kind: ClassVar[EventKind] = EventKind.BOWLER
    over: int
    bowler: str
    planned: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class RuleFired(MatchEvent):
    """A conditional order fired: its ``rule`` number (``"2"``, ``"2.1"``), its trigger in
    words and what it did."""

    kind: ClassVar[EventKind] = EventKind.RULE_FIRED
    rule: str
    trigger: str
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RuleSpent(MatchEvent):
    """A conditional order's trigger held but its conditions did not: it is spent."""

    kind: ClassVar[EventKind] = EventKind.RULE_SPENT
    rule: str
    trigger: str


@dataclass(frozen=True, slots=True)
class RuleReverted(MatchEvent):
    """A conditional order's ``until`` held: the styles it changed are put back."""

    kind: ClassVar[EventKind] = EventKind.RULE_REVERTED
    rule: str
    trigger: str
    restored: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Injury(MatchEvent):
    """A batsman retired hurt with ``points`` injury points (0: fit for the next match)."""

    kind: ClassVar[EventKind] = EventKind.INJURY
    player: str
    points: int


@dataclass(frozen=True, slots=True)
class Drinks(MatchEvent):
    """Drinks (``resumed`` False, with the score then) or play resuming after them."""

    kind: ClassVar[EventKind] = EventKind.DRINKS
    runs: int
    wickets: int
    resumed: bool


@dataclass(frozen=True, slots=True)
class InningsEnd(MatchEvent):
    """An innings closed: its score, the legal balls bowled and why (``all out``, ...)."""

    kind: ClassVar[EventKind] = EventKind.INNINGS_END
    runs: int
    wickets: int
    legal_balls: int
    reason: str


@dataclass(frozen=True, slots=True)
class SuperOverStarted(MatchEvent):
    """A tie goes to Super Over (or Super Five) number ``number``."""

    kind: ClassVar[EventKind] = EventKind.SUPER_OVER
    number: int
    name: str


@dataclass(frozen=True, slots=True)
class ResultDeclared(MatchEvent):
    """The result: ``winner`` (``None`` for a tie that stands), how it was decided, and the
    margin in runs or wickets (0 when decided otherwise)."""

    kind: ClassVar[EventKind] = EventKind.RESULT
    winner: str | None
    termination: Termination
    margin: int


_BY_KIND: dict[str, type[MatchEvent]] = {
    cls.kind.value: cls
    for cls in (
        Toss,
        SelectionFix,
        SubstituteFielder,
        OrdersAmended,
        BowlerChanged,
        RuleFired,
        RuleSpent,
        RuleReverted,
        Injury,
        Drinks,
        InningsEnd,
        SuperOverStarted,
        ResultDeclared,
    )
}


def _typed(value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin is tuple and isinstance(value, list):
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(v, args[0]) for v in value)
        return tuple(_typed(v, a) for v, a in zip(value, args, strict=True))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    return value


def event_from_json(data: dict[str, Any]) -> MatchEvent:
    """Read back :meth:`MatchEvent.to_json` as its own kind's class."""
    cls = _BY_KIND.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown match event kind {data.get('kind')!r}")
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _typed(data[f.name], hints[f.name]) for f in fields(cls) if f.name in data}
    return cls(**kwargs)


Event = Ball | MatchEvent
