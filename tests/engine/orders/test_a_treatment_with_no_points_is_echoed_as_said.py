"""A treatment that names no points ("treat Rock") is read before the checks give it all the
player's injury points; what is echoed of it meanwhile (the readings a line's two wordings are
compared by) says it as written, never "treat Rock: None"."""

from __future__ import annotations

from engine.flungo.language import canonical
from engine.flungo.language._canonical import treat_line
from tests.engine.orders.squad import read


def test_a_treatment_with_no_points_is_echoed_without_none() -> None:
    """The echo of a treatment with no points named is the words a player would write."""
    assert treat_line("Rock", None) == "treat Rock"
    assert treat_line("Rock", 1) == "treat Rock: 1"


def test_the_echo_reads_back_as_all_the_injury_points() -> None:
    """ "treat Rock", read, is Rock treated for both his injury points, as the corpus labels
    the fan's "thx gm also rock treatment pls like i said"."""
    said = read(treat_line("Rock", None))
    assert said.ok, said.errors
    assert "treat Rock: 2" in canonical(said.orders).splitlines()
