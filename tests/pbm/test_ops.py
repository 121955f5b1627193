"""The operator's tools: ``pbm status``, ``pbm health``, ``pbm db backup/restore``, log files
reopened on SIGHUP, and the warm stop's bound."""

from __future__ import annotations

import json
import logging
import os
import signal
import sqlite3
import time
from datetime import timedelta
from pathlib import Path

import structlog
from click.testing import CliRunner
from sqlalchemy import func, select, update

from pbm import daemon as daemon_module
from pbm.app import App
from pbm.cli import main
from pbm.core.clock import SystemClock
from pbm.core.config import Config, parse_config
from pbm.daemon import WARM_STOP_SEND_SECONDS, Daemon
from pbm.db.models import InboundMail, Incident, MailStatus, Seat
from pbm.db.session import transaction
from pbm.ops.logs import configure_logging
from pbm.ops.status import serving_lock
from pbm.ops.workers import Registry
from pbm.outbound.replies import queue_mail
from pbm.testing import RecordingSender
from tests.pbm.conftest import config_data
from tests.pbm.helpers import join
from tests.pbm.test_gm import _toml


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def _beating(daemon: Daemon) -> None:
    """A worker that beats now (health reads the heartbeats by the system's clock)."""
    Registry(daemon.app.sessions, SystemClock(), daemon.app.config.workers).register()


def test_status_and_health_follow_the_queues(
    daemon: Daemon, sender: RecordingSender, config: Config, tmp_path: Path, demo: str
) -> None:
    """``pbm status --json`` counts inbound by status, the outbox and dead letters;
    ``pbm health`` is ok, then fails with a reason for a stuck outbox and for dead letters."""
    path = str(_toml(config, tmp_path))
    join(daemon, sender, "p1@example.test")
    code, out = _run("status", "--json", "--config", path)
    assert code == 0, out
    st = json.loads(out)
    assert st["inbound"] == {"applied": 1} and st["dead_letters"] == 0
    assert st["outbox"]["pending"] == 0 and st["outbox"]["failed"] == 0
    assert st["turns"] == []
    code, out = _run("status", "--config", path)
    assert code == 0 and "Queues" in out and "applied" in out and "no turn is due" in out
    _beating(daemon)
    code, out = _run("health", "--config", path)
    assert code == 0 and out.splitlines()[-1] == "ok", out

    with transaction(daemon.app.sessions) as s:  # a row due long ago that nothing sent
        queue_mail(
            s,
            config,
            daemon.app.clock,
            kind="gm-alert",
            to="x@example.test",
            ctx={"mail_id": 1, "sender": "x", "subject": "", "error": "e"},
            reply_to=None,
        )
        s.execute(update(InboundMail).values(status=MailStatus.SHUNTED))
    code, out = _run("health", "--max-dead", "0", "--config", path)
    assert code == os.EX_UNAVAILABLE
    assert "unhealthy: the outbox is stuck" in out and "1 dead letters (more than 0)" in out
    st = json.loads(_run("status", "--json", "--config", path)[1])
    assert st["outbox"]["pending"] == 1 and st["dead_letters"] == 1


def test_health_fails_on_a_door_down_for_long(
    daemon: Daemon, config: Config, tmp_path: Path
) -> None:
    """An open incident younger than 30 minutes is the daemon's to retry: healthy. One open
    for longer makes ``pbm health`` fail, naming the door and its last (neutralised) error;
    once resolved, healthy again."""
    path = str(_toml(config, tmp_path))
    now = SystemClock().now()
    with transaction(daemon.app.sessions) as s:
        young = Incident(
            door="smtp",
            kind="refused",
            first_seen=now - timedelta(minutes=5),
            last_seen=now,
            count=3,
            last_error="554 go away",
        )
        s.add(young)
    _beating(daemon)
    code, out = _run("health", "--config", path)
    assert code == 0 and out.splitlines()[-1] == "ok", out
    with transaction(daemon.app.sessions) as s:
        s.add(
            Incident(
                door="imap",
                kind="timeout",
                first_seen=now - timedelta(hours=2),
                last_seen=now,
                count=40,
                last_error="read timed out\x1b[2J",
            )
        )
    code, out = _run("health", "--config", path)
    assert code == os.EX_UNAVAILABLE and "unhealthy: the imap door has been down since" in out
    assert "40 attempts" in out and "\x1b" not in out and "smtp" not in out
    with transaction(daemon.app.sessions) as s:
        s.execute(update(Incident).values(resolved_at=now))
    code, out = _run("health", "--config", path)
    assert code == 0, out


