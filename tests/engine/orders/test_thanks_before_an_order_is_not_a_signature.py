"""A line that starts with thanks is a sign-off only when it is short: a longer one that names
a squad member goes on to say something, and is read (docs/rules/orders-unknown-words.md)."""

from __future__ import annotations

import pytest

from tests.engine.orders.squad import read


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Thank you GM for a lovely game, and please don't forget - Jimmy bowls the "
            "fifteenth over",
            "Jimmy Anderson bowls over 15",
        ),
        (
            "Thanks for the scorecard, and remember - Stokes bats aggressive",
            "Ben Stokes bats aggressive",
        ),
        ("Cheers for sorting the fixtures mate; Root keeps wicket", "wicketkeeper: Joe Root"),
    ],
)
def test_a_long_thanks_that_names_a_player_is_read(line: str, echo: str) -> None:
    """The order after the thanks is read, never dropped as a signature."""
    got = read(line)
    assert [e.text for e in got.echo] == [echo], (got.errors, got.chatter)


def test_a_long_thanks_that_is_refused_is_said_not_dropped() -> None:
    """A thanks line naming a player whose order pbm cannot read is refused with its word,
    not passed over silently as chatter (it used to be, being taken for a sign-off)."""
    got = read("thx in advance; Stone max 8 ov pls, he was leaky last time")
    assert got.echo == ()
    assert got.errors
    assert got.chatter == ()


@pytest.mark.parametrize(
    "text",
    [
        "Thanks,\nDave",
        "Cheers, Dave Smith",
        "Many thanks for all your work this season, it is much appreciated",
        "Thank you, as ever, for your patience with my orders",
        "Best of luck to the Blobs too, Viv, Lara and Sobers, it will be a cracker",
        "Cheers GM, anything wrong ring me at the Black Bull, Dave",
    ],
)
def test_a_sign_off_and_a_thanks_with_no_player_stay_chatter(text: str) -> None:
    """Short sign-offs, and long thanks that name none of our squad with a word of an
    order (the other side's names, a pub called the Black Bull), cost nothing."""
    got = read(text)
    assert got.echo == () and got.errors == () and got.chatter
