"""The doors' store (:class:`pbm.inbound.spool.DoorStore`): on SQLite it waits briefly for
the write lock and then spools; on PostgreSQL (row locks) it never waits on another writer
and never spools."""

from __future__ import annotations

import time
from pathlib import Path

from pbm.app import App
from pbm.core.config import parse_config
from pbm.db.models import InboundMail
from pbm.db.session import transaction
from pbm.inbound.spool import DoorStore, Spool, import_spool
from pbm.testing import make_eml
from tests.pbm.conftest import a_writer_holds, config_data


def test_a_door_spools_on_sqlite_and_stores_on_postgresql(app: App, tmp_path: Path) -> None:
    """With another writer's transaction open for 2 s, the door answers in under a second on
    both databases: SQLite's mail is in the spool (stored by the next import, once),
    PostgreSQL's in the table, and its spool, although configured, stays empty."""
    spool = Spool(tmp_path / "door-spool", app.inbound.sealer)
    door = DoorStore(app.inbound, spool, 200)
    raw = make_eml("HELP\n", message_id="<door@example.test>")
    sqlite = app.db_engine.dialect.name == "sqlite"
    with a_writer_holds(app):
        started = time.monotonic()
        stored = door.store(raw, "smtp", "player1@example.test", ["pbm@example.test"])
        assert time.monotonic() - started < 1.0
    if sqlite:
        assert stored is None and len(spool.files()) == 1
        assert import_spool(spool, app.inbound).stored == 1
        assert import_spool(spool, app.inbound).stored == 0
    else:
        assert stored is not None and stored.created and spool.files() == []
    with transaction(app.sessions) as s:
        [row] = s.query(InboundMail).filter(InboundMail.key == "<door@example.test>").all()
        assert (row.door, row.envelope_to) == ("smtp", "pbm@example.test")


def test_the_spool_is_beside_the_sqlite_file_unless_configured(tmp_path: Path) -> None:
    """Default: ``spool`` beside the SQLite file; none for PostgreSQL; ``[database] spool_dir``
    is taken from the config file's folder; ``door_wait_ms`` defaults to 250."""
    sqlite = parse_config(config_data(f"sqlite:///{tmp_path}/db/pbm.sqlite3", tmp_path), env={})
    assert sqlite.database.spool_dir == tmp_path / "db" / "spool"
    assert sqlite.database.door_wait_ms == 250
    pg = parse_config(config_data("postgresql://u@h/pbm", tmp_path), env={})
    assert pg.database.spool_dir is None
    data = config_data(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path)
    data["database"] |= {"spool_dir": "queue/in", "door_wait_ms": 500}
    chosen = parse_config(data, env={}, source=tmp_path / "etc" / "pbm.toml")
    assert chosen.database.spool_dir == tmp_path / "etc" / "queue" / "in"
    assert chosen.database.door_wait_ms == 500
