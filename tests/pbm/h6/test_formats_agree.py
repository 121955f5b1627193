"""The JSON and csv2 readers count the same match identically."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.games.hitforsix.decks.cricsheet import discover_sources, iter_matches
from pbm.games.hitforsix.decks.tally import Tally
from tests.pbm.h6.cricsheet_fixtures import ball, csv2_match, json_match

INDIA = ["A Bat", "B Bowl"]
NEPAL = ["C Cat", "D Dog"]
FIELDS = ("matches", "runs", "dismissals", "balls_faced", "fours", "sixes")
FIELDS += ("balls_bowled", "runs_conceded", "wickets")
KINDS = ["bowled", "caught", "run out", "retired hurt", "retired out", "lbw", "stumped"]

deliveries = st.lists(
    st.tuples(
        st.sampled_from(INDIA),
        st.sampled_from(NEPAL),
        st.sampled_from([0, 1, 2, 3, 4, 6]),
        st.sampled_from(["", "wides", "noballs", "legbyes"]),
        st.one_of(st.none(), st.sampled_from(KINDS)),
    ),
    min_size=1,
    max_size=30,
)


def as_json(balls: list[tuple[str, str, int, str, str | None]]) -> dict[str, Any]:
    ds = [
        ball(
            bat,
            bowl,
            0 if extra == "wides" else runs,
            **({extra: 1} if extra else {}),
            out=(kind, bat) if kind else None,
        )
        for bat, bowl, runs, extra, kind in balls
    ]
    return json_match({"India": INDIA, "Nepal": NEPAL}, [("India", ds, False)], date="2021-01-01")


def as_csv2(balls: list[tuple[str, str, int, str, str | None]]) -> tuple[str, str]:
    rows = [
        {
            "innings": 1,
            "striker": bat,
            "bowler": bowl,
            "runs_off_bat": 0 if extra == "wides" else runs,
            "extras": 1 if extra else 0,
            **({extra: 1} if extra else {}),
            **({"wicket_type": kind, "player_dismissed": bat} if kind else {}),
        }
        for bat, bowl, runs, extra, kind in balls
    ]
    return csv2_match("2001", {"India": INDIA, "Nepal": NEPAL}, rows, date="2021-01-01")


def careers(root: Path) -> dict[str, tuple[int, ...]]:
    tally = Tally()
    for match in iter_matches(discover_sources(root)):
        tally.add(match)
    return {pid: tuple(getattr(c, f) for f in FIELDS) for (_, _, pid), c in tally.careers.items()}


@settings(
    max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(deliveries)
def test_json_and_csv2_give_the_same_careers(
    tmp_path_factory: Any, balls: list[tuple[str, str, int, str, str | None]]
) -> None:
    """Any innings written both ways (no all-run fours, which csv2 cannot mark) counts alike."""
    json_dir = tmp_path_factory.mktemp("json")
    csv2_dir = tmp_path_factory.mktemp("csv2")
    with zipfile.ZipFile(json_dir / "t20s_json.zip", "w") as zf:
        zf.writestr("2001.json", json.dumps(as_json(balls)))
    info, rows = as_csv2(balls)
    with zipfile.ZipFile(csv2_dir / "t20s_csv2.zip", "w") as zf:
        zf.writestr("2001_info.csv", info)
        zf.writestr("2001.csv", rows)
    from_json = careers(json_dir)
    assert from_json == careers(csv2_dir)
    wides = sum(1 for b in balls if b[3] == "wides")
    assert sum(v[3] for v in from_json.values()) == len(balls) - wides
