"""The season's and the careers' leaders: the top ten of each table (batting, bowling,
highest scores, best bowling, sixes, catches), from the tallies of :mod:`.stats`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.flungo.state import MatchState
from pbm.games.flungo.zine.links import player_href
from pbm.games.flungo.zine.matches import figure
from pbm.games.flungo.zine.stats import PlayerRecord, Tally, rates, tally_matches
from pbm.games.flungo.zine.views import StatTable

__all__ = ["career_tally", "leaders"]


def leaders(tally: Tally, season: str) -> tuple[StatTable, ...]:
    recs = tally.sorted()
    if not recs:
        return ()
    rt = rates(recs)
    idx = range(len(recs))

    def who(r: PlayerRecord) -> str:
        return f"{r.name} ({r.team})"

    def table(
        title: str, headers: tuple[str, ...], order: list[int], cells: Any, widths: tuple[int, ...]
    ) -> StatTable:
        rows = tuple(cells(k) for k in order[:10])
        return StatTable(
            title,
            headers,
            rows,
            tuple(player_href(recs[k].team, recs[k].name) for k in order[:10]),
            (False, *([True] * (len(headers) - 1))),
            widths,
        )

    bat = sorted((k for k in idx if recs[k].innings), key=lambda k: (-recs[k].runs, recs[k].key))
    bowl = sorted(
        (k for k in idx if recs[k].bowl_balls),
        key=lambda k: (-recs[k].wickets, recs[k].conceded, recs[k].key),
    )
    high = sorted(
        (k for k in idx if recs[k].innings),
        key=lambda k: (-recs[k].high, not recs[k].high_not_out, recs[k].key),
    )
    best = sorted(
        (k for k in idx if recs[k].bowl_balls),
        key=lambda k: (-recs[k].best_w, recs[k].best_r, recs[k].key),
    )
    sixes = sorted((k for k in idx if recs[k].sixes), key=lambda k: (-recs[k].sixes, recs[k].key))
    catches = sorted(
        (k for k in idx if recs[k].catches + recs[k].stumpings),
        key=lambda k: (-(recs[k].catches + recs[k].stumpings), recs[k].key),
    )
    return (
        table(
            f"{season}Batting",
            ("Batsman", "M", "Inn", "NO", "Runs", "HS", "Avg", "SR"),
            bat,
            lambda k: (
                who(recs[k]),
                str(recs[k].matches),
                str(recs[k].innings),
                str(recs[k].not_outs),
                str(recs[k].runs),
                recs[k].high_text,
                figure(rt.batting_average[k]),
                figure(rt.strike_rate[k], 1),
            ),
            (30, 3, 4, 3, 5, 5, 6, 6),
        ),
        table(
            f"{season}Bowling",
            ("Bowler", "O", "M", "R", "W", "Best", "Avg", "Econ", "SR"),
            bowl,
            lambda k: (
                who(recs[k]),
                recs[k].overs_text,
                str(recs[k].maidens),
                str(recs[k].conceded),
                str(recs[k].wickets),
                recs[k].best_text,
                figure(rt.bowling_average[k]),
                figure(rt.economy[k]),
                figure(rt.bowling_strike_rate[k], 1),
            ),
            (26, 5, 3, 4, 3, 5, 6, 5, 5),
        ),
        table(
            f"{season}Highest scores",
            ("Batsman", "HS", "Balls faced"),
            high,
            lambda k: (who(recs[k]), recs[k].high_text, str(recs[k].balls)),
            (50, 6, 11),
        ),
        table(
            f"{season}Best bowling",
            ("Bowler", "Best", "Wickets"),
            best,
            lambda k: (who(recs[k]), recs[k].best_text, str(recs[k].wickets)),
            (50, 6, 8),
        ),
        table(
            f"{season}Most sixes",
            ("Batsman", "6s", "4s"),
            sixes,
            lambda k: (who(recs[k]), str(recs[k].sixes), str(recs[k].fours)),
            (56, 4, 4),
        ),
        table(
            f"{season}Catches",
            ("Fielder", "Ct", "St"),
            catches,
            lambda k: (who(recs[k]), str(recs[k].catches), str(recs[k].stumpings)),
            (56, 4, 4),
        ),
    )


def career_tally(seasons: Sequence[tuple[str, Sequence[MatchState]]]) -> Tally:
    """Career records: every season's tally added up per (team, name)."""
    career = Tally()
    for season, matches in seasons:
        for rec in tally_matches(matches, season).records.values():
            mine = career.get(rec.team, rec.name, rec.balls_per_over)
            mine.add(rec)
    return career
