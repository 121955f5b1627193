"""A line of two styles in turn ("defensive until 40 then aggressive") whose subject is a group
pbm reads ("everyone left") keeps the group in both steps; with a group word the reading does
not name, it is never read as all batsmen (it dropped "left" silently)."""

from __future__ import annotations

import pytest

from tests.engine.orders.squad import read


@pytest.mark.parametrize(
    "line",
    [
        "after 10 overs: everyone left defensive until 40 then aggressive",
        "5th wkt goes before 30 overs -> everyone left defensive until 40 then aggressive",
        "after 10 overs: everybody left defensive until 40 then aggressive",
        "when the 6th wicket falls: whoever is left defensive until 45 then wahoo",
    ],
)
def test_those_left_stay_the_remaining_batsmen_in_both_steps(line: str) -> None:
    """Both steps are the remaining batsmen's, or the line is not acted on: never all."""
    got = read(line)
    text = "\n".join(e.text for e in got.echo)
    assert "all batsmen" not in text, text
    assert got.errors or text.count("the remaining batsmen") == 2, (text, got.errors)


def test_all_of_them_stays_all() -> None:
    """With no group word the subject is everyone, as before."""
    got = read("after 10 overs: everyone defensive until 40 then aggressive")
    assert [e.text for e in got.echo] == [
        "after 10 overs: all batsmen bat defensive; but after 40 overs: all batsmen bat aggressive"
    ]
