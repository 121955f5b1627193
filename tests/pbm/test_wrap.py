"""The wrap filters: mail text within 78 columns, broken between words, never inside a name."""

from __future__ import annotations

import textwrap
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.language import canonical, parse_orders
from engine.flungo.orders import MatchOrders, Orders
from engine.flungo.squad import Team
from pbm.outbound.render import wrap as wrapping
from pbm.outbound.render.env import environment
from pbm.outbound.render.wrap import WIDTH, nobreak, wrap, wrap_lines, wrap_list, wrap_orders
from tests.engine.orders.squad import fixture_team
from tests.pbm.helpers import LONG_NAMES as NAMES

XI = NAMES[:11]


def _team() -> Team:
    team = fixture_team()
    players = tuple(replace(p, name=n) for p, n in zip(team.players, NAMES, strict=True))
    return replace(team, players=players)


def test_a_list_hangs_under_its_first_entry_and_breaks_after_commas() -> None:
    """A long ``label: a, b, c`` keeps every line within 78 columns, starts each line after
    the first under the first entry, ends each but the last with its comma, and breaks no
    entry: the lines joined give the list back."""
    line = "xi: " + ", ".join(XI)
    lines = wrap_list(line, 2).splitlines()
    assert len(lines) > 1 and max(len(x) for x in lines) <= WIDTH
    assert lines[0].startswith("  xi: Brian Cant, ")
    assert all(x.startswith(" " * 6) and x[6] != " " for x in lines[1:])
    assert all(x.endswith(",") for x in lines[:-1])
    entries = [e.strip() for x in lines for e in x.removeprefix("  xi: ").split(",") if e.strip()]
    assert entries == list(XI)


def test_a_list_that_fits_is_one_line() -> None:
    """A list that fits within the width is left on its one line, indented."""
    assert wrap_list("captain: Zippy, Bungle", 2) == "  captain: Zippy, Bungle"


def test_a_word_longer_than_the_width_stays_whole() -> None:
    """A single word longer than the width is never cut: it stands whole on its own line,
    in prose and in a list alike."""
    word = "Llanfairpwllgwyngyll" * 5
    assert word in wrap("the ground at " + word + " is damp", 2).splitlines()[1]
    assert any(
        x.strip() == word + "," for x in wrap_list("grounds: " + word + ", Lords").split("\n")
    )


def test_prose_keeps_its_indent_and_the_names_it_is_told_to_keep() -> None:
    """Prose is reflowed at word boundaries: the first line at the indent, the others at
    the indent plus the hang, a phrase given in ``keep`` (or marked with ``nobreak``) never
    split, a blank line still parting paragraphs, a final line break kept."""
    text = (
        "if we are 50 for 3 after 10 overs and Mrs Snodgebucket is out: all batsmen bat "
        "defensive, and Geoffrey Hayes bowls the rest\n\nsecond paragraph\n"
    )
    out = wrap(text, 2, 4, keep=NAMES)
    lines = out.splitlines()
    assert out.endswith("\n") and "" in lines and lines[-1] == "  second paragraph"
    assert lines[0].startswith("  if ") and all(x.startswith("      ") for x in lines[1:2])
    assert max(len(x) for x in lines) <= WIDTH
    flat = " ".join(out.split())
    assert "Mrs Snodgebucket" in flat and "Geoffrey Hayes" in flat
    assert all(x.strip() not in ("Mrs", "Snodgebucket") for x in lines)
    for n in range(20, 60):
        # wherever the break falls, the marked name is on one line, printed with spaces
        cut = wrap("x " * n + nobreak("Mrs Snodgebucket") + " y", width=40)
        assert "\u00a0" not in cut and any("Mrs Snodgebucket" in x for x in cut.splitlines())


def test_long_orders_read_back_as_sent() -> None:
    """A long XI and batting order become a heading with the names under it, no line ending
    in a comma, all within 78 columns; the order language reads the lines back as the same
    orders, so a player can still copy and send them back. A short order is only indented."""
    team = _team()
    orders = Orders(match=MatchOrders(xi=XI, captain="Zippy", batting_order=XI))
    text = wrap_orders(canonical(orders), 2)
    lines = text.splitlines()
    assert max(len(x) for x in lines) <= WIDTH
    assert "  xi:" in lines and "  batting order:" in lines and "  captain: Zippy" in lines
    assert not any(x.rstrip().endswith(",") for x in lines)
    parsed = parse_orders(text, team)
    assert not parsed.errors
    assert parsed.orders.match is not None
    assert parsed.orders.match.xi == XI and parsed.orders.match.batting_order == XI


