"""The fingerprint figure and the card as SVG: well-formed, twelve rays, the country's colours."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from engine.hitforsix.cards import Card
from engine.hitforsix.colours import NEUTRAL, TEAM_COLOURS, team_colours
from engine.hitforsix.fingerprint import STATS
from engine.hitforsix.scale import (
    MIN_BALLS_BOWLED,
    MIN_BALLS_FACED,
    DeckScale,
    qualified_fingerprint,
    sparkline,
)
from engine.hitforsix.svg import card_svg, fingerprint_svg

SVG = "{http://www.w3.org/2000/svg}"


def make(i: int, country: str = "India", **kw: int | str) -> Card:
    base: dict[str, int | str] = {
        "id": f"p{i:03d}",
        "name": f"P{i} Player",
        "initials": "PP",
        "country": country,
        "matches": 10 + i,
        "runs": 100 * i,
        "dismissals": 10,
        "balls_faced": 80 * i + 60,
        "fours": 5 * i,
        "sixes": i,
        "balls_bowled": 130 * (i % 5),
        "runs_conceded": 150 * (i % 5) + i,
        "wickets": i % 7,
    }
    base.update(kw)
    return Card(**base)  # type: ignore[arg-type]


DECK = [make(i) for i in range(20)]
SCALE = DeckScale.of(DECK)


def rays(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter(f"{SVG}line") if e.get("class") == "ray"]


def test_fingerprint_is_well_formed_with_twelve_rays_in_the_country_colours() -> None:
    """The figure parses as XML, has one ray per stat, and draws them in India's two colours."""
    card = make(7, name="AB de Villiers <&>", initials="ABdV")
    svg = fingerprint_svg(card, SCALE)
    found = rays(svg)
    assert [r.get("data-stat") for r in found] == [s.key for s in STATS]
    primary, accent = TEAM_COLOURS["India"]
    assert {r.get("stroke") for r in found} == {primary, accent}
    assert "ABdV" in svg
    assert "AB de Villiers &lt;&amp;&gt;" in svg


def test_card_is_well_formed_and_carries_name_country_figures_and_credit() -> None:
    """The card parses, has the twelve rays, the name, country, runs and the Cricsheet credit."""
    card = make(12, country="Nepal", name="Sandeep Lamichhane", initials="SL")
    svg = card_svg(card, SCALE, deck_title="The Associates")
    assert len(rays(svg)) == 12
    text = "".join(ET.fromstring(svg).itertext())
    for expected in ("Sandeep Lamichhane", "Nepal", "The Associates", "1,200", "cricsheet.org"):
        assert expected in text
    assert TEAM_COLOURS["Nepal"][0] in svg


def test_unknown_team_gets_the_neutral_colours() -> None:
    """A side without colours in the table (e.g. ICC World XI) is drawn in the neutral pair."""
    assert team_colours("ICC World XI") == NEUTRAL
    svg = fingerprint_svg(make(3, country="ICC World XI"), SCALE)
    assert {r.get("stroke") for r in rays(svg)} == set(NEUTRAL)


def test_best_in_deck_has_the_longest_ray_and_lower_is_better_for_economy() -> None:
    """The top run scorer's runs/match ray beats everyone's; the cheapest bowler tops economy."""
    cards = [make(i) for i in range(5)] + [make(9, runs=99_999, runs_conceded=1)]
    scale = DeckScale.of(cards)
    by_card = {c.id: scale.rays(c) for c in cards}
    runs_pm = [s.key for s in STATS].index("runs_per_match")
    economy = [s.key for s in STATS].index("economy")
    assert max(by_card, key=lambda k: by_card[k][runs_pm]) == "p009"
    assert max(by_card, key=lambda k: by_card[k][economy]) == "p009"


def test_short_samples_do_not_qualify_for_rate_rays() -> None:
    """Too few balls faced or bowled leaves the rate stats unranked (ray 0), per-match ones kept."""
    card = make(1, balls_faced=MIN_BALLS_FACED - 1, balls_bowled=MIN_BALLS_BOWLED - 1, sixes=50)
    q = qualified_fingerprint(card)
    keys = [s.key for s in STATS]
    assert q[keys.index("sixes_per_100")] is None
    assert q[keys.index("economy")] is None
    assert q[keys.index("runs_per_match")] is not None
    assert SCALE.rays(card)[keys.index("sixes_per_100")] == 0.0


@given(st.integers(0, 19))
def test_rays_are_percentiles(i: int) -> None:
    """Every ray of every card lies in [0, 1]."""
    assert all(0.0 <= r <= 1.0 for r in SCALE.rays(DECK[i]))


def test_sparkline_maps_zero_and_one_to_the_ends() -> None:
    """A sparkline uses the lowest block for 0 and the full block for 1."""
    assert sparkline([0.0, 0.5, 1.0]) == "▁▅█"
