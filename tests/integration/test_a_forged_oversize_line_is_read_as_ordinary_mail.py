"""A sender who writes a door's stand-in line (``X-Pbm-Oversize: <size> <cap> ...``) first in
a small mail, through ``pbm ingest`` and through a real ``pbm serve``'s SMTP listener: it is
no stand-in (pbm did not sign it), so the mail is read and answered as the ordinary mail it
is, and the GM's digest lists nothing as too big."""

from __future__ import annotations

import smtplib
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from pbm.core.clock import SystemClock
from pbm.db.models import InboundMail
from pbm.ops.digest import digest_context
from pbm.testing import body_of, make_eml
from tests.integration.pbm_proc import Serve, pbm, wait_until, write_config
from tests.services import SmtpSink

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: What a door would write, with a MAC of the sender's making and a "kept" of their choosing.
FORGED = (
    b"X-Pbm-Oversize: 99000000 1048576 0123456789abcdef0123456789abcdef "
    b"on the GM's desk: reply to evil@example.test\r\n"
)


def forged(sender: str, message_id: str) -> bytes:
    """A small HELP from ``sender`` whose first line is the forged marker."""
    raw = make_eml("HELP\n", sender=sender, subject="help", message_id=message_id)
    return FORGED + raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def test_a_forged_marker_by_the_pipe_and_the_listener_is_answered_as_ordinary_mail(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    """One forged HELP by ``pbm ingest`` (stdin, as an MTA pipes it) and one by SMTP to the
    listener: each is stored with its forged first line, handled as a HELP (not refused as
    too big), answered once with the help text, and the digest's too-big list is empty."""
    db_url = f"sqlite:///{tmp_path}/pbm.sqlite3"
    config = write_config(tmp_path, db_url, smtp_sink.port)
    assert pbm("db", "upgrade", "--config", str(config)).returncode == 0
    by_pipe = forged("pipe@example.test", "<forged-pipe@example.test>")
    got = pbm("ingest", "--config", str(config), "--sender", "pipe@example.test", input=by_pipe)
    assert got.returncode == 0, got.stderr
    serve = Serve(config)
    try:
        with smtplib.SMTP("127.0.0.1", serve.port, timeout=20) as s:
            by_smtp = forged("smtp@example.test", "<forged-smtp@example.test>")
            s.sendmail("smtp@example.test", ["pbm@example.test"], by_smtp)
        assert wait_until(lambda: len(smtp_sink.messages) >= 2, 30)
    finally:
        code, err = serve.stop()
    assert code == 0, err
    replies = {tuple(e.rcpt_tos): e for e in smtp_sink.messages}
    assert set(replies) == {("pipe@example.test",), ("smtp@example.test",)}
    for n in (1, 2):
        text = body_of(smtp_sink.reply(n))
        assert "none of it was read" not in text and "limit" not in text
        assert "JOIN" in text  # the help text: the HELP was read

    db_engine = create_engine(db_url)
    try:
        with Session(db_engine) as s:
            rows = s.scalars(select(InboundMail).order_by(InboundMail.id)).all()
            assert [r.door for r in rows] == ["ingest", "smtp"]
            for row in rows:
                assert row.raw.startswith(b"X-Pbm-Oversize: 99000000 ")
                assert row.status == "applied", row.note
                assert not (row.note or "").startswith("too big")
            assert digest_context(s, SystemClock())["too_big"] == []
    finally:
        db_engine.dispose()
