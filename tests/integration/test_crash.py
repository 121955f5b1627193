"""SIGKILL of a real ``pbm serve`` loses nothing and sends nothing twice; SIGTERM is warm."""

from __future__ import annotations

import signal
import smtplib
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from pbm.db.models import InboundMail, OutboxMessage, Seat
from pbm.testing import make_eml
from tests.integration.pbm_proc import Serve, pbm, wait_until, write_config
from tests.services import SmtpSink

pytestmark = [pytest.mark.services, pytest.mark.slow]

JOIN = make_eml("JOIN\n", subject="[DEMO] join", message_id="<crash-join@example.test>")


def _setup(tmp_path: Path, sink: SmtpSink, db_url: str) -> Path:
    config = write_config(tmp_path, db_url, sink.port)
    assert pbm("db", "upgrade", "--config", str(config)).returncode == 0
    r = pbm(
        "gm",
        "new",
        "--config",
        str(config),
        "--code",
        "DEMO",
        "--name",
        "Demo Cup",
        "--teams",
        "4",
        "--naming-deadline",
        "2099-01-01",
        "--seed",
        "s",
    )
    assert r.returncode == 0, r.stderr
    return config


def _send(port: int, raw: bytes = JOIN) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=20) as s:
        s.sendmail("player1@example.test", ["pbm@example.test"], raw)


def _count(db_url: str, model: type, *where: object) -> int:
    db_engine = create_engine(db_url)
    with db_engine.connect() as c:
        n = c.execute(select(func.count()).select_from(model).where(*where)).scalar_one()  # type: ignore[arg-type]
    db_engine.dispose()
    return int(n)


@pytest.fixture(params=["sqlite", "postgresql"])
def crash_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database for the crash tests: SQLite file or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/pbm.sqlite3"
    from tests.pbm.conftest import fresh_pg_database

    return fresh_pg_database(request.getfixturevalue("pg_url"))


def test_sigkill_between_store_and_commit(
    tmp_path: Path, smtp_sink: SmtpSink, crash_db: str
) -> None:
    """Killed right after storing (before the 250): the client resends, the restarted daemon
    handles the message once and answers once."""
    config = _setup(tmp_path, smtp_sink, crash_db)
    serve = Serve(config, crash_at="after-store")
    with pytest.raises(smtplib.SMTPException):
        _send(serve.port)  # the connection dies: no 250, so a real MTA would retry
    assert serve.wait_dead() == -signal.SIGKILL
    assert _count(crash_db, InboundMail, InboundMail.status == "received") == 1
    assert _count(crash_db, Seat) == 0

    serve = Serve(config)
    _send(serve.port)  # the MTA's retry: same Message-ID
    assert wait_until(lambda: len(smtp_sink.messages) >= 1)
    code, err = serve.stop()
    assert code == 0, err
    assert len(smtp_sink.messages) == 1
    assert _count(crash_db, Seat) == 1
    assert _count(crash_db, InboundMail) == 1


def test_sigkill_inside_the_transaction(tmp_path: Path, smtp_sink: SmtpSink, crash_db: str) -> None:
    """Killed with the effects written but not committed: nothing of them survives, and the
    restarted daemon handles the message once and answers once."""
    config = _setup(tmp_path, smtp_sink, crash_db)
    serve = Serve(config, crash_at="before-commit")
    _send(serve.port)  # stored: 250
    assert serve.wait_dead() == -signal.SIGKILL
    assert _count(crash_db, Seat) == 0
    assert _count(crash_db, OutboxMessage) == 0
    assert _count(crash_db, InboundMail, InboundMail.status == "received") == 1

    serve = Serve(config)
    assert wait_until(lambda: len(smtp_sink.messages) >= 1)
    code, err = serve.stop()
    assert code == 0, err
    assert len(smtp_sink.messages) == 1
    assert _count(crash_db, Seat) == 1


def test_sigkill_between_commit_and_send(
    tmp_path: Path, smtp_sink: SmtpSink, crash_db: str
) -> None:
    """Killed after the commit, before sending: the reply is kept and sent once on restart."""
    config = _setup(tmp_path, smtp_sink, crash_db)
    serve = Serve(config, crash_at="after-commit")
    _send(serve.port)  # stored: 250
    assert serve.wait_dead() == -signal.SIGKILL
    assert smtp_sink.messages == []
    assert _count(crash_db, OutboxMessage, OutboxMessage.status == "pending") == 1
    assert _count(crash_db, Seat) == 1

    serve = Serve(config)
    assert wait_until(lambda: len(smtp_sink.messages) >= 1)
    _send(serve.port)  # a redelivery on top changes nothing
    assert wait_until(lambda: _count(crash_db, OutboxMessage, OutboxMessage.status == "sent") == 1)
    code, err = serve.stop()
    assert code == 0, err
    assert len(smtp_sink.messages) == 1
    assert _count(crash_db, Seat) == 1
    assert _count(crash_db, OutboxMessage) == 1


def test_sigterm_is_a_warm_stop(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """SIGTERM makes ``pbm serve`` finish and exit 0, logging the warm stop."""
    config = _setup(tmp_path, smtp_sink, f"sqlite:///{tmp_path}/pbm.sqlite3")
    serve = Serve(config)
    _send(serve.port)
    assert wait_until(lambda: len(smtp_sink.messages) >= 1)
    code, err = serve.stop()
    assert code == 0
    assert "daemon.warm_stop" in err and "daemon.stopped" in err


def test_run_once_handles_ingested_mail(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """``pbm ingest`` stores from stdin (exit 0); ``pbm run --once`` answers it."""
    db_url = f"sqlite:///{tmp_path}/pbm.sqlite3"
    config = _setup(tmp_path, smtp_sink, db_url)
    r = pbm("ingest", "--config", str(config), input=JOIN)
    assert r.returncode == 0, r.stderr
    assert pbm("ingest", "--config", str(config), input=JOIN).returncode == 0  # redelivery
    r = pbm("run", "--once", "--config", str(config))
    assert r.returncode == 0, r.stderr
    assert len(smtp_sink.wait_for(1)) == 1
    assert _count(db_url, InboundMail) == 1


def test_ingest_temporary_failure_exits_75(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """When the database cannot be written, ``pbm ingest`` exits 75 so the MTA retries."""
    config = write_config(tmp_path, f"sqlite:///{tmp_path}/missing/dir/pbm.sqlite3", smtp_sink.port)
    r = pbm("ingest", "--config", str(config), input=JOIN)
    assert r.returncode == 75, r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("[server]\naddress = 'x'\n")
    assert pbm("ingest", "--config", str(bad), input=JOIN).returncode == 78
