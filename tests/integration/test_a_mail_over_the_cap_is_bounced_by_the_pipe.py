"""A mail over the byte cap through the MTA pipe, ``pbm ingest`` run as Postfix runs it (a
process, the mail on stdin): a person's is refused with a status the MTA bounces and one line
it quotes, and nothing is stored; an automatic one is not bounced, and only its headers are
stored, never answered; mail under the cap is stored whole; memory stays bounded."""

from __future__ import annotations

import mailbox
import subprocess
import sys
import uuid
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from pbm.db.models import InboundMail, OutboxMessage
from pbm.testing import make_eml
from tests.integration.pbm_proc import ROOT, env, pbm, write_config
from tests.services import SmtpSink

pytestmark = [pytest.mark.services, pytest.mark.slow]

EX_DATAERR = 65
CAP = 1_048_576


def big_mail(size: int, *, headers: dict[str, str] | None = None) -> bytes:
    """A mail of about ``size`` bytes: a line of orders and an attachment."""
    msg = EmailMessage()
    msg["From"] = "cam@example.test"
    msg["To"] = "pbm@example.test"
    msg["Subject"] = "orders and a video"
    msg["Message-ID"] = f"<pipe-{uuid.uuid4().hex}@example.test>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content("JOIN\n")
    msg.add_attachment(b"v" * (size * 3 // 4), "video", "mp4", filename="over.mp4")
    return msg.as_bytes()


def rows(db_url: str, answered: tuple[str, ...] = ()) -> list[tuple[str, str, bytes, str | None]]:
    """The stored mail (key, status, raw, note), when pbm answered only ``answered``."""
    db_engine = create_engine(db_url)
    with db_engine.connect() as c:
        found = c.execute(
            select(InboundMail.key, InboundMail.status, InboundMail.raw, InboundMail.note)
        ).all()
        sent = c.execute(select(OutboxMessage.to_addr)).scalars().all()
    db_engine.dispose()
    assert tuple(sent) == answered
    return [tuple(r) for r in found]  # type: ignore[misc]


@pytest.fixture
def setup(tmp_path: Path, smtp_sink: SmtpSink) -> tuple[Path, str]:
    db_url = f"sqlite:///{tmp_path}/pbm.sqlite3"
    config = write_config(tmp_path, db_url, smtp_sink.port)
    assert pbm("db", "upgrade", "--config", str(config)).returncode == 0
    return config, db_url


def test_a_persons_big_mail_is_bounced_with_one_line_and_not_stored(
    setup: tuple[Path, str], tmp_path: Path
) -> None:
    """A 3 MB mail on stdin: exit 65 (EX_DATAERR, a permanent failure the MTA bounces to the
    sender) with one line on stderr that gives the size and the limit and asks for plain
    text; nothing stored, nothing spooled."""
    config, db_url = setup
    raw = big_mail(3_000_000)
    got = pbm("ingest", "--config", str(config), "--sender", "cam@example.test", input=raw)
    assert got.returncode == EX_DATAERR
    line = got.stderr.decode().strip()
    assert "\n" not in line
    assert f"{len(raw)} bytes, the limit is {CAP}" in line and "plain text" in line
    assert rows(db_url) == []
    assert not any((tmp_path / "spool").glob("*.mail"))


def test_an_automatic_big_mail_is_not_bounced_and_its_headers_are_kept_once(
    setup: tuple[Path, str],
) -> None:
    """A 3 MB auto-reply, and a 3 MB bounce (null reverse-path): exit 0, so the MTA sends no
    bounce to an automaton; each is stored as its headers and size, once however often it
    comes, and handled as too big and not answered. A mail under the cap is stored whole."""
    config, db_url = setup
    auto = big_mail(3_000_000, headers={"Auto-Submitted": "auto-replied"})
    for _ in range(2):
        got = pbm("ingest", "--config", str(config), "--sender", "cam@example.test", input=auto)
        assert got.returncode == 0, got.stderr
    assert b"already had it" in got.stderr
    report = big_mail(3_100_000)
    assert pbm("ingest", "--config", str(config), "--sender", "", input=report).returncode == 0
    small = make_eml("HELP\n", sender="p1@example.test")
    assert pbm("ingest", "--config", str(config), input=small).returncode == 0
    assert pbm("run", "--once", "--config", str(config)).returncode == 0

    found = rows(db_url, answered=("p1@example.test",))
    assert len(found) == 3
    heads = [r for r in found if r[2].startswith(b"X-Pbm-Oversize: ")]
    assert [r[1] for r in heads] == ["ignored", "ignored"]
    assert all(r[3] and r[3].startswith("too big (") and len(r[2]) < 2000 for r in heads)
    assert "Auto-Submitted" in (heads[0][3] or "") and "MAIL FROM:<>" in (heads[1][3] or "")
    whole = [r for r in found if not r[2].startswith(b"X-Pbm-Oversize: ")]
    assert whole[0][2] == small


def test_a_big_file_is_measured_answered_once_and_left_where_it_is(
    setup: tuple[Path, str], tmp_path: Path
) -> None:
    """``pbm ingest FILE`` of a 3 MB mail in a real Maildir (no MTA to bounce it): the file
    is measured, its headers stored, the sender answered once by pbm as from IMAP, and the
    file left as it was for the GM, named in the note; given again, it is the same mail, not
    answered again."""
    config, db_url = setup
    maildir = mailbox.Maildir(tmp_path / "Maildir", create=True)  # as a local MDA delivers
    file = tmp_path / "Maildir" / "new" / maildir.add(big_mail(3_000_000))
    before = file.read_bytes()
    for _ in range(2):
        assert pbm("ingest", str(file), "--config", str(config)).returncode == 0
        assert pbm("run", "--once", "--config", str(config)).returncode == 0
    [(_, status, raw, note)] = rows(db_url, answered=("cam@example.test",))
    assert status == "rejected" and raw.startswith(b"X-Pbm-Oversize: ") and len(raw) < 2000
    assert note is not None and str(file) in note
    assert file.read_bytes() == before


def test_the_pipe_reads_no_more_than_the_cap(setup: tuple[Path, str]) -> None:
    """``pbm ingest`` given 40 MB grows by about the cap, not the mail: its peak memory is
    within 8 MB of the same command given a small mail."""
    config, _ = setup
    # VmHWM, the process's own peak (ru_maxrss would count this test's, inherited at fork)
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write("
        "'maxrss=' + open('/proc/self/status').read().split('VmHWM:')[1].split()[0] + '\\n'))\n"
        "from pbm.cli import main\n"
        "main()\n"
    )

    def peak_kib(raw: bytes) -> int:
        got = subprocess.run(
            [sys.executable, "-c", probe, "ingest", "--config", str(config), "--sender", "<>"],
            input=raw,
            env=env(),
            capture_output=True,
            timeout=120,
            cwd=ROOT,
        )
        assert got.returncode == 0, got.stderr
        return int(got.stderr.decode().rsplit("maxrss=", 1)[1].split()[0])

    small = peak_kib(make_eml("HELP\n"))
    big = peak_kib(big_mail(40_000_000))
    assert big - small < 8 * 1024
