"""Team colours for the fingerprint: two per team, a dark primary and an accent.

The primary carries white initials and the batting rays, so it is dark enough for white text;
the accent draws the bowling rays and trims. Every country in the shipped decks has its pair
(law 2.02; a test checks each deck, and that white initials stay readable on each primary);
only the non-country sides (ICC World XI, Asia XI, Africa XI) get the neutral slate and sand.
Colours are the teams' usual kit or flag colours, chosen by eye; no badge or emblem is used.
"""

from __future__ import annotations

__all__ = ["NEUTRAL", "TEAM_COLOURS", "team_colours"]

NEUTRAL = ("#4a5560", "#b8a06a")

TEAM_COLOURS: dict[str, tuple[str, str]] = {
    # The Full Members
    "Afghanistan": ("#0b3c8c", "#d32011"),
    "Australia": ("#00693e", "#f2c200"),
    "Bangladesh": ("#006a4e", "#f42a41"),
    "England": ("#1c2c5b", "#d4213d"),
    "India": ("#1f4ea3", "#ff9933"),
    "Ireland": ("#0b7a44", "#ff883e"),
    "New Zealand": ("#111111", "#9da3a8"),
    "Pakistan": ("#01411c", "#6fbf3a"),
    "South Africa": ("#006341", "#ffb81c"),
    "Sri Lanka": ("#0a2d6e", "#ffbe29"),
    "West Indies": ("#7b0041", "#ffc72c"),
    "Zimbabwe": ("#b5121b", "#ffd100"),
    # Associates
    "Argentina": ("#2f6ea8", "#f6b40e"),
    "Austria": ("#c8102e", "#8c8c8c"),
    "Bahamas": ("#00778b", "#ffc72c"),
    "Bahrain": ("#ce1126", "#8c8c8c"),
    "Belgium": ("#1a1a1a", "#fdda24"),
    "Belize": ("#003f87", "#ce1126"),
    "Bermuda": ("#00247d", "#cf142b"),
    "Bhutan": ("#d8501c", "#ffd520"),
    "Botswana": ("#1e5aa8", "#75aadb"),
    "Brazil": ("#009739", "#fedd00"),
    "Bulgaria": ("#00966e", "#d62612"),
    "Cambodia": ("#032ea1", "#e00025"),
    "Cameroon": ("#007a5e", "#fcd116"),
    "Canada": ("#c8102e", "#8a8d8f"),
    "Cayman Islands": ("#002868", "#c8102e"),
    "China": ("#de2910", "#ffde00"),
    "Cook Islands": ("#012169", "#c8102e"),
    "Croatia": ("#171796", "#ff0000"),
    "Cyprus": ("#4e5b31", "#d57800"),
    "Czech Republic": ("#11457e", "#d7141a"),
    "Denmark": ("#c60c30", "#8c8c8c"),
    "Estonia": ("#0072ce", "#8c8c8c"),
    "Eswatini": ("#3e5eb9", "#ffd900"),
    "Fiji": ("#002868", "#68bfe5"),
    "Finland": ("#002f6c", "#8c8c8c"),
    "France": ("#002395", "#ed2939"),
    "Germany": ("#1a1a1a", "#dd0000"),
    "Ghana": ("#006b3f", "#fcd116"),
    "Gibraltar": ("#da000c", "#f8d80f"),
    "Greece": ("#0d5eaf", "#8c8c8c"),
    "Guernsey": ("#00529b", "#e8112d"),
    "Hong Kong": ("#b31b1b", "#e0a526"),
    "Hungary": ("#436f4d", "#cd2a3e"),
    "Indonesia": ("#ce1126", "#8c8c8c"),
    "Isle of Man": ("#cf142b", "#f9dd16"),
    "Italy": ("#0064aa", "#009246"),
    "Japan": ("#bc002d", "#8c8c8c"),
    "Jersey": ("#cf142b", "#e5b73b"),
    "Kenya": ("#006600", "#bb0000"),
    "Kuwait": ("#007a3d", "#ce1126"),
    "Lesotho": ("#00209f", "#009543"),
    "Luxembourg": ("#00709b", "#ef3340"),
    "Malawi": ("#1a1a1a", "#ce1126"),
    "Malaysia": ("#010066", "#cc0001"),
    "Maldives": ("#007e3a", "#d21034"),
    "Mali": ("#0e7a28", "#fcd116"),
    "Malta": ("#cf142b", "#8c8c8c"),
    "Mexico": ("#006847", "#ce1126"),
    "Mongolia": ("#0066b3", "#da2032"),
    "Mozambique": ("#007168", "#fce100"),
    "Myanmar": ("#2f8f2f", "#fecb00"),
    "Namibia": ("#003580", "#009543"),
    "Nepal": ("#003893", "#dc143c"),
    "Netherlands": ("#d35400", "#21468b"),
    "Nigeria": ("#008751", "#8c8c8c"),
    "Norway": ("#ba0c2f", "#00205b"),
    "Oman": ("#db161b", "#008000"),
    "Panama": ("#005293", "#d21034"),
    "Papua New Guinea": ("#1a1a1a", "#fcd116"),
    "Philippines": ("#0038a8", "#ce1126"),
    "Portugal": ("#046a38", "#da291c"),
    "Qatar": ("#8a1538", "#8c8c8c"),
    "Romania": ("#002b7f", "#fcd116"),
    "Rwanda": ("#0079b8", "#fad201"),
    "Samoa": ("#002b7f", "#ce1126"),
    "Saudi Arabia": ("#006c35", "#8c8c8c"),
    "Scotland": ("#1b2a6b", "#8e5bb5"),
    "Serbia": ("#0c4076", "#c6363c"),
    "Seychelles": ("#003f87", "#fcd856"),
    "Sierra Leone": ("#1e8f3a", "#0072c6"),
    "Singapore": ("#d52b3a", "#8c8c8c"),
    "Slovenia": ("#005da4", "#ed1c24"),
    "South Korea": ("#003478", "#c60c30"),
    "Spain": ("#aa151b", "#f1bf00"),
    "Suriname": ("#377e3f", "#ecc81d"),
    "Sweden": ("#006aa7", "#fecc00"),
    "Switzerland": ("#d52b1e", "#8c8c8c"),
    "Tanzania": ("#1a8f3a", "#00a3dd"),
    "Thailand": ("#2d2a4a", "#a51931"),
    "Turkey": ("#e30a17", "#8c8c8c"),
    "Uganda": ("#1a1a1a", "#fcdc04"),
    "United Arab Emirates": ("#00732f", "#e8112d"),
    "United States of America": ("#002868", "#bf0a30"),
    "Vanuatu": ("#009543", "#fdce12"),
    "Zambia": ("#198a00", "#ef7d00"),
}


def team_colours(team: str) -> tuple[str, str]:
    """(primary, accent) for ``team``, or the neutral pair."""
    return TEAM_COLOURS.get(team, NEUTRAL)
