"""The shipped parser tables and the lean LALR driver: made from this grammar, and parsing
every line of the corpus exactly as lark's own parser built from orders.lark does."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

from engine.dice import Dice
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, _grammar, _transform, _tries, parse_orders
from engine.flungo.language._drafts import NumberError
from engine.flungo.language._lalr import FastParser
from engine.flungo.squad import generate_squad
from tests.engine.orders.squad import fixture_team, opponent_team
from tests.engine.orders.test_fuzz import SAMPLE

HERE = Path(__file__).parent
_META = (
    "empty",
    "line",
    "column",
    "start_pos",
    "end_line",
    "end_column",
    "end_pos",
    "container_line",
    "container_column",
    "container_start_pos",
    "container_end_line",
    "container_end_column",
    "container_end_pos",
)


@pytest.fixture(scope="module")
def fresh() -> Lark:
    """lark's parser built from orders.lark now, not from any table on disk."""
    return _grammar.build_parser()


@pytest.fixture(scope="module")
def corpus_reads() -> list[tuple[str, str, tuple[tuple[int, str], ...]]]:
    """Every masked line, start rule and names masked in it the corpus of whole emails and
    errors parses (a line read, or a line parsed to explain its error)."""
    seen: set[tuple[str, str, tuple[tuple[int, str], ...]]] = set()
    inner = _grammar._parsed.__wrapped__
    mp = pytest.MonkeyPatch()

    def record(masked: str, start: str) -> Any:
        seen.add((masked, start, ()))
        return inner(masked, start)

    def record_read(masked: str, start: str, found: dict[int, str]) -> Any:
        seen.add((masked, start, tuple(sorted(found.items()))))
        return _transform.said(masked, start, found)

    mp.setattr(_grammar, "_parsed", record)
    mp.setattr(_tries, "read_line", record_read)
    try:
        context = OrderContext(opponent=opponent_team())
        emails = tomllib.loads((HERE / "email_examples.toml").read_text("utf-8"))["email"]
        for email in emails:
            team = fixture_team()
            if email["squad"] == "placeholders":
                team = generate_squad(Dice(1), "Gunge Giants")
            fmt = FORMATS[Format(email["format"])]
            echo = parse_orders(email["text"], team, fmt, context=context).echo_text()
            parse_orders(echo, team, fmt, context=context)
        errors = tomllib.loads((HERE / "error_examples.toml").read_text("utf-8"))
        for case in errors["example"]:
            fmt = FORMATS[Format(case["format"])]
            parse_orders(case["text"], fixture_team(), fmt, context=context)
        parse_orders(SAMPLE, fixture_team(), FORMATS[Format.FIFTY])
    finally:
        mp.undo()
    return sorted(seen)


@pytest.fixture(scope="module")
def corpus_lines(
    corpus_reads: list[tuple[str, str, tuple[tuple[int, str], ...]]],
) -> list[tuple[str, str]]:
    """Every masked line (and start rule) the corpus of whole emails and errors parses."""
    return sorted({(masked, start) for masked, start, _ in corpus_reads})


def _shape(tree: Tree[Token]) -> list[Any]:
    nodes = [(str(t.data), [getattr(t.meta, k, None) for k in _META]) for t in tree.iter_subtrees()]
    tokens = [
        (t.type, str(t), t.start_pos, t.end_pos, t.line, t.column, t.end_line, t.end_column)
        for t in tree.scan_values(lambda v: isinstance(v, Token))
    ]
    return [nodes, tokens]


def _break(exc: UnexpectedInput, text: str) -> int:
    if isinstance(exc, UnexpectedToken):
        return len(text) if exc.token.type == "$END" else exc.token.start_pos or 0
    return max(getattr(exc, "pos_in_stream", None) or 0, 0)


def test_the_shipped_tables_are_made_from_this_grammar() -> None:
    """orders.tables matches orders.lark and lark's version; run scripts/build-order-tables
    after changing either."""
    assert _grammar.shipped_parser() is not None


