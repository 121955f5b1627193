"""A seat's standing text is read once and kept, but never kept across a change of squad."""

from __future__ import annotations

from dataclasses import replace

from pbm.flungo.standing import read_standing
from tests.engine.orders.squad import fixture_team


def test_a_standing_text_is_read_once_per_squad() -> None:
    """The same text, squad and format give the very same reading; renaming a player gives a
    new reading, in which the old name is no longer a squad member."""
    team = fixture_team()
    text = "captain: Joe Root"
    first = read_standing(text, team, "50")
    assert first.errors == () and first.orders.match is not None
    assert read_standing(text, team, "50") is first
    players = tuple(
        replace(p, name="Jo Rooted") if p.name == "Joe Root" else p for p in team.players
    )
    renamed = read_standing(text, replace(team, players=players), "50")
    assert renamed is not first and renamed.errors != ()
