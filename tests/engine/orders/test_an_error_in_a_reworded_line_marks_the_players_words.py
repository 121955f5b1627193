"""An error found in a line read in other words than the player's marks the player's words.

The meaning reader reads "everyone wahoo" as "all batsmen wahoo"; an error found in that
reading has no column of its own in the player's line. It used to be placed by the reading's
columns, so a 17-character reading put the carets under "T20: everyone wah", which the HTML
answer now marks as the fault. It marks the words the reading stands for, whole, instead.
"""

from __future__ import annotations

from engine.errors import Span
from tests.engine.orders.squad import read


def test_a_reworded_lines_error_spans_the_players_words_whole() -> None:
    """'everyone wahoo from ball 1' without a batting order: the error covers the line's
    words, from the first to the last, not a prefix as long as 'all batsmen wahoo'."""
    line = "everyone wahoo from ball 1"
    orders = read(line)
    errors = [e for e in orders.errors if "'all batsmen'" in e.message]
    assert len(errors) == 1, [e.message for e in orders.errors]
    assert errors[0].span == Span(1, 1, len(line) + 1)
    assert errors[0].caret().splitlines()[1] == "^" * len(line)


def test_an_error_in_the_players_own_words_keeps_its_columns() -> None:
    """A line in the reader's own words keeps the columns of the word at fault."""
    line = "bowling: Zzyzx overs 1-4"
    orders = read(line)
    assert orders.errors
    span = orders.errors[0].span
    assert span is not None
    assert line[span.column - 1 : (span.end_column or span.column) - 1].lower() == "zzyzx"
