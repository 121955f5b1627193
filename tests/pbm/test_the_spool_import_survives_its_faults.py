"""The spool's import (SQLite) survives what its files and the database do to it: a mail whose
row the database refuses becomes a dead letter alone (its sealed bytes kept for ``pbm mail
retry``), with its GM alert in one transaction, while a full disk buries nothing; a passing
read error leaves the file for the next pass, the files go only after a synced commit, a
batch is bounded by bytes and by files, dead letters too (so a stop waits for one batch at
most), and a pass survives whatever the import raises."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.exc import IntegrityError, OperationalError

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, MailStatus, OutboxMessage
from pbm.db.session import transaction
from pbm.inbound import spool as spool_module
from pbm.inbound.pipeline import Arrival
from pbm.inbound.spool import DEAD, READ_TRIES, DoorStore, Spool, import_spool, retry_dead
from pbm.secrets import Sealer
from pbm.testing import RecordingSender, make_eml
from tests.pbm.conftest import a_full_disk, config_data

AT = datetime(2026, 1, 1, 8, tzinfo=UTC)
#: What ``pbm ingest --sender "$sender"`` gets from Postfix for a sender's bytes not UTF-8.
BAD_FROM = b"x\xff@evil.test".decode("utf-8", "surrogateescape")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    """An App on a migrated SQLite file, its spool beside it."""
    data = config_data(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path)
    clock = FixedClock(datetime(2026, 1, 1, 9, tzinfo=UTC))
    app = App.from_config(parse_config(data, env={}), clock, upgrade=True)
    yield app
    app.close()


def _put(spool: Spool, n: int, envelope_from: str = "p@example.test", body: str = "HELP\n") -> Path:
    raw = make_eml(body, sender=f"p{n}@example.test", message_id=f"<m{n}@example.test>")
    return spool.put(Arrival(raw, "smtp", envelope_from, ("pbm@example.test",), AT))


def _rows(app: App) -> dict[str, InboundMail]:
    with transaction(app.sessions) as s:
        return {r.key: r for r in s.scalars(select(InboundMail))}


def _refuse(app: App, key: str) -> None:
    """The database refuses to store the row of ``key`` (a trigger), as it refused a row
    whose envelope held bytes it could not encode."""
    with app.db_engine.begin() as c:
        c.execute(
            text(
                "CREATE TRIGGER refuse BEFORE INSERT ON inbound_mail "
                f"WHEN NEW.key = '{key}' BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        )


def test_a_mail_the_database_refuses_is_a_dead_letter_and_the_rest_is_stored(app: App) -> None:
    """Of three spooled mails the database refuses the second: the batch falls back to one
    mail at a time, the first and third are stored and their files removed, the second is a
    dead letter (the GM alerted) holding the file's sealed bytes, its file in dead/. Once the
    database takes it, ``pbm mail retry``'s path stores it, even with the file gone."""
    spool = app.spool
    assert spool is not None
    files = [_put(spool, n) for n in range(3)]
    _refuse(app, "<m1@example.test>")
    import_spool(spool, app.inbound)
    assert spool.files() == []
    rows = _rows(app)
    assert {"<m0@example.test>", "<m2@example.test>"} <= rows.keys()
    assert "<m1@example.test>" not in rows
    dead = rows[f"spool:{files[1].name}"]
    assert dead.status == MailStatus.SHUNTED and dead.error and "could not be stored" in dead.error
    assert dead.sealed == (spool.path / DEAD / files[1].name).read_bytes()
    with transaction(app.sessions) as s:
        alerts = s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "gm-alert")).all()
        assert len(alerts) == 1
    with app.db_engine.begin() as c:
        c.execute(text("DROP TRIGGER refuse"))
    (spool.path / DEAD / files[1].name).unlink()  # the row's copy is enough
    stored = retry_dead(spool, app.inbound, dead.id)
    assert stored is not None and stored.created
    assert _rows(app)["<m1@example.test>"].status == MailStatus.RECEIVED


def test_a_sender_not_in_utf8_is_neutralised_at_the_door_and_in_the_spool(app: App) -> None:
    """``pbm ingest``'s envelope sender in bytes that are not UTF-8 is stored as text, read
    as windows-1252, whether the door stores it at once or spools it, and a spool file that
    an earlier door wrote with it is imported as well, with the mail spooled after it."""
    spool = app.spool
    assert spool is not None
    door = DoorStore(app.inbound, spool, 200)
    direct = door.store(make_eml("HELP\n", message_id="<d@example.test>"), "ingest", BAD_FROM)
    assert direct is not None and direct.created
    _put(spool, 0, envelope_from=BAD_FROM)  # as the door before this fix spooled it
    spooled = door.store(make_eml("HELP\n", message_id="<s@example.test>"), "ingest", BAD_FROM)
    assert spooled is None  # mail waits in the spool: this one goes behind it
    assert import_spool(spool, app.inbound).stored == 2
    rows = _rows(app)
    for key in ("<d@example.test>", "<m0@example.test>", "<s@example.test>"):
        assert rows[key].envelope_from == "x\u00ff@evil.test"
    assert spool.files() == []


def test_a_pass_survives_an_import_that_raises(app: App, tmp_path: Path) -> None:
    """A spool the import cannot even list (its path a file) costs the pass one error and
    a "spool" incident: the mail stored meanwhile is still handled and answered."""
    assert app.spool is not None
    app.spool.path = tmp_path / "not-a-folder"
    app.spool.path.write_text("x")
    app.inbound.store(make_eml("HELP\n", sender="p@example.test"), "smtp")
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    stats = daemon.run_once()
    assert stats.errors == 1 and stats.processed == 1
    assert sender.to("p@example.test")
    assert "spool" in daemon.incidents._open


