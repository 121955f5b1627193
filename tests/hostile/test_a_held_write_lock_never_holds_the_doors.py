"""While a pass holds SQLite's write lock, the SMTP door and ``pbm ingest`` still answer at
once: the mail goes to the spool, sealed, and the next pass stores and answers it once.

The lock is held on purpose (a transaction begun ``BEGIN IMMEDIATE`` in a thread, as a pass
handling a long mail holds it), not by load."""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from pbm.cli import main
from pbm.db.models import InboundMail, OutboxMessage
from pbm.db.session import transaction
from pbm.inbound.spool import DEAD, Spool
from tests.hostile.conftest import Doors, eml
from tests.hostile.test_doors import join
from tests.pbm.conftest import GM, a_writer_holds

HOLD_SECONDS = 3.0


def write_lock_held(doors: Doors, seconds: float = HOLD_SECONDS) -> AbstractContextManager[None]:
    """The database's write lock held for ``seconds`` in another thread, as a long pass holds
    it."""
    return a_writer_holds(doors.app, seconds)


def spool(doors: Doors) -> Spool:
    """The spool the doors write to."""
    assert doors.app.spool is not None
    return doors.app.spool


def test_smtp_door_answers_within_a_second_while_a_pass_holds_the_lock(
    doors: Doors, demo: str
) -> None:
    """With the write lock held for 3 s, a delivery gets 250 in under 1 s; the mail waits in
    the spool, and the next pass stores it once (door smtp, its envelope) and answers it once."""
    with write_lock_held(doors):
        started = time.monotonic()
        code, _ = doors.smtp(eml("HELP\n", frm="player2@example.test"), "player2@example.test")
        waited = time.monotonic() - started
        assert code == 250 and waited < 1.0, (code, waited)
        assert len(spool(doors).files()) == 1
    assert doors.inbound() == []
    wires = doors.run()
    assert [w.rcpt_tos for w in wires] == [["player2@example.test"]]
    [row] = doors.inbound()
    assert (row.door, row.envelope_from, row.status) == ("smtp", "player2@example.test", "applied")
    assert row.envelope_to == "pbm@example.test"
    assert spool(doors).files() == []
    assert doors.run() == []  # nothing twice


def test_a_spooled_mail_and_its_redelivery_are_stored_once(doors: Doors, demo: str) -> None:
    """The MTA's retry of a spooled mail (same Message-ID) after the pass stored it is a
    no-op; two copies spooled meanwhile are stored and answered once."""
    raw = eml("HELP\n", frm="player2@example.test", message_id="<twice@example.test>")
    with write_lock_held(doors):
        assert doors.smtp(raw, "player2@example.test")[0] == 250
        assert doors.smtp(raw, "player2@example.test")[0] == 250
    assert len(doors.run()) == 1
    assert doors.smtp(raw, "player2@example.test")[0] == 250
    assert doors.run() == []
    assert len(doors.inbound()) == 1


def test_a_spooled_secret_is_never_on_disk_in_clear(doors: Doors, demo: str) -> None:
    """A mail with a SECRET line spooled: the file's bytes hold neither the secret nor any
    line of the mail; the pass reads it back and handles the orders."""
    secret = join(doors)
    body = f"SECRET {secret}\ntoss: bat\nBAT Root aggressive\n"
    with write_lock_held(doors):
        assert doors.smtp(eml(body, subject="[DEMO] orders"))[0] == 250
        [path] = spool(doors).files()
        data = path.read_bytes()
    for clear in (secret.encode(), b"SECRET", b"aggressive", b"player1@example.test", b"DEMO"):
        assert clear not in data
    assert path.stat().st_mode & 0o077 == 0  # the owner's alone
    [answer] = doors.run()
    assert secret not in answer.text
    rows = doors.inbound()
    assert rows[-1].status == "applied" and secret.encode() not in rows[-1].raw