@pytest.mark.slow
def test_the_shipped_tables_parse_as_a_fresh_build(
    fresh: Lark, corpus_lines: list[tuple[str, str]]
) -> None:
    """Each corpus line gets from the shipped driver the very tree (rules, tokens, positions)
    a freshly built lark gives, and a line lark rejects breaks where lark's error says."""
    shipped = _grammar.shipped_parser()
    assert shipped is not None
    parsed = broken = 0
    for text, start in corpus_lines:
        got = shipped.fast.parse(text, start)
        try:
            want = fresh.parse(text, start=start)
        except UnexpectedInput as exc:
            assert got == _break(exc, text), text
            broken += 1
            continue
        assert isinstance(got, Tree), text
        assert got == want and _shape(got) == _shape(want), text
        parsed += 1
    assert parsed > 300 and broken > 20


# A fresh build of the tables (seconds of CPU); the loop keeps the shipped tables' checks.
@pytest.mark.slow
def test_a_driver_made_from_a_fresh_build_parses_the_same(
    fresh: Lark, corpus_lines: list[tuple[str, str]]
) -> None:
    """The driver made in-process from a built parser (no shipped file) agrees with lark."""
    driver = FastParser(fresh)
    for text, start in corpus_lines[:150]:
        got = driver.parse(text, start)
        try:
            want = fresh.parse(text, start=start)
        except UnexpectedInput as exc:
            assert got == _break(exc, text), text
            continue
        assert isinstance(got, Tree) and _shape(got) == _shape(want), text


def test_reading_as_the_parser_reduces_says_what_walking_the_tree_says(
    corpus_reads: list[tuple[str, str, tuple[tuple[int, str], ...]]],
) -> None:
    """Each corpus line read in one pass (the transformer's methods applied as the parser
    reduces) gives the draft, the bad number or the place it breaks that parsing the tree and
    walking it gives; so do lines made to break a method after it, or before the break."""
    seen = {"draft": 0, "number": 0, "broken": 0}
    lines = [*corpus_reads, ("treat Root 2.5", "start", ()), ("Root 3-1 x", "start", ())]
    lines += [("Root bowls overs 9-2", "start", ()), ("Root bowls overs 9-2 and", "start", ())]
    for masked, start, found in lines:
        got = _transform.said(masked, start, dict(found))
        tree = _grammar.parsed(masked, start)
        if isinstance(tree, int):
            assert got == tree, masked
            seen["broken"] += 1
            continue
        try:
            want: Any = _transform.walk(tree, masked, dict(found))
        except NumberError as exc:
            assert isinstance(got, NumberError), masked
            assert (str(got), got.start, got.end) == (str(exc), exc.start, exc.end), masked
            seen["number"] += 1
            continue
        assert type(got) is type(want) and got == want, masked
        seen["draft"] += 1
    assert seen["draft"] > 300 and seen["broken"] > 20 and seen["number"] >= 2, seen


@pytest.mark.slow  # a fresh build too (the fixture above)
def test_the_shipped_words_and_errors_are_a_fresh_builds(fresh: Lark) -> None:
    """The grammar's words and first words come with the tables, and the lark parser packed
    beside them explains a bad line as a fresh build does."""
    shipped = _grammar.shipped_parser()
    assert shipped is not None
    made = _grammar.make_tables(fresh)
    assert shipped.keywords == made.keywords and "wahoo" in shipped.keywords
    assert shipped.starters == made.starters and "captain" in shipped.starters
    for text in ("toss: sideways", "captain", "xi: Root, , Stokes", "Root bowls overs 3 to"):
        with pytest.raises(UnexpectedInput) as ours:
            shipped.lark().parse(text, start="start")
        with pytest.raises(UnexpectedInput) as theirs:
            fresh.parse(text, start="start")
        a, b = ours.value, theirs.value
        assert type(a) is type(b) and _break(a, text) == _break(b, text)
        assert set(getattr(a, "expected", ())) == set(getattr(b, "expected", ()))
        assert set(getattr(a, "allowed", ())) == set(getattr(b, "allowed", ()))


