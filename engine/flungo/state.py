"""The frozen values of a match: its setup, its state between turns, a resolution, a result.

:class:`MatchState` has a canonical JSON/text form (``to_text``/``from_text``) that reads back
equal; the functions that change it live in ``engine.flungo.match``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from engine.flungo.codec import decoder, encode
from engine.flungo.events import Event, MatchEvent, Termination
from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.ground import Conditions
from engine.flungo.innings import InningsState
from engine.flungo.orders import MatchOrders
from engine.flungo.plan import Selection
from engine.flungo.squad import Team

__all__ = ["TURNS", "MatchSetup", "MatchState", "Resolution", "Result"]

TURNS = 4


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """What a fixture is before any order: format, seed, ground, the two squads (home first),
    and whether a tie must be broken (a knockout tie goes to a Super Over).

    ``no_consecutive_overs`` is a competition's house rule: the cricket law that no bowler
    bowls two overs running, instead of the seed's "not more than 2 overs in succession".
    ``seeding`` is the two sides' league places (or knockout seeds; 1 is the top), which
    settle a Hundred tie that two Super Fives leave level.
    """

    format: Format
    seed: int
    conditions: Conditions
    home: Team
    away: Team
    knockout: bool = False
    no_consecutive_overs: bool = False
    seeding: tuple[int, int] | None = None

    @property
    def spec(self) -> FormatSpec:
        """The format's numbers (with the house rule on consecutive overs, if chosen)."""
        spec = FORMATS[self.format]
        if self.no_consecutive_overs:
            return dataclasses.replace(spec, max_consecutive=1)
        return spec

    @classmethod
    def from_json(cls, data: Any) -> MatchSetup:
        """Read a setup as :func:`engine.flungo.codec.encode` writes it."""
        setup: MatchSetup = _SETUP_FROM_JSON(data)
        return setup


@dataclass(frozen=True, slots=True)
class Result:
    """The result: ``winner`` is a team name (``None`` for a tie that stands); the margin is
    ``runs`` or ``wickets`` (0 if not won that way); ``super_over`` says a tie was broken;
    ``injuries`` are (team, player, injury points) of everyone hurt in the match;
    ``termination`` is how it was decided, as a fact (the text says it in words)."""

    winner: str | None
    runs: int
    wickets: int
    text: str
    super_over: bool = False
    injuries: tuple[tuple[str, str, int], ...] = ()
    termination: Termination = Termination.TIE

    def to_json(self) -> dict[str, Any]:
        """``{winner, margin, text}`` as in issue 2; margin is ``{"runs": n}``,
        ``{"wickets": n}`` or ``null``."""
        margin: dict[str, int] | None = None
        if self.runs:
            margin = {"runs": self.runs}
        elif self.wickets:
            margin = {"wickets": self.wickets}
        return {
            "winner": self.winner,
            "margin": margin,
            "text": self.text,
            "super_over": self.super_over,
            "termination": self.termination.value,
            "injuries": [{"team": t, "player": p, "points": n} for t, p, n in self.injuries],
        }


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match between turns. ``sides`` are (home, away) indexes everywhere; ``orders`` are
    each side's orders in force (initial orders merged with amendments); ``injuries`` are
    (team, player, injury points) of every retired-hurt player; ``subs`` (team, substitute,
    fielding, player he replaces or ``""``); ``log`` every non-ball event so far."""

    setup: MatchSetup
    selections: tuple[Selection, Selection]
    orders: tuple[MatchOrders, MatchOrders]
    toss_winner: int
    batting_first: int
    turn: int = 0
    innings: tuple[InningsState, ...] = ()
    injuries: tuple[tuple[str, str, int], ...] = ()
    subs: tuple[tuple[str, str, int, str], ...] = ()
    log: tuple[MatchEvent, ...] = ()
    result: Result | None = None

    @property
    def is_over(self) -> bool:
        """Whether every turn has been played."""
        return self.turn >= TURNS

    def outcome(self) -> Result | None:
        """The result once the second innings has closed (before that, ``None``)."""
        return self.result

    def team(self, side: int) -> Team:
        """The squad of side 0 (home) or 1 (away)."""
        return self.setup.home if side == 0 else self.setup.away

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON data (:meth:`from_json` reads it back equal)."""
        data: dict[str, Any] = encode(self)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchState:
        """Read :meth:`to_json`."""
        state: MatchState = _FROM_JSON(data)
        return state

    def to_text(self) -> str:
        """The canonical text form: compact JSON with sorted keys, one line."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> MatchState:
        """Read :meth:`to_text`."""
        return cls.from_json(json.loads(text))


@dataclass(frozen=True, slots=True)
class Resolution:
    """What resolving gives: the new state and the events, in order."""

    state: MatchState
    events: tuple[Event, ...] = field(default=())


# Read back for every stage of every match (and a setup by each match job and each replay):
# the decoders are built once, whole, at import.
_FROM_JSON = decoder(MatchState)
_SETUP_FROM_JSON = decoder(MatchSetup)