def test_an_unreadable_spool_file_becomes_a_dead_letter_once(doors: Doors, demo: str) -> None:
    """A truncated spool file, one of garbage and a folder by a spool file's name: each is
    moved to dead/, recorded once as a dead letter and the GM alerted once; a good file beside
    them is handled as usual."""
    with write_lock_held(doors, 1.0):
        assert (
            doors.smtp(eml("HELP\n", frm="player2@example.test"), "player2@example.test")[0] == 250
        )
        assert (
            doors.smtp(eml("HELP\n", frm="player3@example.test"), "player3@example.test")[0] == 250
        )
    _, cut = spool(doors).files()
    cut.write_bytes(cut.read_bytes()[:40])
    junk = spool(doors).path / "00000000000000000001-1-dead.mail"
    junk.write_bytes(b"\x00not a sealed mail")
    folder = spool(doors).path / "00000000000000000002-1-folder.mail"
    folder.mkdir()
    wires = doors.run()
    to = sorted(r for w in wires for r in w.rcpt_tos)
    assert to == sorted([GM, GM, GM, "player2@example.test"]), to
    assert spool(doors).files() == []
    dead = sorted(p.name for p in (spool(doors).path / DEAD).iterdir())
    assert dead == sorted([cut.name, junk.name, folder.name])
    shunted = [r for r in doors.inbound() if r.status == "shunted"]
    assert sorted(r.key for r in shunted) == sorted(f"spool:{n}" for n in dead)
    assert all(r.door == "spool" and "unreadable spool file" in (r.error or "") for r in shunted)
    shown = doors.cli("mail", "show", str(shunted[0].id))
    assert shown.exit_code == 0 and "unreadable spool file" in shown.output, shown.output
    assert doors.run() == []
    with transaction(doors.app.sessions) as s:
        alerts = s.scalars(select(OutboxMessage.id).where(OutboxMessage.kind == "gm-alert"))
        assert len(list(alerts)) == 3


def test_ingest_spools_while_the_lock_is_held(doors: Doors, demo: str) -> None:
    """``pbm ingest`` exits 0 within a second while the lock is held (spooled), and the next
    pass answers the mail once."""
    raw = eml("HELP\n", frm="player4@example.test")
    with write_lock_held(doors):
        started = time.monotonic()
        result = CliRunner().invoke(
            main,
            ["ingest", "--config", str(doors.config_file), "--sender", "p4@example.test"],
            input=raw,
        )
        assert result.exit_code == 0, result.output
        assert time.monotonic() - started < 2.0, result.output
        assert "spooled" in result.output
    [wire] = doors.run()
    assert wire.rcpt_tos == ["player4@example.test"]
    [row] = doors.inbound()
    assert (row.door, row.envelope_from) == ("ingest", "p4@example.test")


def test_status_shows_the_spool_and_health_fails_on_an_old_file(doors: Doors, demo: str) -> None:
    """``pbm status --json`` answers while the lock is held and counts the spool and its oldest
    age; ``pbm health`` names a spool file older than [health] max_spool_seconds, and no longer
    once a pass imported it."""
    with write_lock_held(doors):
        assert (
            doors.smtp(eml("HELP\n", frm="player2@example.test"), "player2@example.test")[0] == 250
        )
        started = time.monotonic()
        assert doors.cli("status", "--json").exit_code == 0  # read only: no wait on the lock
        assert time.monotonic() - started < 2.0
    [path] = spool(doors).files()
    old_ns = time.time_ns() - 600 * 10**9
    path.rename(path.with_name(f"{old_ns:020d}-{path.name.split('-', 1)[1]}"))
    shown = doors.cli("status", "--json")
    assert shown.exit_code == 0, shown.output
    st = json.loads(shown.output)["spool"]
    assert st["count"] == 1 and 590 < st["oldest_seconds"] < 700, st
    sick = doors.cli("health")
    assert sick.exit_code != 0 and "the spool holds 1 mails" in sick.output, sick.output
    doors.run()
    assert "spool" not in doors.cli("health").output
    assert json.loads(doors.cli("status", "--json").output)["spool"]["count"] == 0


def test_the_spool_lives_beside_the_sqlite_file(doors: Doors) -> None:
    """By default the spool is the folder ``spool`` beside the database file, and the door
    stores straight into the database while the lock is free (no file)."""
    db = Path(doors.app.config.database.url.removeprefix("sqlite:///"))
    assert spool(doors).path == db.parent / "spool"
    assert doors.smtp(eml("HELP\n"))[0] == 250
    assert spool(doors).files() == [] and len(doors.inbound()) == 1
    with transaction(doors.app.sessions) as s:
        assert s.scalar(select(InboundMail.door)) == "smtp"


def test_mail_after_a_spooled_one_keeps_its_place(doors: Doors, demo: str) -> None:
    """A mail that comes once the lock is free, while an earlier one still waits in the spool,
    goes to the spool too: the pass stores and handles them in the order they came (a
    player's later orders stand)."""
    with write_lock_held(doors, 1.0):
        assert doors.smtp(eml("HELP\n", frm="first@example.test"), "first@example.test")[0] == 250
    assert doors.smtp(eml("HELP\n", frm="second@example.test"), "second@example.test")[0] == 250
    assert len(spool(doors).files()) == 2 and doors.inbound() == []
    wires = doors.run()
    assert [w.rcpt_tos for w in wires] == [["first@example.test"], ["second@example.test"]]
    froms = [r.envelope_from for r in doors.inbound()]
    assert froms == ["first@example.test", "second@example.test"]
