"""SIGKILL of ``pbm run --once`` while it imports the spool loses nothing and stores nothing
twice: killed before the import's commit the file stays; killed after it, before the files
are removed, the next pass finds the key stored and only removes the file."""

from __future__ import annotations

import signal
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from pbm.db.models import InboundMail, Seat
from pbm.inbound.pipeline import Arrival
from pbm.inbound.spool import Spool
from pbm.secrets import Sealer
from pbm.testing import make_eml
from tests.integration.pbm_proc import SECRET_KEY, pbm
from tests.integration.test_crash import _setup
from tests.services import SmtpSink

pytestmark = [pytest.mark.services, pytest.mark.slow]

JOIN = make_eml("JOIN\n", subject="[DEMO] join", message_id="<spooled-join@example.test>")


def _count(db_url: str, model: type) -> int:
    db_engine = create_engine(db_url)
    with db_engine.connect() as c:
        n = c.execute(select(func.count()).select_from(model)).scalar_one()
    db_engine.dispose()
    return int(n)


def _spooled(tmp_path: Path) -> Spool:
    """The config's spool (``spool`` beside the database file) with one JOIN in it."""
    spool = Spool(tmp_path / "spool", Sealer(SECRET_KEY))
    arrival = Arrival(
        JOIN, "smtp", "player1@example.test", ("pbm@example.test",), datetime.now(UTC)
    )
    spool.put(arrival)
    return spool


@pytest.mark.parametrize("point", ["spool-before-commit", "spool-after-commit"])
def test_sigkill_while_importing_the_spool(tmp_path: Path, smtp_sink: SmtpSink, point: str) -> None:
    """Killed at ``point`` of the import: the file is still there; the next pass stores the
    mail once (one row, one seat) and answers it once, and the spool is empty."""
    db = f"sqlite:///{tmp_path}/pbm.sqlite3"
    config = _setup(tmp_path, smtp_sink, db)
    spool = _spooled(tmp_path)
    died = pbm("run", "--once", "--config", str(config), crash_at=point)
    assert died.returncode == -signal.SIGKILL, died.stderr.decode()
    assert len(spool.files()) == 1
    assert _count(db, InboundMail) == (1 if point == "spool-after-commit" else 0)
    assert _count(db, Seat) == 0

    done = pbm("run", "--once", "--config", str(config))
    assert done.returncode == 0, done.stderr.decode()
    assert spool.files() == []
    assert _count(db, InboundMail) == 1
    assert _count(db, Seat) == 1
    assert len(smtp_sink.messages) == 1
    again = pbm("run", "--once", "--config", str(config))
    assert again.returncode == 0 and len(smtp_sink.messages) == 1
