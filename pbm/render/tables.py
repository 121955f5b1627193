"""A Hit for Six hand as a text table that fits a phone's 77 columns (:data:`WIDTH`).

The name and country columns are as wide as the hand's longest entry, so a hand of short
names leaves room and the longest name in any shipped deck (24 characters) still fits beside
the longest country; the few country names longer than twelve characters print in the short
form cricket itself uses. A hand's positions are below 100 (two columns).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["SHORT_COUNTRIES", "card_table"]

#: The countries in the shipped decks whose names are longer than 12 characters.
SHORT_COUNTRIES = {
    "United States of America": "USA",
    "United Arab Emirates": "UAE",
    "Papua New Guinea": "PNG",
    "Czech Republic": "Czechia",
    "Cayman Islands": "Cayman Is.",
}

# (heading, key, width): the figures, right-aligned; widths hold the largest in any deck
# (14,059 runs, 682 wickets, 338 sixes, 331 matches) with their heading.
_FIGURES = (
    ("M", "matches", 3),
    ("Runs", "runs", 5),
    ("Avg", "avg", 5),
    ("SR", "sr", 5),
    ("6s", "sixes", 3),
    ("Wkts", "wickets", 4),
    ("Econ", "econ", 5),
)


def card_table(rows: Iterable[Mapping[str, Any]]) -> str:
    """The heading and one line per card (``pbm.hitforsix.solo.card_rows``), without a
    final newline."""
    from pbm.render.env import oneline  # the environment registers this filter

    cards = [(str(r["pos"]), oneline(r["name"]), _country(str(r["country"])), r) for r in rows]
    name_w = max([len("Name"), *(len(name) for _, name, _, _ in cards)])
    country_w = max([len("Country"), *(len(country) for _, _, country, _ in cards)])

    def line(pos: str, name: str, country: str, figures: Iterable[str]) -> str:
        cells = [f"{pos:>2}", f"{name:<{name_w}}", f"{country:<{country_w}}"]
        cells += [f"{v:>{w}}" for v, (_, _, w) in zip(figures, _FIGURES, strict=True)]
        return " ".join(cells).rstrip()

    out = [line("#", "Name", "Country", (h for h, _, _ in _FIGURES))]
    out += [line(p, n, c, (str(r[k]) for _, k, _ in _FIGURES)) for p, n, c, r in cards]
    return "\n".join(out)


def _country(name: str) -> str:
    return SHORT_COUNTRIES.get(name, name)
