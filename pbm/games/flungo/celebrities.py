"""The house teams' squads (the demo's, ``pbm gm house``): celebrities of Earth's TV and radio,
as the Flungonians would pick them ("real, imaginary, live, dead, human, animal or whatever.
The only restriction is that they must have appeared on TV or radio"). Being replicas, one
celebrity may turn out for two teams. Chosen by the competition's seed, so a demo replays."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice, seed_from_text
from engine.flungo.fixtures import shuffled
from engine.flungo.squad import Team

__all__ = ["CELEBRITIES", "HOUSE_TEAM_NAMES", "celebrity_squad"]

#: Earth's broadcasters, puppets, pets and voices, as heard on Flungo.
CELEBRITIES = (
    "Mrs Snodgebucket",
    "Brian Johnston",
    "John Arlott",
    "Henry Blofeld",
    "Aggers",
    "Blowers",
    "Richie Benaud",
    "Murray Walker",
    "Delia Smith",
    "Mary Berry",
    "David Attenborough",
    "Patrick Moore",
    "Magnus Magnusson",
    "Bruce Forsyth",
    "Terry Wogan",
    "Moira Stuart",
    "Basil Brush",
    "Zippy",
    "Bungle",
    "Orville",
    "Gordon the Gopher",
    "Roland Rat",
    "Sooty",
    "Sweep",
    "Emu",
    "Shep",
    "K9",
    "Dalek Sec",
    "Zebedee",
    "Dougal",
    "Bagpuss",
    "Parsley the Lion",
    "Captain Pugwash",
    "Postman Pat",
    "Jess the Cat",
    "Windy Miller",
    "Penelope Keith",
    "Hyacinth Bucket",
    "Del Boy",
    "Basil Fawlty",
    "Manuel",
    "Mr Bean",
    "Blackadder",
    "Baldrick",
    "Alan Partridge",
    "Dame Edna",
    "Clive James",
    "Gloria Hunniford",
    "Noel Edmonds",
    "Mr Blobby",
    "Keith Chegwin",
    "Floella Benjamin",
    "Johnny Ball",
    "Tony Hart",
    "Morph",
    "Lassie",
    "Skippy",
    "Flipper",
    "Mr Ed",
    "Champion the Wonder Horse",
)

#: Team names for the demo's house sides, in the seed's spirit.
HOUSE_TEAM_NAMES = ("Test Match Specials", "Chipping Sodbury Dundees", "Blue Peter Badgers")


def celebrity_squad(team: Team, seed: str, number: int) -> Team:
    """``team`` with its 18 players named from :data:`CELEBRITIES` (no name twice in a team)."""
    dice = Dice(seed_from_text(f"{seed}:house:{number}"))
    names = shuffled(dice, CELEBRITIES, "house names")[: len(team.players)]
    return replace(
        team, players=tuple(replace(p, name=n) for p, n in zip(team.players, names, strict=True))
    )
