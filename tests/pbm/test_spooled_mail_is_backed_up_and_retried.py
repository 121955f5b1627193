"""Mail the doors spooled (SQLite, while a pass held the write lock) is never lost:
``pbm db backup`` stores it first, so the backup holds it, and ``pbm mail retry`` on an
unreadable spool file's dead letter reads the file again instead of dropping it."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from pbm.app import App
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.core.errors import PbmError
from pbm.daemon import Daemon
from pbm.db import session as session_module
from pbm.db.models import InboundMail, MailStatus
from pbm.db.session import transaction
from pbm.inbound.pipeline import Arrival
from pbm.inbound.spool import DEAD, Spool, import_spool, retry_dead
from pbm.secrets import Sealer
from pbm.testing import RecordingSender, make_eml
from tests.pbm.conftest import SECRET_KEY, a_full_disk, a_writer_holds, config_data, toml_text

GONE_KEY = "a-key-no-longer-configured-0123456789"


def _app(tmp_path: Path, *old_keys: str) -> tuple[App, Path]:
    """An App on a migrated SQLite file (its spool beside it) and its config file."""
    security = {"secret_key": SECRET_KEY, "old_secret_keys": list(old_keys)}
    data = config_data(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path, security=security)
    path = tmp_path / "pbm.toml"
    path.write_text(toml_text(data))
    clock = FixedClock(datetime(2026, 1, 1, 9, tzinfo=UTC))
    return App.from_config(parse_config(data, env={}), clock, upgrade=True), path


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def _keys(db_file: Path) -> set[str]:
    conn = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
    try:
        return {k for (k,) in conn.execute("SELECT key FROM inbound_mail")}
    finally:
        conn.close()


def _backup_while_held(app: App, config: Path, backup: Path, held: float) -> tuple[int, str]:
    """While another writer holds the lock for ``held`` seconds, the SMTP door spools a
    mail and ``pbm db backup`` runs: its exit code and output."""
    assert app.spool is not None
    raw = make_eml("HELP\n", message_id="<spooled@example.test>")
    with a_writer_holds(app, seconds=held):
        assert app.doors.store(raw, "smtp", "p@example.test", ["pbm@example.test"]) is None
        assert len(app.spool.files()) == 1
        return _run("db", "backup", str(backup), "--config", str(config))


def test_a_backup_taken_while_mail_waits_in_the_spool_holds_that_mail(tmp_path: Path) -> None:
    """A mail the SMTP door spooled while a pass held the lock is in the backup taken before
    any pass imported it: the backup stores the spool first (waiting for the lock the pass
    holds), and the restored database has the mail, pending, for the next pass."""
    app, config = _app(tmp_path)
    assert app.spool is not None
    backup = tmp_path / "backup.sqlite3"
    # The backup runs while the lock is still held: it waits for it, then imports.
    code, out = _backup_while_held(app, config, backup, 2.0)
    assert code == 0 and "stored 1 spooled mails first" in out, out
    assert app.spool.files() == []
    assert "<spooled@example.test>" in _keys(backup)
    app.db_engine.dispose()
    code, out = _run("db", "restore", str(backup), "--config", str(config))
    assert code == 0, out
    with transaction(app.sessions) as s:
        row = s.scalars(select(InboundMail).where(InboundMail.key == "<spooled@example.test>"))
        assert row.one().status == MailStatus.RECEIVED
    app.close()


def test_a_backup_waits_for_the_lock_for_the_busy_timeout_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass that holds the write lock longer than SQLite's busy timeout (cut to 0.3 s
    here; 15 s in use) makes the backup fail, as docs/ops/operations.md says, not wait for
    ever: no backup file is made, and the spooled mail stays in the spool for the pass."""
    monkeypatch.setattr(session_module, "SQLITE_BUSY_TIMEOUT_MS", 300)
    app, config = _app(tmp_path)
    assert app.spool is not None
    backup = tmp_path / "backup.sqlite3"
    code, out = _backup_while_held(app, config, backup, 3.0)
    assert code != 0 and "locked" in out, out
    assert not backup.exists() and len(app.spool.files()) == 1
    app.close()


def _dead_letter(app: App) -> tuple[int, Path]:
    """A spool file sealed under a key the App does not hold, imported: a dead letter."""
    assert app.spool is not None
    foreign = Spool(app.spool.path, Sealer(GONE_KEY))
    raw = make_eml("HELP\n", sender="lost@example.test", message_id="<lost@example.test>")
    at = datetime(2026, 1, 1, 8, tzinfo=UTC)
    path = foreign.put(Arrival(raw, "ingest", "lost@example.test", ("pbm@example.test",), at))
    assert import_spool(app.spool, app.inbound).stored == 0
    with transaction(app.sessions) as s:
        dead = s.scalars(select(InboundMail).where(InboundMail.door == "spool")).one()
        assert dead.status == MailStatus.SHUNTED and dead.error
        return dead.id, app.spool.path / DEAD / path.name


