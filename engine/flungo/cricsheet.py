"""Export a match to Cricsheet JSON (data version 1.1.0), so every Cricsheet tool can read it.

The shape follows the files in ``../shared/cricsheet`` (``meta``, ``info``, ``innings`` of
``overs`` of ``deliveries``). Flungo specifics: a 3-3 "all run four" carries
``runs.non_boundary``; a substitute fielder is ``{"name", "substitute": true}``; The Hundred is
exported with ``balls_per_over`` 5 (its sets as overs); super overs are innings with
``"super_over": true``, and a tie broken by them (or by boundaries, or a coin) has Cricsheet's
``{"result": "tie", "eliminator": ...}``. Registry ids are the first 8 hex digits of the SHA-256
of ``"team:name"``. ``created`` (and the match date) is a parameter because the engine reads no
clock; the default keeps exports byte-identical.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.flungo.events import Ball
from engine.flungo.formats import Format
from engine.flungo.match import MatchState

__all__ = ["to_cricsheet"]

_EXTRA_KEY = {"wide": "wides", "no_ball": "noballs", "bye": "byes", "leg_bye": "legbyes"}
_MATCH_TYPE = {Format.T20: "T20", Format.HUNDRED: "T20", Format.FORTY: "ODM", Format.FIFTY: "ODM"}


def _person_id(team: str, name: str) -> str:
    return hashlib.sha256(f"{team}:{name}".encode()).hexdigest()[:8]


def _delivery(b: Ball, subs: set[str]) -> dict[str, Any]:
    runs: dict[str, Any] = {"batter": b.runs, "extras": b.extra_runs, "total": b.total}
    if b.runs == 4 and not b.boundary:
        runs["non_boundary"] = True
    d: dict[str, Any] = {
        "batter": b.striker,
        "bowler": b.bowler,
        "non_striker": b.non_striker,
        "runs": runs,
    }
    if b.extra is not None:
        d["extras"] = {_EXTRA_KEY[b.extra]: b.extra_runs}
    if b.wicket is not None:
        w: dict[str, Any] = {"kind": b.wicket, "player_out": b.player_out}
        if b.fielder is not None:
            fielder: dict[str, Any] = {"name": b.fielder}
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
    people: dict[str, str] = {}
    for side, sel in enumerate(state.selections):
        for n in sel.xi:
            people.setdefault(n, _person_id(names[side], n))
    for team, sub, _, _ in state.subs:
        people.setdefault(sub, _person_id(team, sub))
    info: dict[str, Any] = {
        "balls_per_over": spec.balls_per_over,
        "dates": [created],
        "event": {"name": f"Cosmic Celebrity Cricket ({spec.title})"},
        "gender": "male",
        "match_type": _MATCH_TYPE[setup.format],
        "outcome": _outcome(state),
        "overs": spec.overs,
        "players": {names[i]: list(state.selections[i].xi) for i in (0, 1)},
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
            overs.setdefault(b.over - 1, []).append(_delivery(b, subs))
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
