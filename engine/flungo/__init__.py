"""Flungo Cricket (Cosmic Celebrity Cricket): squads, formats, orders and the match engine."""

from engine.flungo.events import Ball, Event, EventKind, MatchEvent
from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.innings import InningsState
from engine.flungo.match import (
    TURNS,
    MatchSetup,
    MatchState,
    Resolution,
    Result,
    play_match,
    play_turn,
    start_match,
)
from engine.flungo.plan import Selection, default_orders, default_xi
from engine.flungo.squad import BowlingStyle, Player, Role, Team, generate_squad

__all__ = [
    "FORMATS",
    "TURNS",
    "Ball",
    "BowlingStyle",
    "Event",
    "EventKind",
    "Format",
    "FormatSpec",
    "InningsState",
    "MatchEvent",
    "MatchSetup",
    "MatchState",
    "Player",
    "Resolution",
    "Result",
    "Role",
    "Selection",
    "Team",
    "default_orders",
    "default_xi",
    "generate_squad",
    "play_match",
    "play_turn",
    "start_match",
]
