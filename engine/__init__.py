"""pbm's game rules: pure, deterministic, auditable. No I/O, no clock, no global random.

Randomness comes only from :class:`engine.dice.Dice`, passed in. This package never imports
``pbm``.
"""

from engine.dice import Dice, Roll, seed_from_text
from engine.errors import AmbiguousOrder, EngineError, IllegalOrder, InvalidOrder, OrderError, Span

__all__ = [
    "AmbiguousOrder",
    "Dice",
    "EngineError",
    "IllegalOrder",
    "InvalidOrder",
    "OrderError",
    "Roll",
    "Span",
    "seed_from_text",
]
