"""Drafts: one line's orders as the parse tree gives them, names still as written."""

from __future__ import annotations

from dataclasses import dataclass

from engine.flungo.orders import (
    BattingStyle,
    Condition,
    ReviewMode,
    Stat,
    TargetKind,
    TossChoice,
    TriggerKind,
)

__all__ = [
    "ActD",
    "BoostD",
    "BowlD",
    "CaptainD",
    "ClauseD",
    "ClearD",
    "CondD",
    "Draft",
    "Entries",
    "HeaderD",
    "KeeperD",
    "NumberError",
    "OpenD",
    "OpenersD",
    "OrderD",
    "PositionD",
    "Ref",
    "RestD",
    "ReviewsD",
    "RuleD",
    "StyleD",
    "TossD",
    "TreatD",
    "TrigD",
    "XiD",
]


@dataclass(frozen=True, slots=True)
class Ref:
    """A name as written: its text, where it is in the cleaned line, and the masked full name."""

    text: str
    start: int
    end: int
    exact: str | None = None


@dataclass(frozen=True, slots=True)
class XiD:
    refs: tuple[Ref, ...]
    captain: Ref | None = None  # "Root (c)"
    keeper: Ref | None = None  # "Wilson (wk)"


@dataclass(frozen=True, slots=True)
class CaptainD:
    ref: Ref


@dataclass(frozen=True, slots=True)
class KeeperD:
    ref: Ref


@dataclass(frozen=True, slots=True)
class TossD:
    choice: TossChoice


@dataclass(frozen=True, slots=True)
class HeaderD:
    kind: str  # "batting" or "xi"


@dataclass(frozen=True, slots=True)
class OrderD:
    entries: tuple[tuple[Ref, BattingStyle | None], ...]


@dataclass(frozen=True, slots=True)
class TreatD:
    ref: Ref
    points: int | None


@dataclass(frozen=True, slots=True)
class BoostD:
    ref: Ref
    stat: Stat


@dataclass(frozen=True, slots=True)
class CondD:
    """A condition; ``per_over``: its value is in overs and the quantity counts balls.

    ``ref``: the batsman of a "Root is still in" condition, resolved when lowered.
    """

    condition: Condition
    per_over: bool = False
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class TrigD:
    kind: TriggerKind
    value: int | None = None
    ref: Ref | None = None
    overs_left: bool = False  # "when 2 overs are left": value is in overs, not balls
    start: int = 0
    conds: tuple[CondD, ...] = ()  # said with the trigger ("if we need 30 off 12 balls")
    # "for the first 10 overs" lasts until after 10 overs; "while Root is in" until he is out
    until: TrigD | None = None


@dataclass(frozen=True, slots=True)
class StyleD:
    target: TargetKind | None  # None: not said (inherited in a "but" clause, else all)
    refs: tuple[Ref, ...]
    count: int
    style: BattingStyle
    others: bool = False  # "everyone else": the batsmen given no style elsewhere
    excepted: tuple[Ref, ...] = ()  # "all batsmen normal except Flintoff"
    except_style: BattingStyle | None = None  # "... except Flintoff wahoo"


@dataclass(frozen=True, slots=True)
class BowlD:
    refs: tuple[Ref, ...]
    overs: tuple[int, ...]
    start: int


@dataclass(frozen=True, slots=True)
class OpenD:
    refs: tuple[Ref, ...]
    either: bool = False  # "X and Y open": batting or bowling, decided by who they are


@dataclass(frozen=True, slots=True)
class RestD:
    """ "Green and White the rest": the overs the plan leaves, shared in turn."""

    refs: tuple[Ref, ...]


@dataclass(frozen=True, slots=True)
class OpenersD:
    """The opening batsmen: places 1 and 2 of the batting order."""

    refs: tuple[Ref, ...]


@dataclass(frozen=True, slots=True)
class PositionD:
    """ "Jones at 3": a place in the batting order, with a style if given."""

    ref: Ref
    place: int
    style: BattingStyle | None


@dataclass(frozen=True, slots=True)
class ClearD:
    """ "No conditional orders": a part of the standing orders cleared."""

    part: str


@dataclass(frozen=True, slots=True)
class ReviewsD:
    side: str | None  # "batting", "bowling" or None (both, or the side being played)
    mode: ReviewMode
    refs: tuple[Ref, ...] = ()
    top: int = 0


ActD = StyleD | BowlD | OpenD | ReviewsD | RestD


@dataclass(frozen=True, slots=True)
class ClauseD:
    trigger: TrigD | None
    conditions: tuple[CondD, ...]
    actions: tuple[ActD, ...]
    until: TrigD | None
    start: int
    # the trigger said after the actions ("Root aggressive; Stokes defensive after 20 overs")
    tail: bool = False


@dataclass(frozen=True, slots=True)
class RuleD:
    clauses: tuple[ClauseD, ...]  # the head, then each "but" clause chained to the one before


Draft = (
    XiD
    | CaptainD
    | KeeperD
    | TossD
    | HeaderD
    | OrderD
    | TreatD
    | BoostD
    | RuleD
    | OpenersD
    | PositionD
    | ClearD
)


class NumberError(ValueError):
    """A number where a whole number is needed, with its position in the line."""

    def __init__(self, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.start = start
        self.end = end


Entries = tuple[tuple[Ref, BattingStyle | None], ...]