def test_a_passing_read_error_leaves_the_file(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """One EMFILE reading a spool file leaves it in the spool, no dead letter; the next
    import stores it. (Running out of descriptors is injected: it cannot be made safely.)"""
    spool = app.spool
    assert spool is not None
    _put(spool, 0)
    real = Path.read_bytes
    failures = iter([OSError(errno.EMFILE, "Too many open files")])

    def flaky(path: Path) -> bytes:
        for exc in failures:
            raise exc
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", flaky)
    assert import_spool(spool, app.inbound).stored == 0
    assert len(spool.files()) == 1 and _rows(app) == {}
    assert import_spool(spool, app.inbound).stored == 1
    assert "<m0@example.test>" in _rows(app)


def test_a_file_that_never_reads_becomes_a_dead_letter_after_its_tries(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spool file whose every read fails (EIO, injected) stays in the spool for
    READ_TRIES - 1 imports, the file beside it imported; then it is a dead letter, kept in
    dead/, with no sealed bytes (none were read)."""
    spool = app.spool
    assert spool is not None
    bad = _put(spool, 0)
    _put(spool, 1)
    real = Path.read_bytes

    def failing(path: Path) -> bytes:
        if path.name == bad.name:
            raise OSError(errno.EIO, "Input/output error")
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", failing)
    for _ in range(READ_TRIES - 1):
        import_spool(spool, app.inbound)
        assert spool.files() == [bad]
    assert "<m1@example.test>" in _rows(app)
    import_spool(spool, app.inbound)
    assert spool.files() == [] and (spool.path / DEAD / bad.name).exists()
    dead = _rows(app)[f"spool:{bad.name}"]
    assert dead.status == MailStatus.SHUNTED and dead.sealed is None


def test_the_import_commits_under_synchronous_full(app: App) -> None:
    """The commit that stores spooled mail runs with ``synchronous=FULL`` (synced before its
    files are removed); the connection goes back to the pool at NORMAL."""
    spool = app.spool
    assert spool is not None
    _put(spool, 0)
    seen: list[int] = []

    def on_commit(conn: Any) -> None:
        seen.append(conn.connection.driver_connection.execute("PRAGMA synchronous").fetchone()[0])

    event.listen(app.db_engine, "commit", on_commit)
    try:
        assert import_spool(spool, app.inbound).stored == 1
    finally:
        event.remove(app.db_engine, "commit", on_commit)
    assert seen and all(level == 2 for level in seen)
    with app.db_engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 1


def test_a_batch_is_bounded_by_bytes_and_a_stop_ends_the_import(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a batch's bytes bounded below one file, each batch is one file: an import asked
    to stop ends after its first batch, one without a stop takes the rest, a batch each."""
    spool = app.spool
    assert spool is not None
    for n in range(4):
        _put(spool, n)
    monkeypatch.setattr(spool_module, "IMPORT_BYTES", 1)
    commits: list[object] = []

    def on_commit(conn: Any) -> None:
        commits.append(conn)

    event.listen(app.db_engine, "commit", on_commit)
    try:
        assert import_spool(spool, app.inbound, lambda: True).stored == 1
        assert len(spool.files()) == 3
        assert import_spool(spool, app.inbound).stored == 3
    finally:
        event.remove(app.db_engine, "commit", on_commit)
    assert spool.files() == [] and len(commits) >= 4


def test_a_new_spool_folder_is_synced_into_its_parent(
    tmp_path: Path, app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first spooled mail creates the folder (and a missing parent): each new entry's
    parent is fsync'd, so the folder survives a power cut with the file in it."""
    synced: list[str] = []
    real = os.fsync

    def watch(fd: int) -> None:
        synced.append(str(Path(f"/proc/self/fd/{fd}").readlink()))
        real(fd)

    monkeypatch.setattr(os, "fsync", watch)
    spool = Spool(tmp_path / "new" / "spool", app.inbound.sealer)
    _put(spool, 0)
    assert str(tmp_path) in synced and str(tmp_path / "new") in synced


def test_a_row_the_database_refuses_is_no_race_between_doors(app: App) -> None:
    """A mail whose row the database refuses by itself (a trigger, a CHECK) raises that
    refusal from the store, not a "no row found" from looking up another door's copy: the
    store took an IntegrityError for a race only when a row with the key exists."""
    _refuse(app, "<race@example.test>")
    with pytest.raises(IntegrityError, match="refused"):
        app.inbound.store(make_eml("HELP\n", message_id="<race@example.test>"), "smtp")
    assert "<race@example.test>" not in _rows(app)


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
    assert timed_out.left and dead < _counts(app)[0] <= dead + 5  # 5, or fewer in 2 s
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
    _put(spool, 0, body=body)
    with a_full_disk(app, spare_pages=45), pytest.raises(OperationalError, match="full"):
        import_spool(spool, app.inbound)
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
    with pytest.raises(IntegrityError, match="no room for the alert"):
        import_spool(spool, app.inbound)
    with transaction(app.sessions) as s:
        assert s.scalar(select(func.count()).select_from(InboundMail)) == 0
    assert spool.files() == [path]
    with app.db_engine.begin() as c:
        c.execute(text("DROP TRIGGER no_alert"))
    import_spool(spool, app.inbound)
    assert _counts(app) == (1, 1) and spool.files() == []
    assert (spool.path / DEAD / path.name).exists()
