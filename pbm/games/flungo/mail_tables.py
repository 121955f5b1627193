"""The tables of Cosmic Celebrity Cricket's mail as rows of cells, for the HTML twin.

The text part keeps its fixed-width tables (a fixed-font reader lines them up); the HTML part
sets the same figures as a cricket site does, from these rows: a proportional font scatters
the text's columns over two lines a row.
"""

from __future__ import annotations

from typing import Any

from engine.flungo.competition import Competition as EngineCompetition
from engine.flungo.competition import standings
from engine.flungo.scorecard import CLOSED_TEXT, cards, length_text, super_over_name
from engine.flungo.state import MatchState

__all__ = ["SQUAD_HEADERS", "STANDINGS_HEADERS", "innings_rows", "squad_cells", "standings_rows"]

#: A phone's width holds seven short columns: the text's "For" and "Against" stay in the text.
STANDINGS_HEADERS = ["Pos", "Team", "P", "W", "L", "T", "Pts", "NRR"]
SQUAD_HEADERS = ["#", "Player", "Role (style)", "Bat", "Bowl", "Fld"]


def standings_rows(comp: EngineCompetition) -> list[list[str]]:
    """The table as rows of :data:`STANDINGS_HEADERS`'s cells."""
    return [
        [str(r.position), r.team, str(r.played), str(r.won), str(r.lost), str(r.tied),
         str(r.points), r.nrr_text]
        for r in standings(comp)
    ]  # fmt: skip


def squad_cells(rows: list[dict[str, Any]]) -> list[list[str]]:
    """Squad rows (``squad_rows``) as rows of :data:`SQUAD_HEADERS`'s cells."""
    return [
        [str(r["slot"]), str(r["name"]), f"{r['role']} ({r['style']})", str(r["batting"]),
         str(r["bowling"]), str(r["fielding"])]
        for r in rows
    ]  # fmt: skip


def innings_rows(state: MatchState) -> dict[str, Any]:
    """The match as the HTML scorecard sets it: its heading lines, then each innings' batting
    and bowling as rows of cells, with extras, total and the fall of wickets as lines."""
    setup = state.setup
    cond = setup.conditions
    head = [
        f"{setup.spec.title}: {setup.home.name} v {setup.away.name}",
        f"{cond.pitch_name}: pitch {cond.pitch.name}, weather {cond.weather.name}",
        *(e.text for e in state.log if e.kind.value == "toss"),
    ]
    innings = []
    for card in cards(state):
        title = f"{super_over_name(card.balls_per_over)}: " if card.super_over else ""
        e = card.extras
        innings.append(
            {
                "title": f"{title}{card.batting_team} innings",
                "batting": [
                    [b.name, b.how_out, str(b.runs), str(b.balls), str(b.fours), str(b.sixes)]
                    for b in card.batting
                    if b.how_out != "did not bat"
                ],
                "dnb": [b.name for b in card.batting if b.how_out == "did not bat"],
                "extras": f"{sum(e.values())} (w {e['wides']}, nb {e['no_balls']}, "
                f"b {e['byes']}, lb {e['leg_byes']})",
                "total": f"{card.runs}/{card.wickets} "
                f"({length_text(card.legal_balls, card.balls_per_over)}; "
                f"{CLOSED_TEXT[card.closed]})",
                "fow": ", ".join(
                    f"{f['wicket']}-{f['runs']} ({f['player']}, {f['over']})"
                    for f in card.fall_of_wickets
                ),
                "bowling": [
                    [w.name, w.overs, str(w.maidens), str(w.runs), str(w.wickets)]
                    for w in card.bowling
                ],
            }
        )
    return {"head": head, "innings": innings}
