"""The zine's pictures as inline SVG strings: worm, Manhattan, partnerships, league table with
net run rate, knockout bracket.

Each picture is self-contained (no fonts, images or scripts from anywhere), scales to its
container (``viewBox``, no fixed width), and carries a ``<title>`` and a ``<desc>`` that say in
words what it shows, for screen readers and for anyone who cannot see it. Every name in it is
XML-escaped. The same strings go into the HTML and, as images, into the Typst PDF.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from pbm.games.flungo.zine.palette import PALETTE

__all__ = [
    "BracketMatch",
    "Series",
    "bracket",
    "manhattan",
    "nrr_table",
    "partnership_bars",
    "worm",
]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
SERIES = (PALETTE["home"], PALETTE["away"])


@dataclass(frozen=True, slots=True)
class Series:
    """One innings for a chart: the batting team, runs and wickets in each over."""

    team: str
    runs: tuple[int, ...]
    wickets: tuple[int, ...]


def _short(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _svg(uid: str, width: int, height: int, title: str, desc: str, body: list[str]) -> str:
    t, d = f"{uid}-t", f"{uid}-d"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-labelledby="{t} {d}" class="chart" style="max-width: {width}px" '
        f'font-family="{FONT}" font-size="12">'
        f'<title id="{t}">{escape(title)}</title><desc id="{d}">{escape(desc)}</desc>'
        f'<rect width="{width}" height="{height}" fill="{PALETTE["paper"]}"/>'
        + "".join(body)
        + "</svg>"
    )


def _text(
    x: float,
    y: float,
    s: str,
    anchor: str = "start",
    size: int = 13,
    bold: bool = False,
    colour: str | None = None,
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}"{weight} '
        f'fill="{colour or PALETTE["ink"]}">{escape(s)}</text>'
    )


def _nice(top: int) -> int:
    for step in (10, 20, 25, 50, 100):
        if top <= step * 6:
            return max(step, -(-top // step) * step)
    return -(-top // 100) * 100


def _axes(
    x0: float, y0: float, x1: float, y1: float, ymax: int, overs: int, unit: str
) -> list[str]:
    ink, rule = PALETTE["ink"], PALETTE["rule"]
    out = [
        f'<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}" stroke="{ink}"/>',
        f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="{ink}"/>',
    ]
    for k in range(5):
        v = ymax * k // 4
        y = y1 - (y1 - y0) * k / 4
        out.append(
            f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="{rule}" '
            'stroke-width="0.5" stroke-dasharray="2 3"/>'
        )
        out.append(_text(x0 - 6, y + 4, str(v), "end", 12))
    step = 5 if overs > 12 else 1
    for o in range(0, overs + 1, step):
        x = x0 + (x1 - x0) * o / max(overs, 1)
        out.append(_text(x, y1 + 16, str(o), "middle", 12))
    out.append(_text((x0 + x1) / 2, y1 + 32, unit, "middle", 12))
    return out


def _legend(series: Sequence[Series], x: float, y: float) -> list[str]:
    out = []
    for i, s in enumerate(series):
        yy = y + 16 * i
        out.append(f'<rect x="{x}" y="{yy - 9}" width="12" height="10" fill="{SERIES[i % 2]}"/>')
        out.append(_text(x + 16, yy, _short(s.team, 30), size=12))
    return out


def worm(uid: str, series: Sequence[Series], overs: int, unit: str = "overs") -> str:
    """Both innings' cumulative runs over by over, wickets as dots on the line."""
    w, h = 600, 280
    x0, y0, x1, y1 = 44, 44, 588, 236
    totals = [sum(s.runs) for s in series]
    ymax = _nice(max([*totals, 10]))
    body = _axes(x0, y0, x1, y1, ymax, overs, unit)
    body += _legend(series, x0 + 8, 16)
    desc = []
    for i, s in enumerate(series):
        cum, pts, dots = 0, [f"{x0},{y1}"], []
        for o, (r, wk) in enumerate(zip(s.runs, s.wickets, strict=True), 1):
            cum += r
            x = x0 + (x1 - x0) * o / overs
            y = y1 - (y1 - y0) * cum / ymax
            pts.append(f"{x:.1f},{y:.1f}")
            for k in range(wk):
                dots.append(
                    f'<circle cx="{x:.1f}" cy="{y - 7 * k:.1f}" r="3.5" '
                    f'fill="{PALETTE["wicket"]}" stroke="{PALETTE["paper"]}"/>'
                )
        colour = SERIES[i % 2]
        body.append(
            f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
        )
        body += dots
        desc.append(f"{s.team} {cum}/{sum(s.wickets)} in {len(s.runs)} {unit}")
    return _svg(
        uid,
        w,
        h,
        "The worm: runs by " + unit[:-1],
        "; ".join(desc) + ". Red dots are wickets.",
        body,
    )


