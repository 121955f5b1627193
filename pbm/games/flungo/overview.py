"""A competition as JSON (``pbm gm show --json``) and the replay of a finished match from its
revealed seed and the orders as played (``pbm verify``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.flungo.competition import champion, fixture_teams, result_of, standings
from engine.flungo.match import play_turn, start_match
from engine.flungo.squad import Team
from engine.flungo.state import MatchState
from engine.flungo.turn import (
    SeasonState,
    TurnReport,
    seed_commitment,
    standing_part,
    turn_orders,
)
from pbm.core.errors import GameError, NotFound
from pbm.db.models import Competition, Player, Turn, TurnStatus
from pbm.games.flungo.turns import current_turn, played_orders, season_of, stage_of

__all__ = ["Verified", "competition_json", "verify_match"]


def competition_json(session: Session, comp: Competition) -> dict[str, Any]:
    """Phase, the stage taking orders, every fixture with its result, standings, champion."""
    state = season_of(comp)
    turn = current_turn(session, comp)
    teams = []
    for seat in comp.seats:
        player = session.get(Player, seat.player_id)
        teams.append(
            {
                "seat": seat.number,
                "team": Team.from_json(seat.team).name,
                "manager": player.address if player else None,
                "named": seat.named,
                "retired": seat.retired and not seat.house,
                "house": seat.house,
            }
        )
    out: dict[str, Any] = {
        "code": comp.code,
        "name": comp.name,
        "kind": comp.kind,
        "format": comp.format,
        "phase": comp.status,
        "held": comp.hold_reason,
        "schedule": comp.schedule,
        "issue": comp.issue,
        "teams": teams,
        "turn": None,
        "fixtures": [],
        "standings": [],
        "champion": None,
    }
    if turn is not None:
        stage = stage_of(turn)
        out["turn"] = {
            "key": stage.key,
            "label": stage.label,
            "round": stage.round,
            "turn": stage.turn,
            "selection": stage.selection,
            "status": turn.status,
            "deadline": turn.deadline.isoformat(),
        }
    if state is not None:
        ec = state.competition
        for f in ec.fixtures:
            home, away = fixture_teams(ec, f.id)
            r = result_of(ec, f.id)
            out["fixtures"].append(
                {
                    "id": f.id,
                    "round": f.round,
                    "label": f.label,
                    "home": home,
                    "away": away,
                    "pitch": f.pitch_name,
                    "conditions": {
                        "pitch": f.conditions.pitch.name,
                        "weather": f.conditions.weather.name,
                    },
                    "result": None if r is None else {"winner": r.winner, "text": r.result_text()},
                }
            )
        out["standings"] = [row.to_json() for row in standings(ec)]
        out["champion"] = champion(ec)
    return out


@dataclass(frozen=True, slots=True)
class Verified:
    """A replay: the fixture, whether the seed matches its commitment, and whether the replayed
    ball log equals the one played."""

    fixture_id: str
    seed: int
    commitment_ok: bool
    balls: int
    identical: bool
    result: str


def verify_match(session: Session, comp: Competition, fixture_id: str) -> Verified:
    """Replay ``fixture_id`` with :func:`engine.flungo.match.start_match`/``play_turn`` from
    its revealed seed, the squads it started with and each stage's orders as played; raises
    :class:`NotFound` if there is no such finished match."""
    turns = list(
        session.scalars(
            select(Turn)
            .where(Turn.competition_id == comp.id, Turn.status == TurnStatus.DONE)
            .order_by(Turn.position)
        )
    )
    played: list[tuple[Turn, TurnReport]] = []
    final = None
    commitment = ""
    for t in turns:
        if t.report is None:
            continue
        report = TurnReport.from_text(t.report)
        for m in report.matches:
            if m.fixture_id == fixture_id:
                played.append((t, report))
                commitment = m.seed_sha256
                if m.seed is not None:
                    final = m
    if final is None or final.seed is None:
        raise NotFound(f"{comp.code} has no finished match {fixture_id}")
    first_turn, _ = played[0]
    if not first_turn.selection:
        raise GameError(f"{fixture_id}: its selection stage is missing")
    setup = replace(played[0][1].matches[0].state.setup, seed=final.seed)
    for m in played[0][1].matches:
        if m.fixture_id == fixture_id:
            setup = replace(m.state.setup, seed=final.seed)
    names = (setup.home.name, setup.away.name)
    state: MatchState | None = None
    for t, _report in played:
        assert t.state_before is not None and t.orders is not None
        before = SeasonState.from_text(t.state_before)
        orders = played_orders(before, t.orders["teams"])
        home, away = (orders.get(n) for n in names)
        if t.selection:
            state = start_match(
                setup, home.match if home else None, away.match if away else None
            ).state
        else:
            assert state is not None
            # what the match received: what changed in each side's orders since the stage
            # before, as the resolver gave it (see engine.flungo.turn.turn_orders)
            [live] = [m for m in before.live if m.fixture_id == fixture_id]
            now = (standing_part(home), standing_part(away))
            state = play_turn(state, *turn_orders(live.standing, now)).state
    assert state is not None
    balls_a = [b for inn in state.innings for b in inn.balls]
    balls_b = [b for inn in final.state.innings for b in inn.balls]
    return Verified(
        fixture_id,
        final.seed,
        seed_commitment(final.seed) == commitment,
        len(balls_a),
        balls_a == balls_b and state.result == final.state.result,
        final.state.result.text if final.state.result else "",
    )
