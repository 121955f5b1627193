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
    "CondD",
    "Draft",
    "Entries",
    "HeaderD",
    "KeeperD",
    "NumberError",
    "OpenD",
    "OrderD",
    "Ref",
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
    """A condition; ``per_over``: its value is in overs and the quantity counts balls."""

    condition: Condition
    per_over: bool = False


@dataclass(frozen=True, slots=True)
class TrigD:
    kind: TriggerKind
    value: int | None = None
    ref: Ref | None = None
    overs_left: bool = False  # "when 2 overs are left": value is in overs, not balls
    start: int = 0
    conds: tuple[CondD, ...] = ()  # said with the trigger ("if we need 30 off 12 balls")


@dataclass(frozen=True, slots=True)
class StyleD:
    target: TargetKind | None  # None: not said (inherited in a "but" clause, else all)
    refs: tuple[Ref, ...]
    count: int
    style: BattingStyle


@dataclass(frozen=True, slots=True)
class BowlD:
    refs: tuple[Ref, ...]
    overs: tuple[int, ...]
    start: int


@dataclass(frozen=True, slots=True)
class OpenD:
    refs: tuple[Ref, ...]


@dataclass(frozen=True, slots=True)
class ReviewsD:
    side: str | None  # "batting", "bowling" or None (both, or the side being played)
    mode: ReviewMode
    refs: tuple[Ref, ...] = ()
    top: int = 0


ActD = StyleD | BowlD | OpenD | ReviewsD


@dataclass(frozen=True, slots=True)
class ClauseD:
    trigger: TrigD | None
    conditions: tuple[CondD, ...]
    actions: tuple[ActD, ...]
    until: TrigD | None
    start: int


@dataclass(frozen=True, slots=True)
class RuleD:
    clauses: tuple[ClauseD, ...]  # the head, then each "but" clause chained to the one before


Draft = XiD | CaptainD | KeeperD | TossD | HeaderD | OrderD | TreatD | BoostD | RuleD


class NumberError(ValueError):
    """A number where a whole number is needed, with its position in the line."""

    def __init__(self, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.start = start
        self.end = end


Entries = tuple[tuple[Ref, BattingStyle | None], ...]
