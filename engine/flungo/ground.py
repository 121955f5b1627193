"""Pitch and weather: the seed's two D6 tables, their bowling modifiers, and named pitches.

Each fixture is played on its own named pitch (no pitch twice in a competition); the pitch's
condition and the weather are rolled when the fixture is made, and published before selection.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.flungo.squad import BowlingStyle

__all__ = ["PITCHES", "PITCH_NAMES", "WEATHERS", "Conditions", "Ground", "roll_conditions"]


@dataclass(frozen=True, slots=True)
class Ground:
    """One row of a table: its description and the modifier for each bowling style."""

    name: str
    rolls: tuple[int, ...]
    spin: int = 0
    medium: int = 0
    fast: int = 0

    def modifier(self, style: BowlingStyle) -> int:
        """The bowling modifier this condition gives a bowler of ``style``."""
        return {
            BowlingStyle.SPIN: self.spin,
            BowlingStyle.MEDIUM: self.medium,
            BowlingStyle.FAST: self.fast,
        }[style]


PITCHES: tuple[Ground, ...] = (
    Ground("Perfect batting strip", (1,), spin=-2, medium=-2, fast=-2),
    Ground("Nice pitch for batting", (2,), spin=-1, medium=-1, fast=-1),
    Ground("Average", (3, 4)),
    Ground("Cracked", (5,), spin=2),
    Ground("Uneven bouncer", (6,), fast=2, medium=1),
)

WEATHERS: tuple[Ground, ...] = (
    Ground("Normal", (1, 2, 3, 4)),
    Ground("Overcast", (5,), medium=2, fast=1),
    Ground("Hot and dry", (6,), spin=1),
)


def _by_roll(table: tuple[Ground, ...], roll: int) -> Ground:
    return next(g for g in table if roll in g.rolls)


@dataclass(frozen=True, slots=True)
class Conditions:
    """A fixture's named pitch, the pitch and weather rolls, and what they mean."""

    pitch_name: str
    pitch_roll: int
    weather_roll: int

    @property
    def pitch(self) -> Ground:
        """The pitch table's row for the roll."""
        return _by_roll(PITCHES, self.pitch_roll)

    @property
    def weather(self) -> Ground:
        """The weather table's row for the roll."""
        return _by_roll(WEATHERS, self.weather_roll)

    def modifier(self, style: BowlingStyle) -> int:
        """Pitch plus weather modifier for a bowler of ``style``."""
        known = _MODIFIERS.get((self.pitch_roll, self.weather_roll, style))
        if known is not None:  # every real roll: the two tables are read every turn
            return known
        return self.pitch.modifier(style) + self.weather.modifier(style)


# Computed once from the two tables above (constants): every pair of rolls and style.
_MODIFIERS: dict[tuple[int, int, BowlingStyle], int] = {
    (p, w, style): _by_roll(PITCHES, p).modifier(style) + _by_roll(WEATHERS, w).modifier(style)
    for p in range(1, 7)
    for w in range(1, 7)
    for style in BowlingStyle
}


def roll_conditions(dice: Dice, pitch_name: str) -> Conditions:
    """Roll the pitch (D6) then the weather (D6) for a fixture on ``pitch_name``."""
    pitch = dice.roll(6, f"pitch {pitch_name}")
    weather = dice.roll(6, f"weather at {pitch_name}")
    return Conditions(pitch_name, pitch, weather)


# Flungonian grounds, in the spirit of the seed. Competitions draw from these in order of a
# seeded shuffle so that no pitch is used twice; more are generated ("Pitch 41") if a
# competition ever needs more fixtures than there are names.
PITCH_NAMES: tuple[str, ...] = (
    "The Gunge Bowl",
    "Snodgebucket Park",
    "Chipping Sodbury Oval",
    "Dundee Cake Gardens",
    "The Protoplasm",
    "Test Match Special Ground",
    "Far Distant Meadow",
    "Replica Road",
    "The Teatime Nebula",
    "Long Leg Crater",
    "Silly Mid-Off Sands",
    "The Slips of Zog",
    "Wahoo Fields",
    "Third Man Quarry",
    "Gully Gulch",
    "The Howzat Dome",
    "Nightwatchman's Rest",
    "Duckworth Basin",
    "Googly Green",
    "The Pavilion of Echoes",
    "Leg Bye Lagoon",
    "No Ball Knoll",
    "Cover Drive Canyon",
    "Doosra Dell",
    "Yorker Yard",
    "Bouncer Bay",
    "The Umpire's Finger",
    "Maiden Over Moor",
    "Square Leg Spa",
    "The Follow-On",
    "Backward Point Plateau",
    "Mid-Wicket Marsh",
    "The Golden Duck",
    "Fine Leg Fjord",
    "Reverse Sweep Ridge",
    "The Tea Interval",
    "Hat-Trick Heath",
    "The Drinks Trolley",
    "Cosmic Celebrity Park",
    "Flungo Central",
)
