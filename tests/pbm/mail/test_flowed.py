"""RFC 3676 format=flowed decoding."""

from __future__ import annotations

import pytest

from pbm.mail.flowed import unflow

# (flowed text, delsp, expected)
ROWS = [
    ("a long \nline\n", False, "a long line\n"),
    ("hard\nbreaks\n", False, "hard\nbreaks\n"),
    ("split wo\nrd", False, "split wo\nrd"),
    ("split wo \nrd", True, "split word"),
    ("two  \nwords", True, "two words"),
    ("> quoted \n> text\n", False, "> quoted text\n"),
    (">> deep \n>> quote\n> shallow\n", False, ">> deep quote\n> shallow\n"),
    ("> soft \nunquoted\n", False, "> soft \nunquoted\n"),
    (" From here\n", False, "From here\n"),
    (" >not a quote\n", False, ">not a quote\n"),
    ("-- \nsig", False, "-- \nsig"),
    ("-- \nsig", True, "-- \nsig"),
    ("last line soft ", False, "last line soft "),
    ("", False, ""),
    (">\n", False, ">\n"),
]


@pytest.mark.parametrize(("text", "delsp", "expected"), ROWS)
def test_unflow(text: str, delsp: bool, expected: str) -> None:
    """Soft breaks join within a quote depth; stuffing and DelSp spaces go; '-- ' stays hard."""
    assert unflow(text, delsp=delsp) == expected
