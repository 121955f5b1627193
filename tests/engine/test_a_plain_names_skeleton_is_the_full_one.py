"""A name in plain ASCII takes a short way to its TS #39 skeleton (no normalisation, no
invisible characters to drop): the skeleton is the one every step would make."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from engine.lookalike import _skeleton, lookalike_key, skeleton


@given(st.text(alphabet=string.printable, max_size=40))
def test_an_ascii_text_has_the_skeleton_every_step_makes(text: str) -> None:
    """ASCII text (letters, digits, punctuation, spaces, controls) skeletons as TS #39's
    full steps do, and so does any other text."""
    assert skeleton(text) == _skeleton(text)


@given(st.text(max_size=20))
def test_any_text_has_the_skeleton_every_step_makes(text: str) -> None:
    """Text of any characters takes the full way and gets its skeleton."""
    assert skeleton(text) == _skeleton(text)


def test_plain_names_that_look_alike_still_share_a_key() -> None:
    """'I' and 'l', '0' and 'O' look alike in plain ASCII too: the short way
    keeps their confusables (it maps them by Unicode's prototypes)."""
    assert skeleton("Il") == skeleton("ll")
    assert lookalike_key("B0B")[0] == lookalike_key("BOB")[0]
    assert lookalike_key("Rock")[1] == lookalike_key("ROCK")[1]
    assert skeleton("Root") != skeleton("Boot")
