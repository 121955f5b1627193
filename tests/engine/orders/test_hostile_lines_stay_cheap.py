"""A hostile line costs the reader little, and the shortcuts that make it cheap change no
reading: the near-miss measures equal difflib's, and name runs are cut as before."""

from __future__ import annotations

import difflib
import re
import time

from hypothesis import given
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import MAX_LINE_LENGTH, Reader, parse_orders
from engine.flungo.language._meaning import name_runs
from engine.flungo.language._near import close_matches, nearest
from tests.engine.orders.squad import fixture_team

_NAMES = ("joe root", "star batsman 1", "batsman 2", "ant & dec", "bowling all-rounder 2", "x")
_text = st.text(alphabet="abenmorst &12-", max_size=24)


@given(_text, st.lists(st.sampled_from(_NAMES), max_size=6, unique=True))
def test_a_near_miss_measures_as_difflib_does(folded: str, names: list[str]) -> None:
    """The best ratio of a run of words to a name is difflib's, when it is at least 0.75."""
    ratios = [difflib.SequenceMatcher(None, folded, n).ratio() for n in names]
    expected = max((r for r in ratios if r >= 0.75), default=0.0)
    assert nearest(folded, tuple(names)) == expected


@given(
    _text,
    st.lists(_text, max_size=12),
    st.integers(1, 3),
    st.sampled_from([0.0, 0.6, 0.75, 0.84]),
)
def test_close_matches_are_difflibs(word: str, words: list[str], n: int, cutoff: float) -> None:
    """Leaving out the words too long or too short first gives difflib's own answer."""
    assert close_matches(word, words, n, cutoff) == difflib.get_close_matches(
        word, words, n, cutoff
    )


def _runs_by_every_cut(run: list[str], names: tuple[str, ...]) -> list[str]:
    """How a run of name words was cut before: every cut tried from the longest."""
    words = [re.findall(r"[\w']+", n.lower()) for n in names]
    out, i = [], 0
    while i < len(run):
        j = len(run)
        while j > i + 1 and not any(
            all(any(x.startswith(r) for x in w) for r in run[i:j]) for w in words
        ):
            j -= 1
        out.append(" ".join(run[i:j]))
        i = j
    return out


@given(st.lists(st.sampled_from(["joe", "root", "tom", "smith", "steve", "warne"]), max_size=9))
def test_a_run_of_names_is_cut_as_before(run: list[str]) -> None:
    """A run of squad words is cut where one name ends and the next begins, as before."""
    names = ("Joe Root", "Tom Smith", "Steve Smith", "Shane Warne")
    protect = frozenset(w for n in names for w in n.lower().split())
    assert name_runs(" ".join(run), protect, names) == _runs_by_every_cut(run, names)


def test_a_line_of_names_at_the_longest_costs_little() -> None:
    """A line of nothing but squad names, as long as a line may be, is read in well under a
    second (it took 0.4 s when every cut of the run was tried; 40 such lines are cheap)."""
    team = fixture_team()
    names = " ".join(p.name for p in team.players)
    line = (names + " ") * (MAX_LINE_LENGTH // (len(names) + 1))
    text = "\n".join([line] * 10)
    c = time.process_time()
    parse_orders(text, team, FORMATS[Format.FIFTY], reader=Reader())
    assert time.process_time() - c < 2.0
