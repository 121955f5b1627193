"""The spool's import (SQLite) makes a dead letter only of a file it cannot read or a row the
database refuses for what it holds, never of good mail a passing fault stopped (a full disk);
a spool of files no key opens costs one bounded batch at a time, as mail does, so a warm stop
waits for one batch at most; a dead letter and the GM's alert of it commit together."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select, text

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.db.models import InboundMail, MailStatus, OutboxMessage
from pbm.db.session import transaction
from pbm.inbound import spool as spool_module
from pbm.inbound.pipeline import Arrival
from pbm.inbound.spool import DEAD, Spool, import_spool
from pbm.secrets import Sealer
from pbm.testing import make_eml
from tests.pbm.conftest import config_data

AT = datetime(2026, 1, 1, 8, tzinfo=UTC)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    """An App on a migrated SQLite file, its spool beside it."""
    data = config_data(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path)
    clock = FixedClock(datetime(2026, 1, 1, 9, tzinfo=UTC))
    app = App.from_config(parse_config(data, env={}), clock, upgrade=True)
    yield app
    app.close()


def _put(spool: Spool, n: int, body: str = "HELP\n") -> Path:
    raw = make_eml(body, sender=f"p{n}@example.test", message_id=f"<m{n}@example.test>")
    return spool.put(Arrival(raw, "smtp", "p@example.test", ("pbm@example.test",), AT))


def _counts(app: App) -> tuple[int, int]:
    """Dead letters of the spool, and GM alerts."""
    with transaction(app.sessions) as s:
        dead = s.scalar(
            select(func.count()).where(
                InboundMail.key.startswith("spool:"), InboundMail.status == MailStatus.SHUNTED
            )
        )
        alerts = s.scalar(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.kind == "gm-alert")
        )
    return int(dead or 0), int(alerts or 0)


def test_files_no_key_opens_are_dead_letters_a_bounded_batch_at_a_time(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty files sealed under a key since dropped, the batch bounded at five files: an
    import asked to stop makes at most one batch of dead letters; one whose time is spent
    makes one batch, says files are left, and the rest follow a batch an import, each file
    a dead letter with its one alert, none lost."""
    spool = app.spool
    assert spool is not None
    lost_key = Spool(spool.path, Sealer("a-key-since-dropped-0123456789abcdef"))
    for n in range(40):
        _put(lost_key, n)
    monkeypatch.setattr(spool_module, "IMPORT_BATCH", 5)
    stopped = import_spool(spool, app.inbound, stopping=lambda: True, budget=0.0)
    dead, _ = _counts(app)
    assert 1 <= dead <= 5 and stopped.left and len(spool.files()) == 40 - dead
    timed_out = import_spool(spool, app.inbound, budget=0.0)
    assert timed_out.left and _counts(app)[0] == dead + 5
    imports = 2
    while import_spool(spool, app.inbound, budget=0.0).left:
        imports += 1
    assert imports >= 8
    assert spool.files() == [] and _counts(app) == (40, 40)
    assert len(list((spool.path / DEAD).iterdir())) == 40


def test_a_full_disk_leaves_good_mail_in_the_spool(app: App) -> None:
    """The database's disk fills while a spooled mail of ~100 KB is stored (SQLite's
    SQLITE_FULL, made real with max_page_count): the import raises, the file stays in the
    spool and no dead letter is written; once there is room the next import stores it."""
    spool = app.spool
    assert spool is not None
    body = "HELP\n" + "".join(f"remark {i:06d} {'x' * 60}\n" for i in range(1500))
    _put(spool, 0, body)
    with app.db_engine.connect() as c:
        pages = int(c.exec_driver_sql("PRAGMA page_count").scalar() or 0)
    app.db_engine.dispose()

    def small_disk(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.execute(f"PRAGMA max_page_count={pages + 45}")

    event.listen(app.db_engine, "connect", small_disk)
    try:
        with pytest.raises(Exception, match="full"):
            import_spool(spool, app.inbound)
    finally:
        event.remove(app.db_engine, "connect", small_disk)
        app.db_engine.dispose()
    assert len(spool.files()) == 1 and _counts(app) == (0, 0)
    assert import_spool(spool, app.inbound).stored == 1
    with transaction(app.sessions) as s:
        keys = list(s.scalars(select(InboundMail.key)))
    assert keys == ["<m0@example.test>"] and spool.files() == []


def test_a_dead_letter_is_written_with_its_alert_or_not_at_all(app: App) -> None:
    """A truncated spool file while the outbox refuses the GM's alert (a trigger): the
    import raises and leaves no dead letter nobody was told of, the file still in the spool;
    once the outbox takes mail, the next import makes it a dead letter with its alert."""
    spool = app.spool
    assert spool is not None
    path = _put(spool, 0)
    path.write_bytes(path.read_bytes()[:-7])
    with app.db_engine.begin() as c:
        c.execute(
            text(
                "CREATE TRIGGER no_alert BEFORE INSERT ON outbox "
                "BEGIN SELECT RAISE(ABORT, 'no room for the alert'); END"
            )
        )
    with pytest.raises(Exception, match="no room for the alert"):
        import_spool(spool, app.inbound)
    with transaction(app.sessions) as s:
        assert s.scalar(select(func.count()).select_from(InboundMail)) == 0
    assert spool.files() == [path]
    with app.db_engine.begin() as c:
        c.execute(text("DROP TRIGGER no_alert"))
    import_spool(spool, app.inbound)
    assert _counts(app) == (1, 1) and spool.files() == []
    assert (spool.path / DEAD / path.name).exists()