def test_a_line_with_a_newline_is_refused_by_the_driver() -> None:
    """The driver reads one line (its tokens' line numbers are 1); the grammar module gives
    such text to lark instead, which stops at the line break (no mail line has one)."""
    with pytest.raises(ValueError):
        _grammar.fast_parser().parse("toss:\nbat", "start")
    assert _grammar.break_at("toss:\nbat") == len("toss:")


def test_hostile_characters_and_words_do_not_grow_the_lexer_without_bound() -> None:
    """Thousands of distinct characters and words (a hostile mail, or years of names) leave
    each state's remembered characters and words capped."""
    from engine.flungo.language import _lalr

    driver = _grammar.fast_parser()
    for i in range(_lalr._REMEMBERED + 500):
        driver.parse(f"captain {chr(0x4E00 + i)}", "start")
        driver.parse(f"captain Zq{i:05d}x is", "start")
    lexers = set(driver._lexers.values())
    assert all(len(lx.by_char) <= _lalr._REMEMBERED for lx in lexers)
    assert all(len(seen) <= _lalr._REMEMBERED for lx in lexers for _, seen in lx.retype.values())
    assert isinstance(driver.parse("captain Root", "start"), Tree)


def test_a_place_nested_thousands_deep_has_its_span() -> None:
    """A list rule nests each item's place in the list's, so a long line's list is deep: its
    span (where a clause starts) is found without running out of stack."""
    from engine.flungo.language._lalr import span

    place: Any = [Token("NAMEREF", "x", start_pos=7, end_pos=8)]
    for _ in range(5000):
        place = [[], place, []]
    place = [place, Token("NUMBER", "9", start_pos=20, end_pos=21), [[]]]
    assert span(place) == (7, 21)
    assert span([[], [[]]]) is None


def test_the_scanner_steps_over_blanks_and_finds_what_lark_finds(fresh: Lark) -> None:
    """The driver steps over a run of blanks (spaces, tabs, no-break spaces) without trying a
    state's regexes, as every state of this grammar ignores them and no word starts with one:
    lines with blanks of each kind, runs of them and none, parse as lark parses them."""
    driver = _grammar.fast_parser()
    lines = [
        "after 20 overs,\tif 3 or fewer down: all batsmen aggressive",
        "Root\xa0wahoo",
        "  toss :   bat  ",
        "xi:\t\tRoot, Stokes ,\xa0 Warne",
        "Warne bowls overs 1, 3,\t5",
        "when the 5th wicket falls:Root defensive",
    ]
    for text in lines:
        got = driver.parse(text, "start")
        try:
            want = fresh.parse(text, start="start")
        except UnexpectedInput as exc:
            assert got == _break(exc, text), text
            continue
        assert isinstance(got, Tree) and got == want and _shape(got) == _shape(want), text
    assert all(lx.blank_ignored() for lx in set(driver._lexers.values()))


def test_a_state_with_a_word_that_starts_with_a_blank_tries_its_regexes_there() -> None:
    """Where a terminal other than the ignored blank may start with a blank (a word written
    with a leading space, or a regex that matches one), the scanner does not step over it."""
    from types import SimpleNamespace

    from engine.flungo.language._lalr import _StateLexer

    def term(name: str, kind: str, value: str) -> Any:
        pattern = SimpleNamespace(type=kind, value=value, flags=(), to_regexp=lambda: value)
        return SimpleNamespace(name=name, pattern=pattern)

    blank = term("__IGNORE_0", "re", "[ \t\xa0]+")
    for other in (term("GAP", "str", " to"), term("SEP", "re", r"\s*,")):
        lexer = _StateLexer.__new__(_StateLexer)
        lexer.__setstate__(
            {"terminals": (other, blank), "flags": 0, "ignore": {"__IGNORE_0"}, "retype": {}}
        )
        assert not lexer.blank_ignored()
    lexer.__setstate__(
        {
            "terminals": (term("W", "str", "to"), blank),
            "flags": 0,
            "ignore": {"__IGNORE_0"},
            "retype": {},
        }
    )
    assert lexer.blank_ignored()