def manhattan(uid: str, series: Sequence[Series], overs: int, unit: str = "overs") -> str:
    """Runs in each over, the innings side by side, wickets marked above the bars."""
    w, h = 600, 280
    x0, y0, x1, y1 = 44, 44, 588, 236
    ymax = _nice(max([max(s.runs, default=0) for s in series] + [6]))
    ymax = max(ymax, 10)
    body = _axes(x0, y0, x1, y1, ymax, overs, unit)
    body += _legend(series, x0 + 8, 16)
    slot = (x1 - x0) / max(overs, 1)
    bar = slot * 0.8 / max(len(series), 1)
    desc = []
    for i, s in enumerate(series):
        colour = SERIES[i % 2]
        for o, (r, wk) in enumerate(zip(s.runs, s.wickets, strict=True)):
            x = x0 + slot * o + slot * 0.1 + bar * i
            bh = (y1 - y0) * r / ymax
            body.append(
                f'<rect x="{x:.1f}" y="{y1 - bh:.1f}" width="{bar:.1f}" '
                f'height="{bh:.1f}" fill="{colour}"/>'
            )
            for k in range(wk):
                body.append(
                    f'<circle cx="{x + bar / 2:.1f}" cy="{y1 - bh - 5 - 7 * k:.1f}" '
                    f'r="3" fill="{PALETTE["wicket"]}"/>'
                )
        best = max(range(len(s.runs)), key=lambda k: s.runs[k], default=None)
        if best is not None:
            desc.append(
                f"{s.team}: best {unit[:-1]} number {best + 1} ({s.runs[best]} runs); "
                f"{sum(s.wickets)} wickets fell"
            )
    return _svg(
        uid,
        w,
        h,
        f"The Manhattan: runs in each {unit[:-1]}",
        "; ".join(desc) + ". Red dots are wickets.",
        body,
    )


def partnership_bars(
    uid: str, innings: Sequence[tuple[str, Sequence[tuple[int, str, int, bool]]]]
) -> str:
    """Each innings' stands as bars: (team, [(wicket, "A & B", runs, unbroken)])."""
    rows = sum(len(p) + 1 for _, p in innings)
    w, h = 600, 20 + 18 * rows
    x0, x1 = 250, 560
    top = max([r for _, ps in innings for _, _, r, _ in ps] + [10])
    body: list[str] = []
    y = 18
    desc = []
    for i, (team, stands) in enumerate(innings):
        body.append(_text(8, y + 4, _short(team, 40), bold=True))
        y += 18
        colour = SERIES[i % 2]
        for wk, names, runs, unbroken in stands:
            body.append(_text(8, y + 4, f"{wk}. {_short(names, 30)}", size=12))
            bw = (x1 - x0) * runs / top
            body.append(
                f'<rect x="{x0}" y="{y - 7}" width="{max(bw, 1):.1f}" height="12" fill="{colour}"/>'
            )
            body.append(_text(x0 + bw + 4, y + 4, f"{runs}{'*' if unbroken else ''}", size=12))
            y += 18
        if stands:
            best = max(stands, key=lambda s: s[2])
            desc.append(f"{team}: best stand {best[2]} by {best[1]} for wicket {best[0]}")
    return _svg(
        uid, w, h, "Partnerships", "; ".join(desc) + "." if desc else "No stands yet.", body
    )


