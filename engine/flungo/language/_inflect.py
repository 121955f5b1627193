"""The inflected forms of a lexicon idiom's verb ("tonk": tonks, tonked, tonking), made from
the entry so that the lexicon lists each idiom once (``docs/rules/orders-unknown-words.md``)."""

from __future__ import annotations

import re

__all__ = ["inflected"]

_VOWELS = "aeiou"
_SYLLABLE = re.compile(r"[aeiouy]+")


def _forms(verb: str) -> tuple[str, ...]:
    """-s or -es, -ed and -ing of ``verb``, with the consonant doubled after one short vowel
    in one syllable ("slog": slogged, slogging) and a final e dropped ("nurdle": nurdling)."""
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        third = verb + "es"
    elif verb.endswith("y") and verb[-2:-1] not in _VOWELS:
        third = verb[:-1] + "ies"
    else:
        third = verb + "s"
    if verb.endswith("e"):
        return third, verb + "d", verb[:-1] + "ing"
    if verb.endswith("y") and verb[-2:-1] not in _VOWELS:
        return third, verb[:-1] + "ied", verb + "ing"
    stem = verb
    short = (
        len(verb) >= 3
        and verb[-1] not in _VOWELS + "wxy"
        and verb[-2] in _VOWELS
        and verb[-3] not in _VOWELS
        and len(_SYLLABLE.findall(verb)) == 1
    )
    if short:
        stem = verb + verb[-1]
    return third, stem + "ed", stem + "ing"


def inflected(idiom: str, fixed: frozenset[str]) -> tuple[str, ...]:
    """The idiom with its first word (its verb) inflected; none where that word is in
    ``fixed`` (the lexicon's words that are no verb), is short, is an adverb, or is itself
    an inflected form or joined by a hyphen."""
    first, _, rest = idiom.partition(" ")
    if (
        first in fixed
        or len(first) < 3
        or "-" in first
        or not first.isalpha()
        or first.endswith(("ly", "s", "ed", "ing"))
    ):
        return ()
    return tuple(f"{form} {rest}".strip() for form in _forms(first))


def alternation(forms: dict[str, tuple[str, ...]]) -> re.Pattern[str]:
    """A pattern for the idioms (``forms``: each with its inflected forms), one alternative
    per idiom with its verb's forms grouped, so that inflecting adds no alternative to try at
    every position of a line. Longer idioms first; a verb's longer forms first."""
    alternatives = []
    for idiom, made in sorted(forms.items(), key=lambda kv: (-len(kv[0]), kv[0])):
        first, _, rest = idiom.partition(" ")
        heads = {first, *(f.partition(" ")[0] for f in made)}
        group = "|".join(re.escape(h) for h in sorted(heads, key=lambda h: (-len(h), h)))
        alternatives.append(f"(?:{group})" + (re.escape(" " + rest) if rest else ""))
    return re.compile(rf"(?<![\w'&+])(?:{'|'.join(alternatives)})(?![\w'])")
