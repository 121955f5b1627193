"""A large stage split by match across workers on one PostgreSQL: every match resolved once,
the stage completed once with the report one worker would have made, and a dead worker's
claim retaken after its lease.

Each worker is a thread with its own :class:`~pbm.app.App` (engine and pool), as separate
``pbm serve`` processes would be (the bench runs processes: the GIL); they start on a barrier.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select, update

from pbm.app import App
from pbm.clock import FixedClock
from pbm.config import Config
from pbm.db.models import (
    Competition,
    Event,
    OutboxMessage,
    Player,
    Seat,
    Turn,
    TurnMatch,
    TurnStatus,
)
from pbm.db.session import transaction
from pbm.flungo import turns
from pbm.flungo.competitions import base_squad, create_competition
from tests.pbm.conftest import fresh_pg_database, make_config

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
TEAMS = 16  # a knockout: 8 matches a stage in its first round


def _split_config(config: Config, batch: int) -> Config:
    return replace(
        config,
        turns=replace(config.turns, split_matches=4, match_batch=batch, match_lease_seconds=60),
    )


def _knockout(app: App, code: str = "KO") -> None:
    """A 16-team knockout, drawn, its selection stage resolved (in one piece), Turn 1 due."""
    clock = app.clock
    assert isinstance(clock, FixedClock)
    with transaction(app.sessions) as s:
        comp = create_competition(
            s,
            clock,
            code=code,
            name="Big Knockout",
            fmt="t20",
            teams=TEAMS,
            naming_deadline=START + timedelta(days=1),
            seed=f"{code}-seed",
            kind="knockout",
            schedule="every 1h",
            settings={"hold_share": 1.0, "reminders": [], "early": 0},
        )
        for n in range(1, TEAMS + 1):
            player = Player(address=f"p{n}@example.test", created_at=clock.now())
            s.add(player)
            s.flush()
            team = replace(base_squad(comp, n), name=f"Side {n}")
            s.add(
                Seat(
                    competition_id=comp.id,
                    player_id=player.id,
                    number=n,
                    secret_hash="",
                    secret_version=1,
                    team=team.to_json(),
                    named=True,
                    naming_version=1,
                    joined_at=clock.now(),
                )
            )
        s.flush()
        s.refresh(comp)
        turns.start_competition(s, app.config, clock, comp)
    clock.advance(timedelta(hours=1, seconds=1))
    whole = replace(app.config, turns=replace(app.config.turns, split_matches=0))
    assert turns.tick(app.sessions, whole, clock) == 2  # selection: frozen, resolved whole
    clock.advance(timedelta(hours=1, seconds=1))  # Turn 1 is due


def _t1(app: App) -> Turn:
    with transaction(app.sessions) as s:
        return s.scalars(select(Turn).where(Turn.stage_key == "T1")).one()


def _check_once(app: App, code: str = "KO") -> Turn:
    """Turn 1 done once: one resolved event, one report mail per team, the same report and
    season as one resolver gives (``pbm gm rerun``), every match done."""
    with transaction(app.sessions) as s:
        comp = s.scalars(select(Competition).where(Competition.code == code)).one()
        t1 = s.scalars(select(Turn).where(Turn.stage_key == "T1")).one()
        assert t1.status == TurnStatus.DONE and t1.issue == 2
        resolved = s.scalars(select(Event).where(Event.kind == "turn-resolved")).all()
        assert [e.data["stage"] for e in resolved] == ["R1-select", "T1"]
        reports = s.scalar(
            select(func.count()).where(
                OutboxMessage.kind == "turn-report", OutboxMessage.subject.contains("Turn 1")
            )
        )
        assert reports == TEAMS, reports
        verdict = turns.rerun(s, comp, "T1")
        assert verdict.identical, verdict
        rows = s.scalars(select(TurnMatch).where(TurnMatch.turn_id == t1.id)).all()
        assert len(rows) == TEAMS // 2 and {r.status for r in rows} == {"done"}
        assert all(r.result is None and r.job == "" for r in rows)  # the report keeps them
        return t1


def test_a_split_turn_is_resolved_by_several_workers_once(pg_url: str, tmp_path: Path) -> None:
    """Four workers' passes on a due 8-match stage: one freezes and splits it, all claim
    matches, each match is resolved once (one attempt, one result), the stage completes once
    with the single-resolver report, and more than one worker resolved matches."""
    url = fresh_pg_database(pg_url)
    config = _split_config(make_config(url, tmp_path), batch=1)
    first = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(first)
    apps = [first] + [App.from_config(config, FixedClock(first.clock.now())) for _ in range(3)]
    barrier = threading.Barrier(len(apps))
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        barrier.wait()
        try:
            for _ in range(400):
                turns.tick(apps[i].sessions, config, apps[i].clock, f"w{i}")
                if _t1(apps[i]).status == TurnStatus.DONE:
                    return
                time.sleep(0.01)
            raise AssertionError("Turn 1 was not resolved")
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(apps))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    t1 = _check_once(first)
    with transaction(first.sessions) as s:
        rows = s.scalars(select(TurnMatch).where(TurnMatch.turn_id == t1.id)).all()
        split = s.scalars(select(Event).where(Event.kind == "turn-split")).all()
    assert [r.attempts for r in rows] == [1] * len(rows)
    assert all(r.resolved_by == r.claimed_by for r in rows)
    by = Counter(r.resolved_by for r in rows)
    assert len(by) >= 2, by
    assert [e.data["matches"] for e in split] == [TEAMS // 2]
    for a in apps:
        a.close()


def test_a_dead_workers_claim_is_retaken_after_its_lease(pg_url: str, tmp_path: Path) -> None:
    """A worker claims three matches and dies (its claim abandoned): another worker resolves
    the rest but cannot finish the stage, nor take the claimed matches, until the lease
    passes; then it retakes them and the stage completes once, with the one-resolver report."""
    url = fresh_pg_database(pg_url)
    config = _split_config(make_config(url, tmp_path), batch=3)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    clock = app.clock
    assert isinstance(clock, FixedClock)
    assert turns.tick(app.sessions, config, clock, matches=False) == 1  # frozen and split
    dead = turns.claim_matches(app.sessions, config, clock, "dead")
    assert len(dead) == 3
    assert turns.tick(app.sessions, config, clock, "live") == 2  # the other 5 matches
    assert _t1(app).status == TurnStatus.FROZEN
    clock.advance(timedelta(seconds=59))
    assert turns.tick(app.sessions, config, clock, "live") == 0  # still under the lease
    with transaction(app.sessions) as s:
        wake = turns.next_wakeup(s, config, clock.now())
    assert wake is not None and wake <= clock.now() + timedelta(seconds=2)  # the lease's end
    clock.advance(timedelta(seconds=2))
    assert turns.tick(app.sessions, config, clock, "live") == 1  # the dead worker's three
    t1 = _check_once(app)
    with transaction(app.sessions) as s:
        rows = s.scalars(select(TurnMatch).where(TurnMatch.turn_id == t1.id)).all()
    retaken = {c.row_id for c in dead}
    assert {r.id for r in rows if r.attempts == 2} == retaken
    assert {r.resolved_by for r in rows} == {"live"}
    # The dead worker comes back late with its results: nothing is stored twice or redone.
    turns.store_results(app.sessions, config, clock, "dead", dead)
    with transaction(app.sessions) as s:
        assert s.scalar(select(func.count()).where(TurnMatch.resolved_by == "dead")) == 0
        s.execute(update(Turn).where(Turn.id == t1.id).values(note="checked"))
    _check_once(app)
    app.close()


def test_a_split_turn_on_sqlite_resolves_in_one_pass(tmp_path: Path) -> None:
    """One daemon on SQLite: the split stage's matches are all worked in the pass that froze
    it, and the report is the one-resolver report."""
    config = _split_config(make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), batch=3)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    assert turns.tick(app.sessions, config, app.clock) == 1 + 3  # the freeze, 3 batches of 3
    _check_once(app)
    app.close()


def test_a_match_that_fails_to_resolve_stops_neither_the_worker_nor_the_rest(
    tmp_path: Path,
) -> None:
    """A corrupt job (a bug, in the field) is logged and left claimed: the pass goes on, the
    other matches are stored, and the stage waits, frozen, for that one (retried after the
    lease), rather than being assembled without it."""
    config = _split_config(make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), batch=3)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    assert turns.tick(app.sessions, config, app.clock, matches=False) == 1  # frozen and split
    with transaction(app.sessions) as s:
        s.execute(update(TurnMatch).where(TurnMatch.seq == 4).values(job='{"not": "a job"}'))
    assert turns.tick(app.sessions, config, app.clock, "w") == 3  # three batches, no raise
    with transaction(app.sessions) as s:
        rows = s.scalars(select(TurnMatch).order_by(TurnMatch.seq)).all()
        assert [r.status for r in rows] == ["done"] * 4 + ["claimed"] + ["done"] * 3
        assert rows[4].result is None and rows[4].attempts == 1
    assert _t1(app).status == TurnStatus.FROZEN
    app.close()
