"""The fixture squad the order tests and the player's guide examples are read against."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.squad import Team, generate_squad

NAMES = (
    "Joe Root",
    "Ben Stokes",
    "Tom Smith",
    "Steve Smith",
    "Jones",
    "Ant and Dec",
    "Wilson",
    "Taylor",
    "Freddie Flintoff",
    "Green",
    "White",
    "Black",
    "Grey",
    "Shane Warne",
    "Jimmy Anderson",
    "Moss",
    "Stone",
    "Rock",
)

# The usual XI of the examples: everyone but Black, Grey, Moss, Stone and Rock... and two more.
XI = (
    "Joe Root",
    "Ben Stokes",
    "Tom Smith",
    "Jones",
    "Ant and Dec",
    "Wilson",
    "Freddie Flintoff",
    "Green",
    "White",
    "Shane Warne",
    "Jimmy Anderson",
)


def fixture_team() -> Team:
    """The Gungers: a dice-made squad with fixed names; Rock has 2 injury points, Moss fields 6."""
    team = generate_squad(Dice(1), "Gungers")
    players = []
    for player, name in zip(team.players, NAMES, strict=True):
        p = replace(player, name=name)
        if name == "Rock":
            p = replace(p, injury_points=2)
        if name == "Moss":
            p = replace(p, fielding=6)
        if name == "Green":
            p = replace(p, fielding=3)
        players.append(p)
    return replace(team, players=tuple(players))


def opponent_team() -> Team:
    """The Blobs: the other side, for the bowling side's reviews and "when X is out"."""
    team = generate_squad(Dice(2), "Blobs")
    names = ("Viv Richards", "Brian Lara", "Garfield Sobers", "Clive Lloyd", "Joel Garner")
    players = tuple(
        replace(p, name=names[i]) if i < len(names) else p for i, p in enumerate(team.players)
    )
    return replace(team, players=players)


def read(text: str) -> ParsedOrders:
    """``text`` read for the Gungers (:func:`fixture_team`) in a 50-over match against the
    Blobs (:func:`opponent_team`), as the corpus's lines are read."""
    context = OrderContext(opponent=opponent_team())
    return parse_orders(text, fixture_team(), FORMATS[Format.FIFTY], context=context)
