"""A decided match played again from what was published: its stages' reports
(:func:`replay`), or one JSON document holding the setup, the revealed seed and each stage's
orders (:func:`replay_document`, read by :func:`replay_from_document` and ``pbm verify``).
The seed opens its SHA-256 commitment (:func:`engine.flungo.stage.seed_commitment`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.flungo.codec import encode
from engine.flungo.match import play_turn, start_match
from engine.flungo.stage import MatchTurn, played_orders, seed_commitment
from engine.flungo.state import MatchSetup, MatchState
from engine.flungo.summary import CompetitionError

__all__ = ["REPLAY_VERSION", "Replayed", "replay", "replay_document", "replay_from_document"]


def replay(turns: Sequence[MatchTurn], seed: int | None = None) -> MatchState:
    """Play a match again from its stages' reports alone: the setup of the first (its
    selection), the revealed ``seed`` (or the last turn's), and each stage's ``played`` orders.
    Anyone holding the reports can check a result this way: it equals the match as played."""
    if not turns:
        raise CompetitionError("a replay needs the match's stages, from its selection on")
    seed = seed if seed is not None else turns[-1].seed
    if seed is None:
        raise CompetitionError(f"{turns[0].fixture_id}: the seed is revealed only once decided")
    if seed_commitment(seed) != turns[0].seed_sha256:
        raise CompetitionError(f"{turns[0].fixture_id}: that seed is not the one committed to")
    setup = replace(turns[0].state.setup, seed=seed)
    state = start_match(setup, *turns[0].played).state
    for t in turns[1:]:
        state = play_turn(state, *t.played).state
    return state


REPLAY_VERSION = 1


def _ball_log_sha256(state: MatchState) -> str:
    balls = [b.to_json() for inn in state.innings for b in inn.balls]
    text = json.dumps(balls, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def replay_document(turns: Sequence[MatchTurn]) -> dict[str, Any]:
    """Everything needed to play a decided match again, as one JSON document: the setup it
    started with (format, pitch and weather, both squads, knockout or not), the revealed seed
    and its commitment, each stage's orders as played, and the SHA-256 of the ball log and the
    result to compare with. :func:`replay_from_document` reads it; ``pbm verify FILE`` runs it."""
    last = turns[-1]
    if last.seed is None:
        raise CompetitionError(f"{last.fixture_id}: a match is replayed once it is decided")
    setup = turns[0].state.setup
    return {
        "replay": REPLAY_VERSION,
        "fixture_id": last.fixture_id,
        "label": last.label,
        "setup": encode(replace(setup, seed=last.seed)),
        "seed": last.seed,
        "seed_sha256": turns[0].seed_sha256,
        "stages": [[None if o is None else encode(o) for o in t.played] for t in turns],
        "result": last.state.result.text if last.state.result else "",
        "ball_log_sha256": _ball_log_sha256(last.state),
    }


@dataclass(frozen=True, slots=True)
class Replayed:
    """A replay's verdict: the match played again, whether the seed opens its commitment, and
    whether the ball log and result are the ones published."""

    state: MatchState
    commitment_ok: bool
    identical: bool


def replay_from_document(doc: Mapping[str, Any]) -> Replayed:
    """Play the match of a :func:`replay_document` again and compare it with what it says."""
    if doc.get("replay") != REPLAY_VERSION:
        raise CompetitionError(f"not a replay document of version {REPLAY_VERSION}")
    setup = MatchSetup.from_json(doc["setup"])
    seed = int(doc["seed"])
    setup = replace(setup, seed=seed)
    stages_played = [played_orders(pair) for pair in doc["stages"]]
    if not stages_played:
        raise CompetitionError("a replay needs at least the selection stage")
    state = start_match(setup, *stages_played[0]).state
    for home, away in stages_played[1:]:
        state = play_turn(state, home, away).state
    same = _ball_log_sha256(state) == doc["ball_log_sha256"] and (
        (state.result.text if state.result else "") == doc["result"]
    )
    return Replayed(state, seed_commitment(seed) == doc["seed_sha256"], same)