def test_health_fails_on_an_unmigrated_or_unreachable_database(tmp_path: Path) -> None:
    """A database never created names the fix; one that does not answer says so; each fails
    with its sysexits code (EX_NOINPUT, EX_TEMPFAIL)."""
    for url, reason, exit_code in [
        (f"sqlite:///{tmp_path}/empty.sqlite3", "run `pbm db upgrade`", os.EX_NOINPUT),
        ("postgresql://nobody@127.0.0.1:1/none", "does not answer", os.EX_TEMPFAIL),
    ]:
        cfg = parse_config(config_data(url, tmp_path), env={})
        code, out = _run("health", "--config", str(_toml(cfg, tmp_path)))
        assert code == exit_code and reason in out, out


def _sqlite_app(tmp_path: Path) -> tuple[App, Daemon, RecordingSender, str]:
    from datetime import UTC, datetime

    from pbm.core.clock import FixedClock
    from pbm.games.flungo.competitions import create_competition

    cfg = parse_config(config_data(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), env={})
    app = App.from_config(cfg, FixedClock(datetime(2026, 1, 1, 9, tzinfo=UTC)), upgrade=True)
    with transaction(app.sessions) as s:
        create_competition(
            s,
            app.clock,
            code="DEMO",
            name="Demo Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
            seed="x",
        )
    sender = RecordingSender()
    return app, Daemon(app, sender), sender, str(_toml(cfg, tmp_path))


def _seats(app: App) -> int:
    with transaction(app.sessions) as s:
        return s.scalar(select(func.count()).select_from(Seat)) or 0


def test_backup_then_restore_brings_the_database_back(tmp_path: Path) -> None:
    """A backup taken while pbm has the database open restores it as it was: a seat taken
    after the backup is gone after the restore; a backup never overwrites a file."""
    app, d, sender, path = _sqlite_app(tmp_path)
    join(d, sender, "p1@example.test")
    backup = tmp_path / "b.sqlite3"
    code, out = _run("db", "backup", str(backup), "--config", path)
    assert code == 0 and "backed up" in out, out
    assert (
        _run("db", "backup", str(backup), "--config", path)[0] == os.EX_DATAERR
    )  # exists: refused
    join(d, sender, "p2@example.test")
    assert _seats(app) == 2
    app.db_engine.dispose()
    code, out = _run("db", "restore", str(backup), "--config", path)
    assert code == 0, out
    assert _seats(app) == 1
    app.close()


def test_restore_refuses_a_database_in_use_and_a_foreign_file(tmp_path: Path) -> None:
    """Restore refuses while a daemon holds the serving lock, and a file that is not a pbm
    database (another SQLite database, or not SQLite at all); the database is untouched."""
    app, d, sender, path = _sqlite_app(tmp_path)
    join(d, sender, "p1@example.test")
    backup = tmp_path / "b.sqlite3"
    assert _run("db", "backup", str(backup), "--config", path)[0] == 0
    with serving_lock(app.config.database.url):
        code, out = _run("db", "restore", str(backup), "--config", path)
    assert code == os.EX_DATAERR and "in use by a running pbm" in out
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    for bad in (other, text, tmp_path / "missing"):
        code, out = _run("db", "restore", str(bad), "--config", path)
        assert code == os.EX_DATAERR and ("not a pbm database" in out or "no backup" in out), out
    assert _seats(app) == 1
    app.close()


def test_backup_on_postgresql_names_pg_dump(tmp_path: Path) -> None:
    """``pbm db backup`` on PostgreSQL does not pretend: it names the pg_dump command."""
    cfg = parse_config(config_data("postgresql://u@127.0.0.1/pbmdb", tmp_path), env={})
    code, out = _run("db", "backup", "x.dump", "--config", str(_toml(cfg, tmp_path)))
    assert code == os.EX_DATAERR and "pg_dump -Fc -f x.dump pbmdb" in out


