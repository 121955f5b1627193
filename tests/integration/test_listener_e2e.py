"""A player joins and names a squad through a real ``pbm serve``: SMTP listener in, SMTP out."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbm.testing import body_of, make_eml
from tests.integration.pbm_proc import GM_SECRET, Serve, pbm, write_config
from tests.pbm.helpers import SECRET_RE, naming_text
from tests.services import SmtpSink

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_join_and_name_over_the_smtp_listener(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """JOIN, then a naming, then a changed naming, then the GM's DIGEST, all by SMTP."""
    config = write_config(tmp_path, f"sqlite:///{tmp_path}/pbm.sqlite3", smtp_sink.port)
    assert pbm("db", "upgrade", "--config", str(config)).returncode == 0
    serve = Serve(config)
    try:
        with smtplib.SMTP("127.0.0.1", serve.port, timeout=20) as s:
            gm_new = "NEWGAME DEMO t20 4 2099-01-01 Demo Cup\n"
            s.send_message(_msg(f"SECRET {GM_SECRET}\n{gm_new}", "gm@example.test", "new"))
        created = smtp_sink.reply(1, 20)
        assert "Competition DEMO created" in str(created["Subject"])
        with smtplib.SMTP("127.0.0.1", serve.port, timeout=20) as s:
            s.sendmail(
                "p1@example.test",
                ["pbm+demo@example.test"],
                make_eml(
                    "JOIN\n",
                    sender="p1@example.test",
                    to="pbm+demo@example.test",
                    subject="hi",
                    message_id="<j1@example.test>",
                ),
            )
        welcome = smtp_sink.reply(2, 20)
        assert welcome["In-Reply-To"] == "<j1@example.test>"
        m = SECRET_RE.search(body_of(welcome))
        assert m
        secret = m.group(1)
        with smtplib.SMTP("127.0.0.1", serve.port, timeout=20) as s:
            s.send_message(_msg(naming_text(secret), "p1@example.test", "Re: [DEMO] names"))
        named = smtp_sink.reply(3, 20)
        assert "version 1" in str(named["Subject"])
        with smtplib.SMTP("127.0.0.1", serve.port, timeout=20) as s:
            s.send_message(
                _msg(naming_text(secret, team="Gunge United"), "p1@example.test", "[DEMO] v2")
            )
        changed = smtp_sink.reply(4, 20)
        assert "The Gloopers -> Gunge United" in body_of(changed)
        with smtplib.SMTP("127.0.0.1", serve.port, timeout=20) as s:
            s.send_message(_msg(f"SECRET {GM_SECRET}\nDIGEST\n", "gm@example.test", "digest"))
        digest = body_of(smtp_sink.reply(5, 20))
        assert "[DEMO] Demo Cup: 1/4 teams" in digest
        assert "Every team that has joined is named; 3 place(s) still open." in digest
    finally:
        code, err = serve.stop()
    assert code == 0, err
    assert secret not in err and GM_SECRET not in err


def _msg(body: str, frm: str, subject: str) -> EmailMessage:
    m = EmailMessage()
    m["From"] = frm
    m["To"] = "pbm@example.test"
    m["Subject"] = subject
    m.set_content(body)
    return m
