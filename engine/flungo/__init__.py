"""Flungo Cricket (Cosmic Celebrity Cricket): squads, formats, orders and the match engine."""

from engine.flungo.cricsheet import to_cricsheet
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
from engine.flungo.scorecard import ball_log_text, cards, match_report, scorecard_text
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
    "ball_log_text",
    "cards",
    "default_orders",
    "default_xi",
    "generate_squad",
    "match_report",
    "play_match",
    "play_turn",
    "scorecard_text",
    "start_match",
    "to_cricsheet",
]
