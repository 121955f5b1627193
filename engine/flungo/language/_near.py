"""How nearly a run of words spells one of the squad's names, cheaply for a hostile line.

``difflib.SequenceMatcher.ratio`` is the measure (a near miss is at least 0.75), but it is
slow, and a broken line asks it of every run of words near the break for every name, again
for each near miss masked. Two bounds that ``ratio`` never exceeds come first: the lengths
alone, then the letters in common whatever their order (``quick_ratio``'s own count); a name
that cannot reach the bar, or the best found so far, is not measured. A run's best is kept
by the active Reader, as a line is tried again with one more near miss masked.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence

from engine.flungo.language._reader import kept

__all__ = ["close_matches", "nearest"]

NEAR = 0.75


@kept(maxsize=256)
def _letters(names: tuple[str, ...]) -> tuple[tuple[str, Counter[str]], ...]:
    folded = (n.casefold() for n in names)
    return tuple((n, Counter(n)) for n in folded)


@kept(maxsize=4096)
def nearest(folded: str, names: tuple[str, ...]) -> float:
    """The highest ``ratio`` of ``folded`` to a name of ``names`` if at least 0.75, else 0."""
    best = 0.0
    size = len(folded)
    letters: Counter[str] | None = None
    for name, its in _letters(names):
        total = size + len(name)
        bar = max(best, NEAR)
        if 2.0 * min(size, len(name)) / total < bar:
            continue
        if letters is None:
            letters = Counter(folded)
        if 2.0 * sum((letters & its).values()) / total < bar:
            continue
        ratio = difflib.SequenceMatcher(None, folded, name).ratio()
        if ratio >= bar:
            best = ratio
    return best


def close_matches(word: str, possibilities: Sequence[str], n: int, cutoff: float) -> list[str]:
    """``difflib.get_close_matches``, the same list (kept by the Reader: a refused line's
    words are asked again as it is tried again), with the words whose length alone keeps
    them under ``cutoff`` (its ``real_quick_ratio``) left out first: a long vocabulary is
    asked of every unknown word of a refused line, and most of it is too long or too short."""
    return list(_close(word, tuple(possibilities), n, cutoff))


@kept(maxsize=4096)
def _close(word: str, possibilities: tuple[str, ...], n: int, cutoff: float) -> tuple[str, ...]:
    size = len(word)
    # the order of the words does not matter: difflib sorts its matches by score and word
    fit = [
        x
        for length, words in _by_length(possibilities).items()
        if not (size or length) or 2 * min(size, length) / (size + length) >= cutoff
        for x in words
    ]
    return tuple(difflib.get_close_matches(word, fit, n, cutoff))


@kept(maxsize=64)
def _by_length(possibilities: tuple[str, ...]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for x in possibilities:
        out.setdefault(len(x), []).append(x)
    return out
