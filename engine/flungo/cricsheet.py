"""Export a match to Cricsheet JSON (data version 1.1.0), so every Cricsheet tool can read it.

The shape follows the files in ``../shared/cricsheet`` (``meta``, ``info``, ``innings`` of
``overs`` of ``deliveries``). Flungo specifics: a 3-3 "all run four" carries
``runs.non_boundary``; a substitute fielder is ``{"name", "substitute": true}``; The Hundred is
exported with ``balls_per_over`` 5 (its sets as overs); super overs are innings with
``"super_over": true``, and a tie broken by them (or by boundaries, or a coin) has Cricsheet's
``{"result": "tie", "eliminator": ...}``. Registry ids are the first 8 hex digits of the SHA-256
of ``"team:name"``. The seed lets one celebrity play for both sides; Cricsheet knows a player by
name within a match (its registry maps a name to one person), so a name in both XIs is exported
as ``"Name (Team)"`` on each side (:func:`cricsheet_names`), and the two get two registry ids: a
reader never adds their figures together. ``created`` (and the match date) is a parameter
because the engine reads no clock; the default keeps exports byte-identical.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.flungo.events import Ball
from engine.flungo.formats import Format
from engine.flungo.match import MatchState

__all__ = ["cricsheet_names", "to_cricsheet"]

_EXTRA_KEY = {"wide": "wides", "no_ball": "noballs", "bye": "byes", "leg_bye": "legbyes"}
_MATCH_TYPE = {Format.T20: "T20", Format.HUNDRED: "T20", Format.FORTY: "ODM", Format.FIFTY: "ODM"}


def _person_id(team: str, name: str) -> str:
    return hashlib.sha256(f"{team}:{name}".encode()).hexdigest()[:8]


def cricsheet_names(state: MatchState) -> dict[tuple[int, str], str]:
    """The exported name of each (side, name) in the match: the name itself, or
    ``"Name (Team)"`` for a name both sides have (XI or substitutes)."""
    names = (state.setup.home.name, state.setup.away.name)
    people: list[set[str]] = [set(state.selections[0].xi), set(state.selections[1].xi)]
    for team, sub, _, _ in state.subs:
        people[0 if team == names[0] else 1].add(sub)
    both = people[0] & people[1]
    return {
        (side, n): f"{n} ({names[side]})" if n in both else n
        for side in (0, 1)
        for n in sorted(people[side])
    }


def _delivery(b: Ball, subs: set[str], bat: dict[str, str], bowl: dict[str, str]) -> dict[str, Any]:
    runs: dict[str, Any] = {"batter": b.runs, "extras": b.extra_runs, "total": b.total}
    if b.runs == 4 and not b.boundary:
        runs["non_boundary"] = True
    d: dict[str, Any] = {
        "batter": bat.get(b.striker, b.striker),
        "bowler": bowl.get(b.bowler, b.bowler),
        "non_striker": bat.get(b.non_striker, b.non_striker),
        "runs": runs,
    }
    if b.extra is not None:
        d["extras"] = {_EXTRA_KEY[b.extra]: b.extra_runs}
    if b.wicket is not None:
        out = None if b.player_out is None else bat.get(b.player_out, b.player_out)
        w: dict[str, Any] = {"kind": b.wicket, "player_out": out}
        if b.fielder is not None:
            fielder: dict[str, Any] = {"name": bowl.get(b.fielder, b.fielder)}
            if b.fielder in subs:
                fielder["substitute"] = True
            w["fielders"] = [fielder]
        d["wickets"] = [w]
    # Cricsheet puts keys in alphabetical order; so do we, for identical-looking files.
    return dict(sorted(d.items()))


def to_cricsheet(state: MatchState, created: str = "2000-01-01") -> dict[str, Any]:
    """The match as a Cricsheet JSON document (a dict ready for ``json.dumps``)."""
    setup = state.setup
    spec = setup.spec
    names = (setup.home.name, setup.away.name)
    subs = {s[1] for s in state.subs}
    exported = cricsheet_names(state)
    side_names = [{n: e for (sd, n), e in exported.items() if sd == side} for side in (0, 1)]
    people: dict[str, str] = {}
    for (side, n), e in exported.items():
        people.setdefault(e, _person_id(names[side], n))
    info: dict[str, Any] = {
        "balls_per_over": spec.balls_per_over,
        "dates": [created],
        "event": {"name": f"Cosmic Celebrity Cricket ({spec.title})"},
        "gender": "male",
        "match_type": _MATCH_TYPE[setup.format],
        "outcome": _outcome(state),
        "overs": spec.overs,
        "players": {names[i]: [side_names[i][n] for n in state.selections[i].xi] for i in (0, 1)},
        "registry": {"people": dict(sorted(people.items()))},
        "season": created[:4],
        "team_type": "club",
        "teams": list(names),
        "toss": {
            "decision": "bat"
            if state.selections[state.toss_winner].toss.value == "bat"
            else "field",
            "winner": names[state.toss_winner],
        },
        "venue": setup.conditions.pitch_name,
    }
    innings = []
    for inn in state.innings:
        overs: dict[int, list[dict[str, Any]]] = {}
        for b in inn.balls:
            bat, bowl = side_names[inn.batting_side], side_names[1 - inn.batting_side]
            overs.setdefault(b.over - 1, []).append(_delivery(b, subs, bat, bowl))
        entry: dict[str, Any] = {
            "team": names[inn.batting_side],
            "overs": [{"over": o, "deliveries": d} for o, d in sorted(overs.items())],
        }
        if inn.super_over:
            entry["super_over"] = True
        elif inn.target is not None:
            entry["target"] = {"overs": spec.overs, "runs": inn.target}
        innings.append(entry)
    return {
        "meta": {"data_version": "1.1.0", "created": created, "revision": 1},
        "info": info,
        "innings": innings,
    }


def _outcome(state: MatchState) -> dict[str, Any]:
    r = state.result
    if r is None:
        return {"result": "no result"}
    if r.winner is None:
        return {"result": "tie"}
    if r.super_over:
        return {"result": "tie", "eliminator": r.winner}
    by = {"runs": r.runs} if r.runs else {"wickets": r.wickets}
    return {"by": by, "winner": r.winner}
