"""Match formats: 20, 40 and 50 overs, and The Hundred.

Each innings is played in two turns split at drinks. The Hundred is modelled as 20 "overs" of
5 balls (its sets), so a bowling plan names sets exactly as it names overs elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["FORMATS", "Format", "FormatSpec"]


class Format(StrEnum):
    """The command-line names of the formats."""

    T20 = "t20"
    FORTY = "40"
    FIFTY = "50"
    HUNDRED = "hundred"


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """The numbers that define a format.

    ``overs`` is the number of overs (sets, for The Hundred) an innings; ``balls_per_over`` is 6,
    or 5 for The Hundred's sets; drinks fall after ``drinks_after`` overs (75 balls = 15 sets in
    The Hundred); a bowler may bowl at most ``max_overs_per_bowler`` overs and at most
    ``max_consecutive`` in succession.
    """

    format: Format
    title: str
    overs: int
    balls_per_over: int
    drinks_after: int
    max_overs_per_bowler: int
    max_consecutive: int

    @property
    def balls(self) -> int:
        """Legal balls in a full innings."""
        return self.overs * self.balls_per_over

    @property
    def is_hundred(self) -> bool:
        """The Hundred has its own special rules (new batter on strike after a catch or run out)."""
        return self.format is Format.HUNDRED


FORMATS: dict[Format, FormatSpec] = {
    Format.T20: FormatSpec(Format.T20, "Twenty20", 20, 6, 15, 4, 2),
    Format.FORTY: FormatSpec(Format.FORTY, "40 overs", 40, 6, 30, 8, 2),
    Format.FIFTY: FormatSpec(Format.FIFTY, "50 overs", 50, 6, 35, 10, 2),
    # 100 balls in sets of 5; a bowler bowls 5 or 10 consecutive balls (1 or 2 sets in a row)
    # and at most 20 balls (4 sets); drinks after ball 75 (15 sets).
    Format.HUNDRED: FormatSpec(Format.HUNDRED, "The Hundred", 20, 5, 15, 4, 2),
}