def test_log_file_is_reopened_on_sighup(tmp_path: Path) -> None:
    """With a log file, SIGHUP (the daemon's handler) makes the next line go to a new file at
    the same path after logrotate renamed the old one; the old one keeps its lines."""
    log_path = tmp_path / "pbm.log"
    cfg = parse_config(
        config_data("sqlite://", tmp_path, logging={"file": str(log_path), "format": "json"}),
        env={},
    )
    assert cfg.logging.file == str(log_path)
    previous = signal.signal(signal.SIGHUP, daemon_module._on_hangup)
    try:
        configure_logging(cfg.logging.format, "info", (), cfg.logging.file)
        structlog.get_logger("t").info("before.rotate")
        log_path.rename(tmp_path / "pbm.log.1")
        signal.raise_signal(signal.SIGHUP)
        structlog.get_logger("t").info("after.rotate")
        logging.getLogger("lib").warning("from the standard library")
    finally:
        signal.signal(signal.SIGHUP, previous)
        configure_logging()
    old = (tmp_path / "pbm.log.1").read_text()
    new = log_path.read_text()
    assert "before.rotate" in old and "after.rotate" not in old
    assert "after.rotate" in new and "from the standard library" in new
    assert all(json.loads(line) for line in new.splitlines())


def test_a_warm_stop_sends_for_a_bounded_time(app: App, sender: RecordingSender) -> None:
    """During a warm stop the outbox keeps sending for WARM_STOP_SEND_SECONDS, then stops
    (the bound behind the systemd unit's TimeoutStopSec); before a stop it never stops."""
    d = Daemon(app, sender)
    assert not d._stop_sending()
    d.request_stop()
    assert not d._stop_sending()
    d._stop_at = time.monotonic() - WARM_STOP_SEND_SECONDS - 1
    assert d._stop_sending()
    unit = (Path(__file__).parents[2] / "docs" / "ops" / "pbm.service").read_text()
    timeout = int(unit.split("TimeoutStopSec=")[1].split()[0])
    # the bound: sending + one SMTP send + one IMAP logout (the default timeouts) + slack
    assert timeout >= WARM_STOP_SEND_SECONDS + 30 + 30 + 10


def test_status_counts_every_inbound_status(tmp_path: Path) -> None:
    """Each inbound status appears with its count, sorted by name, in ``--json``."""
    app, d, sender, path = _sqlite_app(tmp_path)
    join(d, sender, "p1@example.test")
    join(d, sender, "p2@example.test")
    with transaction(app.sessions) as s:
        s.execute(update(InboundMail).where(InboundMail.id == 1).values(status="ignored"))
    st = json.loads(_run("status", "--json", "--config", path)[1])
    assert st["inbound"] == {"applied": 1, "ignored": 1}
    app.close()


def test_status_shows_open_incidents(tmp_path: Path) -> None:
    """An open outage is listed by ``pbm status`` (table and ``--json``) with the server's
    words neutralised; once resolved, it is not."""
    from pbm.core.errors import SmtpError

    app, _d, _sender, path = _sqlite_app(tmp_path)
    incidents = app.incidents()
    incidents.failed("smtp", SmtpError("SMTP: server replied 554 \x1b[31m[red]no[/red]"))
    st = json.loads(_run("status", "--json", "--config", path)[1])
    [inc] = st["incidents"]
    assert (inc["door"], inc["kind"], inc["attempts"]) == ("smtp", "replied 554", 1)
    assert "\x1b" not in inc["error"] and "<U+001B>" in inc["error"]
    code, out = _run("status", "--config", path)
    assert code == 0 and "Open incidents" in out and "[red]no" in out, out  # markup escaped
    incidents.recovered("smtp")
    st = json.loads(_run("status", "--json", "--config", path)[1])
    assert st["incidents"] == []
    assert "no open incident" in _run("status", "--config", path)[1]
    app.close()
