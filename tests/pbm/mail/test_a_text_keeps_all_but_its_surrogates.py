"""Text pbm writes into mail keeps every character but the surrogates, which no encoding
can carry: each becomes a replacement, as the codec's own "replace" writes it."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from pbm.mail.headers import valid_text

_SURROGATE = re.compile(r"[\ud800-\udfff]")


@given(
    st.lists(
        st.text() | st.sampled_from(["\ud800", "\udcff", "\udfff", "é", "—", "\U0001f600"]),
        max_size=8,
    ).map("".join)
)
def test_only_the_surrogates_of_a_text_are_replaced(text: str) -> None:
    """``valid_text`` gives a text without a surrogate back as it is (the same object), and
    one with any the codec's replacement of each; either way the result encodes as UTF-8."""
    out = valid_text(text)
    if _SURROGATE.search(text):
        assert out == text.encode("utf-8", "replace").decode("utf-8")
    else:
        assert out is text
    out.encode("utf-8")
