"""OAuth2 mailboxes end to end, on this machine: Dovecot checks every XOAUTH2 / OAUTHBEARER
login by introspection (RFC 7662) at a loopback token server, which is also the token
endpoint pbm refreshes its access token at; pbm sends through Dovecot's submission service,
which relays to the sink. Nothing is mocked: what a provider does (tokens that expire, refresh
tokens that rotate or are revoked) is what the token server does."""

from __future__ import annotations

import stat
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import structlog

from pbm.app import App, make_mailboxes, make_sender
from pbm.core.config import Config, parse_config
from pbm.core.errors import ImapError, SmtpError
from pbm.daemon import Daemon
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.mail.imap import ImapMailbox
from pbm.mail.oauth2 import TokenSource
from pbm.mail.ports import Envelope
from pbm.mail.smtp import SmtpSender
from pbm.testing import body_of, make_eml
from tests.integration.pbm_proc import wait_until
from tests.oauth_server import CLIENT_ID, CLIENT_SECRET, TokenServer, token_server
from tests.services import (
    DovecotInstance,
    OAuth2Setup,
    SmtpSink,
    own_dovecot,
    post_office_config,
    start_smtp_sink,
)

pytestmark = [pytest.mark.services, pytest.mark.slow]

PATIENCE = 60.0


@pytest.fixture(scope="module")
def relay() -> Iterator[SmtpSink]:
    """Where Dovecot's submission service relays what pbm submits."""
    sink = start_smtp_sink()
    yield sink
    sink.controller.stop()


@pytest.fixture(scope="module")
def tokens() -> Iterator[TokenServer]:
    """The provider: token endpoint and introspection, on a loopback port."""
    with token_server() as server:
        yield server


@pytest.fixture(scope="module")
def server(tokens: TokenServer, relay: SmtpSink) -> Iterator[DovecotInstance]:
    """A Dovecot that takes OAuth2 logins (IMAP and submission) checked at ``tokens``."""
    with own_dovecot(
        "dovecot-oauth2", oauth2=OAuth2Setup(tokens.introspection_url, relay.port)
    ) as d:
        yield d


@pytest.fixture(autouse=True)
def fresh_tokens(tokens: TokenServer, relay: SmtpSink) -> None:
    """Each test starts with the provider's defaults and an empty relay."""
    tokens.lifetime, tokens.rotate = 3600.0, False
    tokens.refreshes.clear()
    tokens.refused.clear()
    relay.messages.clear()


def source(tokens: TokenServer, refresh: str, **kw: Any) -> TokenSource:
    from pbm.mail.oauth2 import OAuth2Config

    cfg = OAuth2Config(
        "custom", tokens.token_url, CLIENT_ID, "mail", CLIENT_SECRET, refresh_token=refresh, **kw
    )
    return TokenSource(cfg)


def mailbox(server: DovecotInstance, src: TokenSource, mechanism: str) -> ImapMailbox:
    return ImapMailbox(
        server.host,
        server.imap,
        username="pbm",
        oauth2=src,
        mechanism="oauthbearer" if mechanism == "oauthbearer" else "xoauth2",
        security="plain",
        timeout=10,
    )


def submission(server: DovecotInstance, src: TokenSource, mechanism: str) -> SmtpSender:
    return SmtpSender(
        server.host,
        server.submission,
        security="plain",
        username="pbm",
        oauth2=src,
        mechanism="oauthbearer" if mechanism == "oauthbearer" else "xoauth2",
        timeout=10,
    )


