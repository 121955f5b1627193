"""RFC 3676 format=flowed: decoding what players send, encoding what pbm sends."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pbm.mail.flowed import as_fixed, flow, unflow
from pbm.outbound.render import templates_dir
from pbm.outbound.render.renderer import Renderer

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


SOFT = "\x1f"
# lines as a template renders them: no trailing space (flow() strips a hard line's), some
# marked soft, some starting with what must be stuffed
_line = st.builds(
    lambda lead, words, soft: (
        (lead + " ".join(words)).rstrip(" ") + (SOFT if soft and words else "")
    ),
    st.sampled_from(["", " ", "  ", ">", "> ", "From "]),
    st.lists(st.text("abcxyz->é", min_size=1, max_size=8), max_size=6),
    st.booleans(),
)


@given(st.lists(_line, max_size=12))
@example(["--" + SOFT, "abc"])  # found by hypothesis: a soft "--" went out as "-- "
def test_flowed_text_reads_back_as_written_and_joins_only_its_soft_lines(
    lines: list[str],
) -> None:
    """What pbm flows, a reader that does not flow shows as written (less the marking
    spaces: :func:`as_fixed`), and a flowing reader (:func:`unflow`) joins each soft line to
    the next and nothing else: a hard line never ends in a space, every line that starts
    with a space, ">" or "From " is stuffed."""
    text = "\n".join(lines)
    sent = flow(text, SOFT)
    written = text.replace(SOFT, "")
    assert as_fixed(sent) == written
    assert "-- " not in sent.split("\n") or "-- " in text.split("\n")
    for line in sent.split("\n"):
        assert not line.startswith((">", "From ")), line
    # a flowing reader: soft lines joined, in order, stuffing gone
    expected, pending = [], ""
    for line in text.split("\n"):
        # a soft "--" stays hard: "-- " would be the signature's separator
        if line.endswith(SOFT) and line.removesuffix(SOFT) != "--":
            pending += line.removesuffix(SOFT) + " "
        else:
            expected.append(pending + line.removesuffix(SOFT))
            pending = ""
    if pending:
        expected.append(pending)
    assert unflow(sent) == "\n".join(expected)  # stuffed, a ">" line is no quote


def test_a_block_of_fixed_lines_is_stuffed_together() -> None:
    """Where one line of a block needs stuffing, the block's other lines get it too, so a
    reader that does not flow shows a caret under its column and a heading over its rows;
    a paragraph's lines, its last one too, are left out of the block below it."""
    error = "TEAM NAME From Here\n           ^^^^"
    assert flow(error, SOFT) == " TEAM NAME From Here\n            ^^^^"
    table = "Slot  Player\n   1  Zippy\n\nafter"
    assert flow(table, SOFT) == " Slot  Player\n    1  Zippy\n\nafter"
    paragraph = f"What pbm will play{SOFT}\nif you send nothing:\n   xi: Zippy"
    assert flow(paragraph, SOFT) == "What pbm will play \nif you send nothing:\n    xi: Zippy"
    assert flow("plain\nlines", SOFT) == "plain\nlines"


@pytest.mark.slow
@given(st.lists(_line, min_size=1, max_size=12))
def test_every_fixed_block_is_stuffed_whole_or_not_at_all(lines: list[str]) -> None:
    """In what pbm sends, each run of fixed lines (not a paragraph's) starts all with the
    stuffing space or none of it does, whatever the lines."""
    text = "\n".join(lines)
    sent = flow(text, SOFT).split("\n")
    in_paragraph = [
        line.endswith(SOFT) or (i > 0 and lines[i - 1].endswith(SOFT))
        for i, line in enumerate(lines)
    ]
    block: list[str] = []
    for line, para in [*zip(sent, in_paragraph, strict=True), ("", True)]:
        if para or not line:
            assert len({b.startswith(" ") for b in block}) <= 1, block
            block = []
        else:
            block.append(line)


def test_a_marker_anywhere_but_a_line_end_is_dropped() -> None:
    """Only a marker at a line's end makes a soft break; one anywhere else is taken out."""
    assert flow(f"a{SOFT}b\nc{SOFT}{SOFT}\nd", SOFT) == "ab\nc \nd"


def test_a_signature_separator_keeps_its_space() -> None:
    """``-- `` stays ``-- ``: readers find the signature by it, and it is never a soft break."""
    assert flow("text\n-- \nsig", SOFT) == "text\n-- \nsig"
    assert as_fixed("text\n-- \nsig") == "text\n-- \nsig"


@given(st.lists(_line | st.sampled_from(["", SOFT, " ", "--" + SOFT, "-- "]), max_size=16))
def test_a_reply_flowed_a_paragraph_at_a_time_is_flowed_whole(lines: list[str]) -> None:
    """The renderer flows each paragraph between blank lines once and keeps it; put
    together, the paragraphs are exactly the whole text flowed, whatever the lines, twice
    over (the second time from what it kept)."""
    text = "\n".join(lines)
    r = Renderer(templates_dir())
    assert r.flowed(text, SOFT) == flow(text, SOFT)
    assert r.flowed(text, SOFT) == flow(text, SOFT)