def nrr_table(uid: str, rows: Sequence[tuple[int, str, int, float]]) -> str:
    """The league table as a picture: (position, team, points, net run rate) per row, with
    points as a number and net run rate as a bar either side of zero."""
    w, h = 460, 28 + 22 * max(len(rows), 1)
    mid, half = 335, 65
    span = max([abs(r[3]) for r in rows] + [0.5])
    ink = PALETTE["ink"]
    body = [
        _text(8, 16, "Pos  Team", size=12, bold=True),
        _text(205, 16, "Pts", "end", 12, True),
        _text(mid, 16, "Net run rate", "middle", 12, True),
        f'<line x1="{mid}" y1="22" x2="{mid}" y2="{h - 4}" stroke="{ink}"/>',
    ]
    for k, (pos, team, pts, nrr) in enumerate(rows):
        y = 38 + 22 * k
        body.append(_text(8, y, f"{pos}.", size=12))
        body.append(_text(30, y, _short(team, 20), size=13))
        body.append(_text(205, y, str(pts), "end", 13, True))
        bw = half * abs(nrr) / span
        colour = PALETTE["good"] if nrr >= 0 else PALETTE["bad"]
        x = mid if nrr >= 0 else mid - bw
        body.append(
            f'<rect x="{x:.1f}" y="{y - 11}" width="{max(bw, 1):.1f}" height="13" fill="{colour}"/>'
        )
        lx, anchor = (mid + bw + 4, "start") if nrr >= 0 else (mid - bw - 4, "end")
        body.append(_text(lx, y, f"{nrr:+.3f}", anchor, 12))
    desc = "; ".join(f"{p}. {t} {pts} points, net run rate {n:+.3f}" for p, t, pts, n in rows)
    return _svg(uid, w, h, "League table with net run rate", desc or "No matches yet.", body)


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One knockout tie for the bracket: its round, label, the two sides and the winner."""

    round: int
    label: str
    home: str
    away: str
    winner: str | None


def _round_title(ties: Sequence[BracketMatch], round_: int) -> str:
    """``Semi-finals`` for "Semi-final 1/2", ``Round 1`` for "Round 1 match 3", ``Final``."""
    if not ties:
        return f"Round {round_}"
    label = ties[0].label
    if len(ties) == 1:
        return label
    if " match " in label:
        return label.split(" match ")[0]
    head, _, tail = label.rpartition(" ")
    return f"{head}s" if tail.isdigit() and head else label


def bracket(uid: str, matches: Sequence[BracketMatch], rounds: int) -> str:
    """The knockout draw: one column per round, each tie a box, the winner in bold."""
    by_round = [[m for m in matches if m.round == r] for r in range(1, rounds + 1)]
    most = max([len(r) for r in by_round] + [1])
    col = 200
    box_h, gap = 44, 16
    w = 20 + col * rounds
    h = 30 + most * (box_h + gap)
    body: list[str] = []
    desc = []
    for r, ties in enumerate(by_round):
        x = 10 + col * r
        body.append(_text(x + 4, 16, _round_title(ties, r + 1), bold=True, size=12))
        slot = (h - 30) / max(len(ties), 1)
        for k, m in enumerate(ties):
            y = 26 + slot * k + (slot - box_h) / 2
            body.append(
                f'<rect x="{x}" y="{y:.1f}" width="{col - 24}" height="{box_h}" '
                f'fill="{PALETTE["head"]}" stroke="{PALETTE["rule"]}"/>'
            )
            for j, side in enumerate((m.home, m.away)):
                won = m.winner is not None and side == m.winner
                body.append(_text(x + 6, y + 17 + 20 * j, _short(side, 22), bold=won, size=12))
            if r + 1 < rounds:
                cy = y + box_h / 2
                body.append(
                    f'<line x1="{x + col - 24}" y1="{cy:.1f}" x2="{x + col - 10}" '
                    f'y2="{cy:.1f}" stroke="{PALETTE["rule"]}"/>'
                )
            desc.append(
                f"{m.label}: {m.home} v {m.away}"
                + (f", won by {m.winner}" if m.winner else ", to be played")
            )
    return _svg(uid, w, h, "Knockout bracket", "; ".join(desc) + ".", body)
