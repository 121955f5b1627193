"""``pbm health`` as a supervisor meets it: "ok" only while a worker beats, and a failure,
one line each, when none does, or when the outbox or the dead letters pass their limits."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import update

from pbm.cli import main
from pbm.core.clock import SystemClock
from pbm.core.config import parse_config
from pbm.db import migrate
from pbm.db.models import InboundMail, MailStatus, Worker
from pbm.db.session import make_db_engine, make_session_factory, transaction
from pbm.outbound.replies import queue_mail
from tests.pbm.conftest import config_data, toml_text


def _setup(tmp_path: Path, **sections: dict[str, Any]) -> tuple[Path, str]:
    url = f"sqlite:///{tmp_path}/pbm.sqlite3"
    db_engine = make_db_engine(url)
    migrate.upgrade(db_engine)
    db_engine.dispose()
    path = tmp_path / "pbm.toml"
    path.write_text(toml_text(config_data(url, tmp_path, **sections)))
    return path, url


def _health(config: Path) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["health", "--config", str(config)])
    return r.exit_code, r.output


def _run_once(config: Path) -> None:
    """A real daemon pass, as cron runs it: `pbm run --once` in its own process."""
    done = subprocess.run(
        [sys.executable, "-m", "pbm", "run", "--once", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_health_fails_with_no_daemon_and_passes_after_a_real_pass(tmp_path: Path) -> None:
    """With no daemon ever run, `pbm health` fails (EX_UNAVAILABLE) saying so; after a
    real `pbm run --once` it says "ok"; once that heartbeat is older than [health]
    heartbeat_seconds it fails again, naming the worker and the heartbeat's age."""
    config, url = _setup(tmp_path)
    code, out = _health(config)
    assert code == os.EX_UNAVAILABLE and "no worker has ever run" in out, out
    _run_once(config)
    code, out = _health(config)
    assert code == 0 and out.strip() == "ok", out
    db_engine = make_db_engine(url)
    with transaction(make_session_factory(db_engine)) as s:
        s.execute(update(Worker).values(heartbeat_at=SystemClock().now() - timedelta(hours=1)))
    db_engine.dispose()
    code, out = _health(config)
    assert code == os.EX_UNAVAILABLE and "heartbeat is fresh" in out and "run-once" in out


# A real pbm serve; the loop keeps test_workers_registry's serve and the stale heartbeat above.
@pytest.mark.slow
def test_a_serving_daemon_is_healthy_until_its_warm_stop(tmp_path: Path) -> None:
    """A real `pbm serve` registers and beats: health says "ok" while it runs; after its warm
    stop (SIGTERM) no worker is running, and health fails saying when the last one stopped."""
    from tests.integration.pbm_proc import Serve, wait_until, write_config
    from tests.services import free_port

    _config, url = _setup(tmp_path)
    config = write_config(tmp_path, url, free_port())
    serve = Serve(config)
    try:
        assert wait_until(lambda: _health_env(config)[0] == 0, 30), _health_env(config)
    finally:
        code, err = serve.stop()
    assert code == 0, err
    code, out = _health_env(config)
    assert code == os.EX_UNAVAILABLE and "no worker is running" in out and "stopped" in out


def _health_env(config: Path) -> tuple[int, str]:
    from tests.integration.pbm_proc import env

    r = CliRunner().invoke(main, ["health", "--config", str(config)], env=env())
    return r.exit_code, r.output


def test_health_fails_past_the_outbox_and_dead_letter_limits(tmp_path: Path) -> None:
    """A worker beats, but more mail is due than [health] max_outbox, and more mail failed
    than [health] max_dead_letters: two lines, one for each."""
    config, url = _setup(tmp_path, health={"max_outbox": 2, "max_dead_letters": 0})
    _run_once(config)
    cfg = parse_config(config_data(url, tmp_path), env={})
    db_engine = make_db_engine(url)
    with transaction(make_session_factory(db_engine)) as s:
        for n in range(3):
            queue_mail(
                s,
                cfg,
                SystemClock(),
                kind="gm-alert",
                to=f"x{n}@example.test",
                ctx={"mail_id": n, "sender": "x", "subject": "", "error": "e"},
                reply_to=None,
            )
    db_engine.dispose()
    from pbm.app import App

    app = App.from_config(cfg)
    stored = app.inbound.store(b"From: a@b.test\r\nSubject: x\r\n\r\nx\r\n", "ingest")
    with transaction(app.sessions) as s:
        s.execute(
            update(InboundMail).where(InboundMail.id == stored.id).values(status=MailStatus.SHUNTED)
        )
    app.close()
    code, out = _health(config)
    assert code == os.EX_UNAVAILABLE, out
    assert "3 mails due and unsent in the outbox (more than 2)" in out
    assert "1 dead letters (more than 0)" in out
