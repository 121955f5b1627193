"""The workers' registry: ``pbm serve`` registers, beats and stops; ``pbm status`` shows each
worker alive, stale or stopped by its heartbeat, what it had in hand, and the split stages'
matches it has claimed (and claims of workers that never registered)."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from pbm.app import App
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.core.config import WorkersConfig
from pbm.daemon import Daemon
from pbm.db.models import Competition, Turn, TurnMail, TurnMatch, TurnStatus, Worker
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.ops.status import status
from pbm.ops.workers import Registry
from pbm.testing import RecordingSender
from tests.pbm.conftest import make_config
from tests.pbm.test_gm import _toml


def _row(app: App, worker_id: str) -> Worker | None:
    with transaction(app.sessions) as s:
        return s.get(Worker, worker_id)


def _wait(pred: object, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_a_serving_daemon_registers_beats_and_stops(tmp_path: Path) -> None:
    """``Daemon.run`` registers this host and pid, its thread beats (the heartbeat follows the
    clock), a warm stop marks the row stopped; status agrees."""
    config = make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path)
    config = replace(config, workers=WorkersConfig(heartbeat_seconds=0.05, stale_seconds=60))
    clock = FixedClock(datetime(2026, 1, 1, 9, 0, tzinfo=UTC))
    app = App.from_config(config, clock, upgrade=True)
    d = Daemon(app, RecordingSender(), max_wait=0.05)
    thread = threading.Thread(target=d.run)
    thread.start()
    try:
        _wait(lambda: _row(app, d.worker.id) is not None)
        row = _row(app, d.worker.id)
        assert row is not None
        assert (row.host, row.pid, row.stopped_at) == (socket.gethostname(), os.getpid(), None)
        with transaction(app.sessions) as s:
            [w] = status(s, clock.now())["workers"]
        assert w["id"] == d.worker.id and w["state"] == "alive"
        later = clock.advance(timedelta(seconds=30))
        # The heartbeat follows the clock. (What is in hand is the daemon thread's own: a test
        # thread setting it races the loop's own claims, which restore what they found, so
        # ``doing`` is checked on a registry alone, in the status test below.)
        _wait(
            lambda: (
                (r := _row(app, d.worker.id)) is not None
                and r.heartbeat_at.replace(tzinfo=UTC) == later
            )
        )
        with transaction(app.sessions) as s:
            [w] = status(s, clock.now() + timedelta(seconds=61))["workers"]
        assert w["state"] == "stale"  # no beat in the last minute (by that clock)
    finally:
        d.request_stop()
        thread.join(30)
    assert not thread.is_alive()
    with transaction(app.sessions) as s:
        [w] = status(s, clock.now())["workers"]
    assert w["state"] == "stopped" and w["doing"] is None
    app.close()


def _split_turn(app: App) -> int:
    """A competition with a frozen stage split into three matches; returns the turn's id."""
    with transaction(app.sessions) as s:
        comp = create_competition(
            s,
            app.clock,
            code="SPL",
            name="Split Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
            seed="s",
        )
        turn = Turn(
            competition_id=comp.id,
            position=1,
            generation=0,
            stage_key="T1",
            round=1,
            turn=1,
            selection=False,
            status=TurnStatus.FROZEN,
            opened_at=app.clock.now(),
            deadline=app.clock.now(),
            reminders={"sent": []},
        )
        s.add(turn)
        s.flush()
        return turn.id


def test_status_shows_workers_and_their_claims(tmp_path: Path) -> None:
    """``pbm status --json`` and its table: a live worker with its claim in hand and the
    matches it has claimed (until its lease), a stale one with what it last had in hand, a
    claimant that never registered, the split stage's matches by status, and its mail rows
    not yet queued."""
    config = make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path)
    now = datetime.now(UTC)
    app = App.from_config(config, FixedClock(now), upgrade=True)
    turn_id = _split_turn(app)
    live = Registry(app.sessions, FixedClock(now), config.workers, "host-a:1:aa")
    live.register()
    with live.doing("outbox 7"):
        live.beat()
    stale = Registry(app.sessions, FixedClock(now - timedelta(minutes=10)), config.workers, "b:2")
    stale.register()
    with stale.doing("inbound 42"):
        stale.beat()
    lease = now + timedelta(minutes=5)
    with transaction(app.sessions) as s:
        for i, (who, st) in enumerate(
            [
                ("host-a:1:aa", "claimed"),
                ("host-a:1:aa", "claimed"),
                ("cron:9", "claimed"),
                (None, "pending"),
                ("b:2", "done"),
            ]
        ):
            s.add(
                TurnMatch(
                    turn_id=turn_id,
                    seq=i,
                    fixture_id=f"R1M{i}",
                    status=st,
                    claimed_by=who,
                    lease_until=lease if st == "claimed" else None,
                    attempts=1,
                    job="{}",
                )
            )
        for i, st in enumerate(["pending", "pending", "claimed", "done"]):
            s.add(
                TurnMail(
                    turn_id=turn_id,
                    seq=i,
                    status=st,
                    claimed_by="b:2" if st != "pending" else None,
                    attempts=0 if st == "pending" else 1,
                    count=32,
                    mails="[]",
                )
            )
    path = str(_toml(config, tmp_path))
    r = CliRunner().invoke(main, ["status", "--json", "--config", path])
    assert r.exit_code == 0, r.output
    st = json.loads(r.output)
    by_id = {w["id"]: w for w in st["workers"]}
    assert by_id["host-a:1:aa"]["state"] == "alive"
    assert by_id["host-a:1:aa"]["doing"] == "outbox 7"
    assert by_id["host-a:1:aa"]["turn_matches"] == [
        {
            "competition": "SPL",
            "stage": "T1",
            "matches": 2,
            "lease_until": lease.isoformat(),
            "lapsed": False,
        }
    ]
    assert by_id["b:2"]["state"] == "stale" and by_id["b:2"]["doing"] is None
    assert by_id["b:2"]["last_doing"] == "inbound 42" and by_id["b:2"]["turn_matches"] == []
    assert by_id["cron:9"]["state"] == "unregistered"
    assert by_id["cron:9"]["turn_matches"][0]["matches"] == 1
    assert st["turn_matches"] == {"pending": 1, "claimed": 3, "done": 1}
    assert st["turn_mails"] == {"pending": 2, "claimed": 1}  # the queued row is not counted
    r = CliRunner(env={"COLUMNS": "250"}).invoke(main, ["status", "--config", path])
    assert r.exit_code == 0, r.output
    assert "Workers" in r.output and "outbox 7" in r.output and "(last: inbound 42)" in r.output
    assert "2 of SPL T1 until" in r.output and "unregistered" in r.output
    assert "stale" in r.output
    with transaction(app.sessions) as s:
        assert s.scalar(select(Competition.code)) == "SPL"
    app.close()
