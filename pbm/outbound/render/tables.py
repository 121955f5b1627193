"""A Hit for Six hand as text a phone reads: three short lines a card, no columns to align.

A mail reader on a phone shows about 50 characters of fixed text at 390 px, and flows what
is longer; a table of aligned columns breaks there. So a card is three lines that read alone:
a usual card's lines are under 50 characters and the worst card of any shipped deck (the
longest name beside the longest country, the widest figures) under :data:`CARD_WIDTH`. The
few country names longer than twelve characters print in the short form cricket itself uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "CARD_WIDTH",
    "KEY",
    "NAME_WIDTH",
    "SHORT_COUNTRIES",
    "card_table",
    "name_lines",
    "squad_lines",
]

#: The countries in the shipped decks whose names are longer than 12 characters.
SHORT_COUNTRIES = {
    "United States of America": "USA",
    "United Arab Emirates": "UAE",
    "Papua New Guinea": "PNG",
    "Czech Republic": "Czechia",
    "Cayman Islands": "Cayman Is.",
}

#: The key under the cards: one name for one thing, as the instructions' stats read them.
KEY = (
    "BF balls faced, SR runs per 100 balls faced, BB balls bowled, BAvg runs per wicket; "
    "attack: the five who have bowled most (law 4.02), a part-timer charged the going rate "
    "and a quarter"
)

#: The longest line a card may print.
CARD_WIDTH = 62


def card_table(rows: Iterable[Mapping[str, Any]]) -> str:
    """The cards (``pbm.games.hitforsix.solo.card_rows``) as a phone reads them: three short lines a
    man, nothing that needs columns to line up -- his position, name and country (and whether
    he is in the attack), then every batting figure a Rule reads, then every bowling one
    (matches, which no Rule reads, are left to the terminal and the ground). No final
    newline."""
    from pbm.outbound.render.env import oneline  # the environment registers this filter

    out = []
    for r in rows:
        mark = ""
        if r.get("attack"):
            mark = " (attack)" if r.get("proper", True) else " (attack, part-timer)"
        out.append(f"{r['pos']:>2} {oneline(r['name'])}, {_country(str(r['country']))}{mark}")
        out.append(f"   {_n(r['runs'])} runs, avg {r['avg']}, BF {_n(r['bf'])}, SR {r['sr']}, "
                   f"6s {_n(r['sixes'])}")  # fmt: skip
        out.append(f"   BB {_n(r['bb'])}, wkts {_n(r['wickets'])}, econ {r['econ']}, "
                   f"BAvg {r['bavg']}")  # fmt: skip
    return "\n".join(out)


def _n(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def _country(name: str) -> str:
    return SHORT_COUNTRIES.get(name, name)


def squad_lines(rows: Iterable[Mapping[str, Any]]) -> str:
    """A Cosmic Celebrity Cricket squad (``pbm.games.flungo.views.squad_rows``) as the
    welcome's text columns under ``Slot  Player  Role  Bat  Bowl  Field  Style``, one line a
    man, no final newline: one format a line, where the template's six filters a line were
    most of rendering a welcome's text."""
    from pbm.outbound.render.env import oneline  # the environment registers this filter

    return "\n".join(
        f"{r['slot']:4d}  {oneline(r['name']):<22}  {r['role']:<20}  {r['batting']:3d}  "
        f"{r['bowling']:4d}  {r['fielding']:5d}  {r['style']}"
        for r in rows
    )


#: The widest a naming answer's name column grows (a longer name runs past it).
NAME_WIDTH = 40


def name_lines(rows: Iterable[Mapping[str, Any]]) -> str:
    """A squad (``squad_rows``) as a naming answer lists it: slot, name and role, the name
    column as wide as the squad's longest name (:data:`NAME_WIDTH` at most) so a row fits a
    phone when the names are short; no final newline. One format a line, where the
    template's filters (two formats, a line's name read twice) were a tenth of rendering
    the answer."""
    from pbm.outbound.render.env import oneline  # the environment registers this filter

    rows = list(rows)
    names = [oneline(r["name"]) for r in rows]
    width = min(max(map(len, names), default=0), NAME_WIDTH)
    return "\n".join(
        f"{r['slot']:4d}  {name:<{width}}  {r['role']}" for r, name in zip(rows, names, strict=True)
    )
