"""The card's stat fingerprint and the card itself, as SVG text (pure: strings in, string out).

The fingerprint is twelve rays round the player's initials, one per stat of
:data:`engine.hitforsix.fingerprint.STATS`, clockwise from twelve o'clock: the seven batting
rays in the country's primary colour, the five bowling rays in its accent. Each ray's length is
the card's percentile within its deck (:class:`engine.hitforsix.scale.DeckScale`), so a full ray
is the best in the deck and a dot is no record. No photograph, likeness or badge: only the
initials and the colours of the country played for most.
"""

from __future__ import annotations

import math
from html import escape

from engine.hitforsix.cards import Card
from engine.hitforsix.colours import team_colours
from engine.hitforsix.fingerprint import STATS
from engine.hitforsix.scale import DeckScale

__all__ = ["SHORT_LABELS", "card_svg", "fingerprint_svg", "key_figures"]

SHORT_LABELS = ("Avg", "SR", "R/M", "B/M", "4s", "6s", "Bdry", "W/M", "Econ", "BAvg", "BSR", "O/M")
_BOWLING = frozenset(
    {"wickets_per_match", "economy", "bowling_average", "bowling_strike_rate", "overs_per_match"}
)
_PAPER = "#fbf8f0"
_GUIDE = "#ddd6c6"
_INK = "#2b2b2b"
_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
_INNER = 27.0  # ray base: just outside the initials disc
_LENGTH = 62.0  # a full ray (percentile 1)
_DASH = ' stroke-dasharray="2 2"'


