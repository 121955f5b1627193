"""Nothing a sender writes can stall the reader: each line is read within a budget of LALR
parses, characters parsed and readings tried, counted by the Reader's ``Work`` (no clock),
and a line that would need more is refused saying why, never read in part or let pass.

The budget per line grows with the line's words at most; a mail's work is then linear in
its length (``bench/orders_hostile.py`` measures the time)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import (
    MAX_LINE_LENGTH,
    OrderContext,
    ParsedOrders,
    Reader,
    _reader,
    parse_orders,
)
from engine.flungo.language import _read as _read_module
from engine.flungo.language._bounds import MAX_BLANKS, MAX_UNKNOWN
from tests.engine.orders.squad import NAMES, fixture_team, opponent_team

# what a hostile line is made of: names and near misses of them, unknown words, the words
# that start a retry (conditions, "and then", commas, asides), numbers and brackets
_PIECES = [
    *NAMES[:6],
    "Jo Rooot",
    "Stoke",
    "zorp",
    "quandle",
    "wibble",
    "frim",
    "if",
    "when",
    "and then",
    "then",
    "not",
    ",",
    ";",
    ".",
    "(",
    ")",
    "aggressive",
    "wahoo",
    "bowls overs",
    "after 20 overs",
    "3 down",
    "12",
    "captain",
    "must content himself with",
]


def _read(text: str) -> tuple[ParsedOrders, _reader.Work]:
    reader = Reader()
    got = parse_orders(
        text,
        fixture_team(),
        FORMATS[Format.FIFTY],
        context=OrderContext(opponent=opponent_team()),
        reader=reader,
    )
    return got, reader.work


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=120))
def test_a_lines_work_grows_at_most_with_its_words(pieces: list[str]) -> None:
    """However a line is made, the parses run and readings tried for it are at most a few
    for each of its words and never past the line's budget; a line that spends its budget
    is refused, saying so."""
    line = " ".join(pieces)[:MAX_LINE_LENGTH]
    got, work = _read(line)
    words = len(line.split())
    assert work.lines <= 1  # a line of punctuation alone is skipped, never read
    assert work.parses <= min(8 * words + 40, _reader.LINE_PARSES + 1)
    assert work.readings <= min(4 * words + 20, _reader.LINE_READINGS + 1)
    assert work.parsed <= _reader.LINE_PARSED + len(line) + 64
    if work.readings > _reader.LINE_READINGS or work.parsed > _reader.LINE_PARSED:
        assert got.echo == () and "so it was not read" in got.errors[0].message


@pytest.mark.parametrize(
    "line",
    [
        "Root aggressive " + " ".join(f"zorp{i} Stokes" for i in range(150)),
        ", ".join(f"if {i} down quandle Stokes" for i in range(90)),
        "; ".join(f"Root {w}" for w in ["aggressive", "zorpy"] * 120),
        ". ".join(f"Stokes wibble{i}" for i in range(150)),
    ],
)
def test_the_longest_hostile_lines_are_refused_within_the_budget(line: str) -> None:
    """Lines built to start a retry per word (unknown words beside names, clause after
    clause): read within the budget, and refused with an error, nothing acted on."""
    got, work = _read(line[:MAX_LINE_LENGTH])
    assert work.parses <= _reader.LINE_PARSES + 1
    assert work.readings <= _reader.LINE_READINGS + 1
    assert got.errors
    assert got.echo == ()


def test_a_line_that_spends_its_budget_is_refused_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A line whose readings pass the budget is refused as a whole, naming why, and nothing
    of it is acted on; the next line is read as usual."""
    monkeypatch.setattr(_reader, "LINE_READINGS", 1)
    got, work = _read("Root bats aggressive, if gonzo then Stokes defensive\nStokes defensive")
    assert [e.span.line for e in got.errors if e.span] == [1]
    assert "tried as many readings of this line" in got.errors[0].message
    assert [e.line for e in got.echo] == [2]
    assert work.lines == 2


def test_too_many_unknown_words_are_refused_naming_the_count() -> None:
    """A line with an order and more words pbm does not know than it tries readings without
    is refused, saying how many and the most it tries."""
    unknown = " ".join(f"zorp{chr(97 + i)}" for i in range(MAX_UNKNOWN + 1))
    got, _ = _read(f"Root bats aggressive {unknown}")
    assert got.errors
    message = got.errors[0].message
    assert f"too many words pbm does not know ({MAX_UNKNOWN + 1}" in message
    assert got.echo == ()


def test_a_run_of_blanks_is_refused_and_a_short_one_read() -> None:
    """More than MAX_BLANKS blanks in a row inside a line refuse it, saying so (the reader's
    patterns would try every place to split the run); as many as that are read."""
    got, _ = _read("Root" + " " * (MAX_BLANKS + 1) + "aggressive")
    assert got.errors and "blanks in a row" in got.errors[0].message
    got, _ = _read("Root" + " " * MAX_BLANKS + "aggressive")
    assert "blanks in a row" not in " ".join(e.message for e in got.errors)


def test_a_line_over_the_longest_is_refused_with_its_length() -> None:
    """A line longer than MAX_LINE_LENGTH is not read, and the answer says so on its line,
    with its length and the most pbm reads."""
    got, work = _read("Stokes defensive\n" + "Root aggressive " * 200)
    (err,) = got.errors
    assert err.span is not None and err.span.line == 2
    assert f"({len('Root aggressive ' * 200)} characters; at most {MAX_LINE_LENGTH})" in err.message
    assert "not read" in err.message
    assert work.parses <= 3


@pytest.mark.parametrize("budget", ["MAIL_PARSED", "MAIL_TEXT"])
def test_a_mail_that_spends_its_budget_says_which_lines_were_not_read(
    monkeypatch: pytest.MonkeyPatch, budget: str
) -> None:
    """Once a mail's lines have parsed as much as one mail may (or are as long as one mail's
    lines may be), the line where it ran out and every line after it are not read, and the
    answer says so on that line, with how many lines after it; the lines before stand."""
    lines = ["Root aggressive", "Stokes defensive", "Tom Smith wahoo", "Jones normal"]
    _, work = _read("\n".join(lines[:2]))
    spent = work.parsed if budget == "MAIL_PARSED" else len(lines[0]) + len(lines[1])
    monkeypatch.setattr(_read_module, budget, spent)
    got, _ = _read("\n".join(lines))
    assert [e.line for e in got.echo] == [1, 2]
    (err,) = got.errors
    assert err.span is not None and err.span.line == 3
    assert "this line and the 1 after it were not read" in err.message


def test_a_run_of_names_alike_in_their_start_is_answered() -> None:
    """ "Joe Root" forty times and a word pbm does not know, with Joel Garner among the
    opponents: every "joe" could start either name, and the names' pattern once tried both
    at each (2^40 ways, years) before refusing the clause; it is answered, the word named."""
    got, _ = _read("Joe Root " * 40 + "zorp")
    assert got.errors
    assert got.echo == ()
