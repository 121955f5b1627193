"""The Cricsheet export reads back, by Cricsheet's counting rules, to the scorecard's totals."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.flungo.cricsheet import cricsheet_names, to_cricsheet
from engine.flungo.formats import Format
from engine.flungo.ground import Conditions
from engine.flungo.match import MatchSetup, MatchState, play_match
from engine.flungo.orders import BattingStyle, MatchOrders
from engine.flungo.scorecard import cards
from engine.flungo.squad import generate_squad
from tests.engine.flungo.helpers import setup

NOT_DISMISSALS = {"retired hurt", "retired not out"}
NOT_BOWLERS = NOT_DISMISSALS | {"run out", "obstructing the field", "handled the ball"}


def read_back(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Count an exported match the way Cricsheet users do (../shared/cricsheet/README.md)."""
    out = []
    for inn in doc["innings"]:
        runs = wickets = legal = 0
        bat: dict[str, list[int]] = {}
        bowl: dict[str, list[int]] = {}
        for over in inn["overs"]:
            for d in over["deliveries"]:
                extras = d.get("extras", {})
                runs += d["runs"]["total"]
                b = bat.setdefault(d["batter"], [0, 0, 0, 0])
                w = bowl.setdefault(d["bowler"], [0, 0, 0])
                b[0] += d["runs"]["batter"]
                if "wides" not in extras:
                    b[1] += 1
                if d["runs"]["batter"] in (4, 6) and not d["runs"].get("non_boundary"):
                    b[2 if d["runs"]["batter"] == 4 else 3] += 1
                if "wides" not in extras and "noballs" not in extras:
                    legal += 1
                    w[0] += 1
                w[1] += d["runs"]["batter"] + extras.get("wides", 0) + extras.get("noballs", 0)
                for wk in d.get("wickets", []):
                    if wk["kind"] not in NOT_DISMISSALS:
                        wickets += 1
                    if wk["kind"] not in NOT_BOWLERS:
                        w[2] += 1
        out.append(
            {
                "team": inn["team"],
                "super_over": inn.get("super_over", False),
                "runs": runs,
                "wickets": wickets,
                "legal": legal,
                "bat": bat,
                "bowl": bowl,
            }
        )
    return out


def check(state: MatchState) -> None:
    doc = json.loads(json.dumps(to_cricsheet(state)))
    counted = read_back(doc)
    exported = cricsheet_names(state)
    assert len(counted) == len(state.innings)
    for c, card, inn in zip(counted, cards(state), state.innings, strict=True):
        bat = {n: e for (side, n), e in exported.items() if side == inn.batting_side}
        bowl = {n: e for (side, n), e in exported.items() if side != inn.batting_side}
        assert (c["team"], c["super_over"]) == (card.batting_team, card.super_over)
        assert (c["runs"], c["wickets"], c["legal"]) == (card.runs, card.wickets, card.legal_balls)
        for line in card.batting:
            if line.how_out != "did not bat":
                got = c["bat"].get(bat.get(line.name, line.name), [0, 0, 0, 0])
                assert got == [line.runs, line.balls, line.fours, line.sixes]
        for bw in card.bowling:
            assert c["bowl"][bowl.get(bw.name, bw.name)] == [bw.balls, bw.runs, bw.wickets]


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    fmt=st.sampled_from(list(Format)),
    style=st.sampled_from(list(BattingStyle)),
)
def test_export_reads_back_to_scorecard_totals(seed: int, fmt: Format, style: BattingStyle) -> None:
    """The export counted by Cricsheet's rules gives every innings' scorecard figures."""
    s = setup(fmt, seed, knockout=True)
    home = MatchOrders(styles=tuple((p.name, style) for p in s.home.players))
    check(play_match(s, home).state)


def test_export_of_tie_hurt_and_super_over() -> None:
    """Super overs, a tie's eliminator and retired hurt are exported as Cricsheet does."""
    tied = play_match(setup(Format.T20, 7, knockout=True)).state
    doc = to_cricsheet(tied)
    assert doc["info"]["outcome"]["result"] == "tie" and "eliminator" in doc["info"]["outcome"]
    assert [i.get("super_over", False) for i in doc["innings"]][2:] == [True, True]
    check(tied)
    hurt = play_match(setup(Format.T20, 8)).state
    kinds = [
        w["kind"]
        for inn in to_cricsheet(hurt)["innings"]
        for o in inn["overs"]
        for d in o["deliveries"]
        for w in d.get("wickets", [])
    ]
    assert "retired hurt" in kinds
    check(hurt)


def _real_file() -> dict[str, Any]:
    for parent in Path(__file__).resolve().parents:
        z = parent / "shared" / "cricsheet" / "t20s_json.zip"
        if z.exists():
            with zipfile.ZipFile(z) as zf:
                return dict(json.loads(zf.read("1144172.json")))
    raise AssertionError("../shared/cricsheet/t20s_json.zip not found above the checkout")


def test_export_uses_cricsheet_keys() -> None:
    """The export only uses keys that a real Cricsheet file (a tied T20I) uses."""
    real = _real_file()
    ours = to_cricsheet(play_match(setup(Format.T20, 7, knockout=True)).state)
    assert set(ours) == set(real)
    assert set(ours["info"]) <= set(real["info"]) | {"event", "season"}
    real_inn_keys = set().union(*(set(i) for i in real["innings"])) | {"target"}
    assert all(set(i) <= real_inn_keys | {"target"} for i in ours["innings"])
    real_delivery_keys = {"batter", "bowler", "non_striker", "runs", "extras", "wickets"}
    for inn in ours["innings"]:
        for over in inn["overs"]:
            assert set(over) == {"over", "deliveries"}
            for d in over["deliveries"]:
                assert set(d) <= real_delivery_keys
                assert set(d["runs"]) <= {"batter", "extras", "total", "non_boundary"}


def test_same_name_in_both_teams_gets_two_people() -> None:
    """Both squads' "Batsman 1" (one celebrity, two replicas) are two people in the export:
    two names, two registry ids, and each side's deliveries name its own."""
    s = MatchSetup(
        Format.T20,
        5,
        Conditions("The Gunge Bowl", 3, 1),
        generate_squad(Dice(1), "Gunge Giants"),
        generate_squad(Dice(2), "Snodge Stars"),
    )
    state = play_match(s).state
    doc = to_cricsheet(state)
    home, away = s.home.name, s.away.name
    people = doc["info"]["registry"]["people"]
    shared = set(state.selections[0].xi) & set(state.selections[1].xi)
    assert shared
    for name in shared:
        a, b = f"{name} ({home})", f"{name} ({away})"
        assert people[a] != people[b]
        assert a in doc["info"]["players"][home] and b in doc["info"]["players"][away]
        assert name not in people
    for inn in doc["innings"]:
        mine = set(doc["info"]["players"][inn["team"]])
        for over in inn["overs"]:
            for d in over["deliveries"]:
                assert d["batter"] in mine and d["non_striker"] in mine
                assert d["bowler"] not in mine
    check(state)
