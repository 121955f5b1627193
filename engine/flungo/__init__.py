"""Flungo Cricket (Cosmic Celebrity Cricket): squads, formats, orders and the match engine."""

from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.squad import BowlingStyle, Player, Role, Team, generate_squad

__all__ = [
    "FORMATS",
    "BowlingStyle",
    "Format",
    "FormatSpec",
    "Player",
    "Role",
    "Team",
    "generate_squad",
]
