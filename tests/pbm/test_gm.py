"""The GM: commands by mail need the GM's address and secret; CLI creation, listing, digest."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from pbm.cli import main
from pbm.core.config import Config
from pbm.daemon import Daemon
from pbm.db.models import Competition, InboundMail, OutboxMessage
from pbm.db.session import transaction
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import GM, GM_SECRET
from tests.pbm.helpers import SECRET_RE, join, naming_text, say


def test_newgame_by_mail_with_gm_secret(daemon: Daemon, sender: RecordingSender) -> None:
    """The GM creates a competition by mail; the reply says how players join."""
    body = f"SECRET {GM_SECRET}\nNEWGAME ASH t20 2 2026-02-01 The Ashes of Flungo\n"
    [reply] = say(daemon, sender, body, frm=GM, subject="new game")
    assert "Competition ASH created" in str(reply["Subject"])
    assert "pbm+ash@example.test" in body_of(reply)
    with transaction(daemon.app.sessions) as s:
        comp = s.scalars(select(Competition)).one()
        assert (comp.code, comp.teams, comp.name) == ("ASH", 2, "The Ashes of Flungo")


def test_newgame_with_bad_settings_explains(daemon: Daemon, sender: RecordingSender) -> None:
    """A NEWGAME with a bad format is answered with the problem and creates nothing."""
    body = f"SECRET {GM_SECRET}\nNEWGAME ASH cricket 2 2026-02-01 X\n"
    [reply] = say(daemon, sender, body, frm=GM, subject="new")
    assert "NOT created" in str(reply["Subject"]) and "format 'cricket'" in body_of(reply)


def test_gm_commands_need_gm_address_and_secret(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """DIGEST from the GM without the secret, or with it from another address, is refused."""
    [r1] = say(daemon, sender, "DIGEST\n", frm=GM, subject="digest")
    [r2] = say(daemon, sender, f"SECRET {GM_SECRET}\nDIGEST\n", frm="eve@example.test")
    assert "Refused" in str(r1["Subject"]) and "Refused" in str(r2["Subject"])
    assert all("GM digest" not in body_of(m) for m in sender.sent)


def test_digest_on_demand_by_mail(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """DIGEST with the GM secret lists joins, unnamed teams and mails not understood."""
    join(daemon, sender, "player1@example.test")
    say(daemon, sender, "what is this\n", frm="lost@example.test", subject="hello")
    [digest] = say(daemon, sender, f"SECRET {GM_SECRET}\nDIGEST\n", frm=GM, subject="digest")
    body = body_of(digest)
    assert "[DEMO] Demo Cup: 1/4 teams" in body
    assert "Teams still unnamed:" in body
    assert "Mails not understood (recent): 1" in body and "lost@example.test" in body


def test_digest_says_no_team_has_joined(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """A competition nobody has joined reads "No team has joined yet", not "Every team is named"."""
    [digest] = say(daemon, sender, f"SECRET {GM_SECRET}\nDIGEST\n", frm=GM, subject="digest")
    body = body_of(digest)
    assert "[DEMO] Demo Cup: 0/4 teams" in body and "No team has joined yet." in body
    assert "Every team" not in body


def _toml(config: Config, tmp_path: Path) -> Path:
    p = tmp_path / "cli.toml"
    p.write_text(
        f"""[server]\naddress = "pbm@example.test"\n[database]\nurl = "{config.database.url}"
[gm]\naddress = "{GM}"\nsecret = "{GM_SECRET}"
[security]\nsecret_key = "{config.security.secret_key}"
argon2_time_cost = 1\nargon2_memory_kib = 1024
[smtp_listener]\nport = 0\n[maildir]\npath = "{tmp_path}/out"\n"""
    )
    return p


def test_cli_gm_new_list_digest_and_mail_commands(
    daemon: Daemon, sender: RecordingSender, config: Config, tmp_path: Path
) -> None:
    """``pbm gm new/list/digest`` and ``pbm mail list/show/retry`` work on the same database."""
    path = str(_toml(config, tmp_path))
    runner = CliRunner()
    r = runner.invoke(
        main,
        [
            "gm",
            "new",
            "--config",
            path,
            "--code",
            "CLI",
            "--name",
            "Cli Cup",
            "--teams",
            "3",
            "--naming-deadline",
            "2030-01-01",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "pbm+cli@example.test" in r.output
    r = runner.invoke(
        main,
        [
            "gm",
            "new",
            "--config",
            path,
            "--code",
            "CLI",
            "--name",
            "x",
            "--teams",
            "3",
            "--naming-deadline",
            "2030-01-01",
        ],
    )
    assert r.exit_code == os.EX_DATAERR and "already taken" in r.output
    r = runner.invoke(main, ["gm", "list", "--config", path])
    assert "CLI" in r.output and "0/3" in r.output
    say(daemon, sender, "JOIN\n", subject="[cli] join")  # lower case: rich would eat "[cli]"
    r = runner.invoke(main, ["gm", "digest", "--config", path])
    assert r.exit_code == 0 and "[CLI] Cli Cup: 1/3 teams" in r.output
    r = runner.invoke(main, ["mail", "list", "--config", path])
    assert r.exit_code == 0 and "applied" in r.output
    assert "[cli]" in r.output  # the sender's subject, shown as sent
    with transaction(daemon.app.sessions) as s:
        mail_id = s.scalars(select(InboundMail.id)).one()
    r = runner.invoke(main, ["mail", "show", str(mail_id), "--config", path])
    assert "joined seat 1" in r.output
    r = runner.invoke(main, ["mail", "retry", str(mail_id), "--config", path])
    assert r.exit_code == os.EX_DATAERR and "not a dead letter: it was applied" in r.output
    r = runner.invoke(main, ["mail", "retry", "999", "--config", path])
    assert r.exit_code == os.EX_DATAERR and "no inbound mail" in r.output


def test_new_secret_replaces_the_old_one(
    daemon: Daemon, sender: RecordingSender, config: Config, tmp_path: Path, demo: str
) -> None:
    """``pbm gm new-secret`` mails a new secret; the old one is refused, the new one works."""
    old = join(daemon, sender, "player1@example.test")
    r = CliRunner().invoke(
        main, ["gm", "new-secret", "DEMO", "1", "--config", str(_toml(config, tmp_path))]
    )
    assert r.exit_code == 0, r.output
    with transaction(daemon.app.sessions) as s:  # the CLI ran on the real clock, not ours
        for row in s.scalars(select(OutboxMessage).where(OutboxMessage.status == "pending")):
            row.next_attempt_at = daemon.app.clock.now()
    daemon.run_once()
    mail = sender.sent[-1]
    assert "new secret" in str(mail["Subject"])
    m = SECRET_RE.search(body_of(mail))
    assert m and m.group(1) != old
    [refused] = say(daemon, sender, naming_text(old))
    assert "Refused" in str(refused["Subject"])
    [ok] = say(daemon, sender, naming_text(m.group(1)))
    assert "version 1" in str(ok["Subject"])