def test_a_long_order_of_another_kind_is_wrapped_under_itself() -> None:
    """An order with no form that spans lines is wrapped at word boundaries, the lines after
    its first further in than the orders, a name of the squad never split."""
    line = (
        "if we are 50 for 3 after 10 overs and Mrs Snodgebucket is out: all batsmen bat defensive"
    )
    lines = wrap_orders(line, 2, keep=NAMES).splitlines()
    assert len(lines) == 2 and lines[1].startswith("      ")
    assert max(len(x) for x in lines) <= WIDTH
    assert any("Mrs Snodgebucket" in x for x in lines)


def test_laid_out_lines_keep_their_columns() -> None:
    """``wrap_lines`` leaves a line that fits as it was (a table keeps its columns), wraps a
    longer one under its own indent, after its commas when every part fits a line, and
    keeps a 64-character hash whole."""
    table = "  Batsman       How out         R    B\n  Zippy         not out        18   53"
    did_not_bat = "  Did not bat: " + ", ".join(NAMES[2:11])
    seed = "Gully Gulch: pitch Cracked (roll 5), weather Normal (roll 2); SHA-256 " + "a" * 64
    out = wrap_lines(f"{table}\n{did_not_bat}\n{seed}\n")
    lines = out.splitlines()
    assert out.startswith(table + "\n") and out.endswith("\n")
    assert max(len(x) for x in lines) <= WIDTH
    assert lines[2].startswith("  Did not bat: ") and lines[3].startswith("      ")
    assert lines[2].endswith(",")
    assert [e.strip() for x in lines[2:4] for e in x.split(",") if e.strip()] == [
        "Did not bat: " + NAMES[2],
        *NAMES[3:11],
    ]
    assert "a" * 64 in lines[-1]


def test_the_mail_environment_has_the_filters() -> None:
    """The filters are registered where every mail template is rendered."""
    env = environment()
    out = env.from_string("{{ ('xi: ' ~ names|join(', '))|wrap_list(2) }}").render(names=XI)
    assert max(len(x) for x in out.splitlines()) <= WIDTH and len(out.splitlines()) == 2
    block = env.from_string("{% filter wrap(hang=2) %}{{ text }}\n{% endfilter %}").render(
        text="word " * 40
    )
    assert block.endswith("\n") and block.splitlines()[1].startswith("  word")


def test_a_list_under_a_long_label_starts_its_lines_four_in() -> None:
    """Under a 40-character label a 40-character name would not fit below the first entry:
    the lines after the first start 4 in instead, and an entry too long for any line is
    broken between words, the names given in ``keep`` whole."""
    team = "The Gungeworth Gloopers of Lower Slaught"
    long = "Sir Bartholomew Featherstonehaugh-Smythe"
    xi = (*XI[:10], long)
    line = f"{team}: " + ", ".join(xi) + f" (captain {long}, keeper Roy Castle)"
    lines = wrap_list(line, 2, keep=(*NAMES, long)).splitlines()
    assert max(len(x) for x in lines) <= WIDTH
    assert lines[0].startswith(f"  {team}: Brian Cant,")
    assert all(x.startswith("      ") and x[6] != " " for x in lines[1:])
    assert sum(x.count(long) for x in lines) == 2  # as the last of the XI and as captain
    assert " ".join(" ".join(lines).split()) == line


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="ab c-\u00a0\t\n\u3000", max_size=40),
    first=st.integers(0, 4),
    rest=st.integers(0, 6),
    width=st.integers(5, 40),
)
def test_a_line_that_fits_is_what_textwrap_would_make_of_it(
    text: str, first: int, rest: int, width: int
) -> None:
    """The short cut for text that fits on its line gives what textwrap gives, glue and all
    (spaces, no-break spaces, tabs, line breaks and other whitespace at either end)."""
    got = wrapping._fill(text, " " * first, " " * rest, width)
    want = textwrap.wrap(
        text,
        width,
        initial_indent=" " * first,
        subsequent_indent=" " * rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    assert list(got) == [line.replace("\u00a0", " ") for line in want]