@pytest.mark.parametrize("how", ["still unreadable", "readable again"])
def test_retrying_a_spool_dead_letter_reads_the_file_again(tmp_path: Path, how: str) -> None:
    """``pbm mail retry`` on an unreadable spool file's dead letter tries the file again.
    Still unreadable: it fails saying so, the row stays a dead letter with the reason, the
    file stays in dead/, and nothing is queued. Readable again (the old key configured back):
    the mail is stored with its envelope and time, handled by the next pass (its sender gets
    the reply), the dead letter names the new row, and the file is gone. Queueing the dead
    letter itself, as any other, is refused: it holds no mail."""
    app, config = _app(tmp_path)
    dead_id, kept = _dead_letter(app)
    assert kept.exists()
    if how == "still unreadable":
        code, out = _run("mail", "retry", str(dead_id), "--config", str(config))
        assert code != 0 and "still a dead letter" in out, out
        with transaction(app.sessions) as s:
            dead = s.get(InboundMail, dead_id)
            assert dead is not None and dead.status == MailStatus.SHUNTED
            assert dead.error and "unreadable spool file" in dead.error
            assert (
                s.scalars(select(InboundMail).where(InboundMail.key == "<lost@example.test>")).all()
                == []
            )
        assert kept.exists()
        with pytest.raises(PbmError, match="names a spool file"):
            app.inbound.retry(dead_id)  # never queued as an empty mail, whoever asks
        app.close()
        return
    app.close()
    app, config = _app(tmp_path, GONE_KEY)
    code, out = _run("mail", "retry", str(dead_id), "--config", str(config))
    assert code == 0 and "was read and stored as #" in out, out
    assert not kept.exists()
    with transaction(app.sessions) as s:
        dead = s.get(InboundMail, dead_id)
        assert dead is not None and dead.status == MailStatus.IGNORED
        mail = s.scalars(select(InboundMail).where(InboundMail.key == "<lost@example.test>")).one()
        assert dead.note == f"imported on retry as #{mail.id}"
        assert (mail.status, mail.door, mail.envelope_from) == (
            MailStatus.RECEIVED,
            "ingest",
            "lost@example.test",
        )
    sender = RecordingSender()
    Daemon(app, sender).run_once()
    assert sender.to("lost@example.test")
    app.close()


def test_a_retry_the_database_cannot_take_now_leaves_the_dead_letter_as_it_was(
    tmp_path: Path,
) -> None:
    """Retrying a spool dead letter of a ~100 KB mail whose file reads again (its key back)
    while the database's disk is full (SQLite's SQLITE_FULL, made real with max_page_count):
    the retry raises that fault and the dead letter keeps its reason and count of tries, the
    file kept, since nothing was learnt of the mail; once there is room, the retry stores it."""
    app, _ = _app(tmp_path)
    assert app.spool is not None
    body = "HELP\n" + "".join(f"remark {i:06d} {'x' * 60}\n" for i in range(1500))
    raw = make_eml(body, sender="lost@example.test", message_id="<lost@example.test>")
    at = datetime(2026, 1, 1, 8, tzinfo=UTC)
    Spool(app.spool.path, Sealer(GONE_KEY)).put(
        Arrival(raw, "ingest", "lost@example.test", ("pbm@example.test",), at)
    )
    import_spool(app.spool, app.inbound)
    app.close()
    app, _ = _app(tmp_path, GONE_KEY)
    assert app.spool is not None
    with transaction(app.sessions) as s:
        first = s.scalars(select(InboundMail).where(InboundMail.door == "spool")).one()
        dead_id, before = first.id, (first.status, first.error, first.attempts)
    with a_full_disk(app, spare_pages=10), pytest.raises(OperationalError, match="full"):
        retry_dead(app.spool, app.inbound, dead_id)
    with transaction(app.sessions) as s:
        dead = s.get(InboundMail, dead_id)
        assert dead is not None and (dead.status, dead.error, dead.attempts) == before
    assert len(list((app.spool.path / DEAD).iterdir())) == 1
    stored = retry_dead(app.spool, app.inbound, dead_id)
    assert stored is not None and stored.created
    app.close()