def note(subject: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "pbm@example.test", "p1@example.test", subject
    msg.set_content("hello\n")
    return msg


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_imap_and_smtp_log_in_with_a_refreshed_token(
    server: DovecotInstance, tokens: TokenServer, relay: SmtpSink, mechanism: str
) -> None:
    """Both doors log in by the SASL mechanism with the access token pbm got from the
    refresh token; one refresh serves both."""
    src = source(tokens, tokens.issue_refresh_token("pbm"))
    with mailbox(server, src, mechanism) as mb:
        mb.connect()
        assert mb.connected
    with submission(server, src, mechanism) as out:
        out.send(note(f"by {mechanism}"), Envelope("pbm@example.test", ("p1@example.test",)))
    assert relay.wait_for(1)[0].rcpt_tos == ["p1@example.test"]
    assert tokens.refreshes == ["pbm"]
    log = (server.root / "dovecot.log").read_text()
    assert f"method={mechanism.upper()}" in log


def test_an_expired_token_is_refreshed_before_it_is_used(
    server: DovecotInstance, tokens: TokenServer
) -> None:
    """An access token past its expires_in is never offered: the next login refreshes first."""
    tokens.lifetime = 2.0
    src = source(tokens, tokens.issue_refresh_token("pbm"))
    with mailbox(server, src, "xoauth2") as mb:
        mb.connect()
    time.sleep(2.1)
    with mailbox(server, src, "xoauth2") as mb:
        mb.connect()
        assert mb.connected
    assert tokens.refreshes == ["pbm", "pbm"]


@pytest.mark.parametrize("door", ["imap", "smtp"])
def test_a_token_refused_early_is_refreshed_and_the_login_retried(
    server: DovecotInstance, tokens: TokenServer, relay: SmtpSink, door: str
) -> None:
    """The server refuses a token pbm still thought good (revoked, clocks apart): pbm gets a
    fresh one and logs in on the same connection."""
    src = source(tokens, tokens.issue_refresh_token("pbm"))
    src.token()
    tokens.expire_access_tokens()
    if door == "imap":
        with mailbox(server, src, "xoauth2") as mb:
            mb.connect()
            assert mb.connected
    else:
        with submission(server, src, "oauthbearer") as out:
            out.send(note("after expiry"), Envelope("pbm@example.test", ("p1@example.test",)))
        assert relay.wait_for(1)
    assert tokens.refreshes == ["pbm", "pbm"]


def test_a_revoked_refresh_token_is_one_clear_error_at_each_door(
    server: DovecotInstance, tokens: TokenServer
) -> None:
    """invalid_grant reaches each door as its own error, saying what the operator must do."""
    refresh = tokens.issue_refresh_token("pbm")
    tokens.revoke(refresh)
    src = source(tokens, refresh)
    with pytest.raises(ImapError, match=r"refused the refresh token: invalid_grant.*new refresh"):
        mailbox(server, src, "xoauth2").connect()
    with pytest.raises(SmtpError, match="refused the refresh token") as caught:
        submission(server, src, "xoauth2").send(
            note("never"), Envelope("pbm@example.test", ("p1@example.test",))
        )
    assert caught.value.relay  # the outbox keeps the mail and waits for the relay
    assert refresh not in str(caught.value)


# -- the daemon, configured as an operator would ----------------------------------------------


def daemon_config(
    server: DovecotInstance, tokens: TokenServer, tmp_path: Path, token_file: Path
) -> Config:
    raw = post_office_config(
        f"sqlite:///{tmp_path}/pbm.sqlite3",
        server.submission,
        server,
        imap={"auth": "xoauth2", "password": ""},
        smtp={"auth": "oauthbearer", "username": "pbm"},
        oauth2={
            "provider": "custom",
            "token_url": tokens.token_url,
            "client_id": CLIENT_ID,
            "client_secret_env": "PBM_OAUTH_SECRET",
            "refresh_token_file": str(token_file),
            "scope": "mail",
        },
    )
    del raw["imap"]["password"]
    return parse_config(raw, env={"PBM_OAUTH_SECRET": CLIENT_SECRET})


def kick(server: DovecotInstance) -> None:
    """Drop pbm's IMAP and submission sessions (as a provider does when a token dies)."""
    subprocess.run(
        ["doveadm", "-c", str(server.root / "dovecot.conf"), "kick", "pbm"],
        check=True,
        capture_output=True,
    )


def test_the_daemon_runs_on_oauth2_and_survives_a_revoked_refresh_token(
    server: DovecotInstance, tokens: TokenServer, relay: SmtpSink, tmp_path: Path
) -> None:
    """A JOIN arrives over IMAP (XOAUTH2) and its answer leaves by submission (OAUTHBEARER),
    on one refresh; the rotated refresh token is kept in the token file (0600). When the
    provider revokes it, the operator reads one error line, the daemon keeps running and
    retrying, and once a new refresh token is in the file the waiting mail is answered."""
    tokens.rotate = True
    first = tokens.issue_refresh_token("pbm")
    token_file = tmp_path / "refresh-token"
    token_file.write_text(first + "\n")
    token_file.chmod(0o600)
    config = daemon_config(server, tokens, tmp_path, token_file)
    app = App.from_config(config, upgrade=True)
    with transaction(app.sessions) as s:
        create_competition(
            s,
            app.clock,
            code="DEMO",
            name="Demo Cup",
            fmt="t20",
            teams=4,
            naming_deadline=datetime(2099, 1, 1, tzinfo=UTC),
            seed="oauth2",
        )
    mailboxes, sender = make_mailboxes(config), make_sender(config)
    daemon = Daemon(app, sender, mailboxes, max_wait=1, retry_first=0.2, retry_max=0.5)
    thread = threading.Thread(target=daemon.run, daemon=True)
    with structlog.testing.capture_logs() as logs:
        thread.start()
        try:
            server.deliver(make_eml("JOIN\n", sender="p1@example.test", subject="[DEMO] in"))
            welcome = relay.reply(1, PATIENCE)
            assert "p1@example.test" in str(welcome["To"])
            assert len(tokens.refreshes) == 1  # one access token for both doors
            rotated = token_file.read_text().strip()
            assert rotated != first and rotated in tokens.refresh_tokens
            assert stat.S_IMODE(token_file.stat().st_mode) == 0o600

            tokens.revoke(rotated)
            tokens.expire_access_tokens()
            kick(server)
            server.deliver(make_eml("HELP\n", sender="p1@example.test", subject="[DEMO] help"))
            assert wait_until(lambda: tokens.refused.count("invalid_grant") >= 3, PATIENCE)
            assert thread.is_alive()
            refused = [e for e in logs if e["event"] == "oauth2.refresh_refused"]
            assert len(refused) == 1, refused
            assert "Get a new refresh token" in refused[0]["error"]
            assert str(token_file) in refused[0]["error"]

            token_file.write_text(tokens.issue_refresh_token("pbm") + "\n")
            helped = relay.reply(2, PATIENCE)
            assert "HELP" in body_of(helped) or "help" in str(helped["Subject"]).lower()
        finally:
            daemon.request_stop()
            thread.join(PATIENCE)
            for mb in mailboxes:
                mb.close()
            close = getattr(sender, "close", None)
            if callable(close):
                close()
            app.close()
    assert not thread.is_alive()
    assert any(e["event"] == "oauth2.refresh_ok" for e in logs)
    text = repr(logs)
    for secret in (first, rotated, CLIENT_SECRET, *tokens.access_tokens):
        assert secret not in text


def test_pbm_mail_login_says_which_door_works(
    server: DovecotInstance, tokens: TokenServer, tmp_path: Path
) -> None:
    """``pbm mail login`` logs in at both doors as the daemon would: both work with a good
    refresh token; with a revoked one each door says the provider refused it (exit 1)."""
    from click.testing import CliRunner

    from pbm.cli import main
    from tests.pbm.conftest import toml_text

    token_file = tmp_path / "refresh-token"
    token_file.write_text(tokens.issue_refresh_token("pbm"))
    raw = post_office_config(
        f"sqlite:///{tmp_path}/pbm.sqlite3",
        server.submission,
        server,
        imap={"auth": "xoauth2"},
        smtp={"auth": "xoauth2", "username": "pbm"},
        oauth2={
            "token_url": tokens.token_url,
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "refresh_token_file": str(token_file),
        },
    )
    del raw["imap"]["password"]
    path = tmp_path / "pbm.toml"
    path.write_text(toml_text(raw))
    runner = CliRunner()
    ok = runner.invoke(main, ["mail", "login", "--config", str(path)])
    assert ok.exit_code == 0, ok.output
    assert "IMAP ok" in ok.output and "SMTP ok" in ok.output
    tokens.revoke(token_file.read_text().strip())
    tokens.expire_access_tokens()
    from pbm.mail import oauth2

    oauth2._SOURCES.clear()  # a new process: no access token in memory
    bad = runner.invoke(main, ["mail", "login", "--config", str(path)])
    assert bad.exit_code == 1
    said = [line for line in bad.output.splitlines() if " failed: " in line]
    assert [line.split(" failed")[0] for line in said] == ["IMAP", "SMTP"], bad.output
    assert all("refused the refresh token: invalid_grant" in line for line in said)
    assert bad.output.count("oauth2.refresh_refused") == 1  # the log says it once
