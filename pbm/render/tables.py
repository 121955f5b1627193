"""A Hit for Six hand as text tables that fit a phone's 77 columns: batting, then bowling.

The name and country columns are as wide as the hand's longest entry, so a hand of short
names leaves room and the longest name in any shipped deck (24 characters) still fits beside
the longest country; the few country names longer than twelve characters print in the short
form cricket itself uses. A hand's positions are below 100 (two columns).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["KEY", "SHORT_COUNTRIES", "card_table"]

#: The countries in the shipped decks whose names are longer than 12 characters.
SHORT_COUNTRIES = {
    "United States of America": "USA",
    "United Arab Emirates": "UAE",
    "Papua New Guinea": "PNG",
    "Czech Republic": "Czechia",
    "Cayman Islands": "Cayman Is.",
}

# (heading, key, width): the figures, right-aligned; widths hold the largest in any deck
# (14,059 runs, 40,000 balls, 682 wickets, 338 sixes, 331 matches) with their heading.
# Every figure a Rule reads is shown (law 4.01): balls faced for Strike Rate and Occupy the
# Crease, balls bowled for who makes the attack (law 4.02), the economy and bowling average.
_BATTING = (
    ("M", "matches", 3),
    ("Runs", "runs", 5),
    ("Avg", "avg", 5),
    ("BF", "bf", 5),
    ("SR", "sr", 5),
    ("6s", "sixes", 3),
)
_BOWLING = (
    ("BB", "bb", 5),
    ("Wkts", "wickets", 4),
    ("Econ", "econ", 5),
    ("BAvg", "bavg", 5),
)
#: The key under the tables: one name for one thing, as the instructions' stats read them.
KEY = (
    "BF balls faced, SR runs per 100 balls faced, BB balls bowled, BAvg runs per wicket; "
    "attack: the five who have bowled most (law 4.02), a part-timer charged the going rate "
    "and a quarter"
)


def card_table(rows: Iterable[Mapping[str, Any]]) -> str:
    """Two tables of the cards (``pbm.hitforsix.solo.card_rows``), batting then bowling,
    each line within 77 columns; the bowling table marks the attack. No final newline."""
    from pbm.render.env import oneline  # the environment registers this filter

    cards = [(str(r["pos"]), oneline(r["name"]), _country(str(r["country"])), r) for r in rows]
    name_w = max([len("Name"), *(len(name) for _, name, _, _ in cards)])
    country_w = max([len("Country"), *(len(country) for _, _, country, _ in cards)])

    def line(cells: list[str], figures: Iterable[str], widths: tuple[tuple[str, str, int], ...],
             tail: str = "") -> str:  # fmt: skip
        cells = cells + [f"{v:>{w}}" for v, (_, _, w) in zip(figures, widths, strict=True)]
        return (" ".join(cells) + tail).rstrip()

    def lead(pos: str, name: str) -> list[str]:
        return [f"{pos:>2}", f"{name:<{name_w}}"]

    out = [line([*lead("#", "Name"), f"{'Country':<{country_w}}"], (h for h, _, _ in _BATTING),
                _BATTING)]  # fmt: skip
    out += [
        line([*lead(p, n), f"{c:<{country_w}}"], (str(r[k]) for _, k, _ in _BATTING), _BATTING)
        for p, n, c, r in cards
    ]
    out.append("")
    out.append(line(lead("#", "Name"), (h for h, _, _ in _BOWLING), _BOWLING, "  Attack"))
    for p, n, _, r in cards:
        mark = ""
        if r.get("attack"):
            mark = "  attack" + ("" if r.get("proper", True) else " (part-timer)")
        out.append(line(lead(p, n), (str(r[k]) for _, k, _ in _BOWLING), _BOWLING, mark))
    return "\n".join(out)


def _country(name: str) -> str:
    return SHORT_COUNTRIES.get(name, name)