def _f(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _figure(card: Card, scale: DeckScale, *, labels: bool, guides: bool = True) -> str:
    """The fingerprint drawing centred on (0, 0), radius 98 (110 with labels); without
    ``guides`` (the quartile rings and the spokes), only the rays, the rim and the initials."""
    primary, accent = team_colours(card.country)
    rays = scale.rays(card)
    parts = [f'<circle r="98" fill="{_PAPER}" stroke="{primary}" stroke-width="2"/>']
    if guides:
        parts += [
            f'<circle r="{_f(_INNER + _LENGTH * q)}" fill="none" stroke="{_GUIDE}"'
            f' stroke-width="0.7"{dash}/>'
            for q, dash in ((0.25, _DASH), (0.5, _DASH), (0.75, _DASH), (1.0, ""))
        ]
    for i, (stat, value) in enumerate(zip(STATS, rays, strict=True)):
        angle = math.radians(-90 + 30 * i)
        dx, dy = math.cos(angle), math.sin(angle)
        r1 = _INNER + _LENGTH * value
        colour = accent if stat.key in _BOWLING else primary
        x0, y0, x1, y1 = (_f(v) for v in (_INNER * dx, _INNER * dy, r1 * dx, r1 * dy))
        if guides:
            parts.append(
                f'<line x1="{_f(_INNER * dx)}" y1="{_f(_INNER * dy)}"'
                f' x2="{_f((_INNER + _LENGTH) * dx)}" y2="{_f((_INNER + _LENGTH) * dy)}"'
                f' stroke="{_GUIDE}" stroke-width="0.7"/>'
            )
        parts.append(
            f'<line class="ray" data-stat="{stat.key}" data-percentile="{value:.3f}"'
            f' x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{colour}" stroke-width="9"'
            ' stroke-linecap="round"><title>'
            f"{escape(stat.label)}: {round(100 * value)}th percentile in the deck</title></line>"
        )
        if labels:
            lx, ly = 106 * dx, 106 * dy + 2.5
            parts.append(
                f'<text x="{_f(lx)}" y="{_f(ly)}" font-size="7" text-anchor="middle"'
                f' fill="{_INK}" font-family="{_FONT}">{SHORT_LABELS[i]}</text>'
            )
    size = {1: 24, 2: 22, 3: 18}.get(len(card.initials), 15)
    parts += [
        f'<circle r="24" fill="{primary}" stroke="{accent}" stroke-width="3"/>',
        f'<text class="initials" y="{_f(size * 0.36)}" font-size="{size}" font-weight="bold"'
        f' text-anchor="middle" fill="#ffffff" font-family="{_FONT}">'
        f"{escape(card.initials)}</text>",
    ]
    return "".join(parts)


def fingerprint_svg(card: Card, scale: DeckScale, *, size: int = 200, guides: bool = True) -> str:
    """The twelve-ray figure alone, ``size`` pixels square (``guides``: see :func:`_figure`;
    a small picture is clearer, and far lighter as a PNG, without them)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}"'
        f' viewBox="-100 -100 200 200" role="img"'
        f' aria-label="Stat fingerprint of {escape(card.name)}">'
        f"<title>{escape(card.name)} ({escape(card.country)})</title>"
        f"{_figure(card, scale, labels=False, guides=guides)}</svg>\n"
    )


def _ratio(num: int, den: int, places: int, scale: float = 1.0) -> str:
    return "–" if den == 0 else f"{scale * num / den:.{places}f}"


def key_figures(card: Card) -> tuple[tuple[str, str], ...]:
    """(label, value) pairs the card prints under the figure."""
    return (
        ("Matches", f"{card.matches:,}"),
        ("Runs / balls faced", f"{card.runs:,} / {card.balls_faced:,}"),
        ("Average", _ratio(card.runs, card.dismissals, 1)),
        ("Strike rate", _ratio(card.runs, card.balls_faced, 1, 100.0)),
        ("4s / 6s", f"{card.fours:,} / {card.sixes:,}"),
        ("Wickets", f"{card.wickets:,}"),
        ("Economy", _ratio(card.runs_conceded, card.balls_bowled, 2, 6.0)),
        ("Bowl avg", _ratio(card.runs_conceded, card.wickets, 1)),
        ("Balls bowled", f"{card.balls_bowled:,}"),
    )


def card_svg(
    card: Card,
    scale: DeckScale,
    *,
    deck_title: str,
    credit: str = "Match data from Cricsheet, cricsheet.org",
) -> str:
    """A playing card (240 × 336): name, country, the fingerprint and the key figures."""
    primary, accent = team_colours(card.country)
    w, h = 240, 336
    name_size = min(17.0, 330.0 / max(1, len(card.name)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"'
        f' viewBox="0 0 {w} {h}" role="img" aria-label="Hit for Six card: {escape(card.name)}">',
        f"<title>{escape(card.name)} — {escape(deck_title)}</title>",
        f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="12" fill="{_PAPER}"'
        f' stroke="{primary}" stroke-width="3"/>',
        f'<path d="M1.5 13.5a12 12 0 0 1 12-12h{w - 27}a12 12 0 0 1 12 12v42h-{w - 3}z"'
        f' fill="{primary}"/>',
        f'<rect x="1.5" y="55.5" width="{w - 3}" height="4" fill="{accent}"/>',
        f'<text x="14" y="28" font-size="{_f(name_size)}" font-weight="bold" fill="#ffffff"'
        f' font-family="{_FONT}">{escape(card.name)}</text>',
        f'<text x="14" y="46" font-size="10.5" fill="#ffffff" fill-opacity="0.85"'
        f' font-family="{_FONT}">{escape(card.country)} · {escape(deck_title)}</text>',
        f'<g transform="translate(120 150) scale(0.8)">{_figure(card, scale, labels=True)}</g>',
    ]
    figures = key_figures(card)
    for k, (label, value) in enumerate(figures):
        col, row = k % 3, k // 3
        x, y = 14 + col * 74, 252 + row * 22
        parts.append(
            f'<text x="{x}" y="{y}" font-size="7" fill="#6b6b6b" font-family="{_FONT}">'
            f"{escape(label)}</text>"
            f'<text x="{x}" y="{y + 11}" font-size="11" font-weight="bold" fill="{_INK}"'
            f' font-family="{_FONT}">{escape(value)}</text>'
        )
    parts += [
        f'<text x="{w / 2:g}" y="{h - 18}" font-size="6.5" text-anchor="middle" fill="#6b6b6b"'
        f' font-family="{_FONT}">{escape(credit)}</text>',
        f'<text x="{w / 2:g}" y="{h - 9}" font-size="6.5" text-anchor="middle" fill="#6b6b6b"'
        f' font-family="{_FONT}">Career figures from Cricsheet ball-by-ball data</text>',
        "</svg>\n",
    ]
    return "".join(parts)
