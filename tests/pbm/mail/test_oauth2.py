"""OAuth2 settings and the token source, against the loopback token server (no Dovecot)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import structlog

from pbm.core.config import parse_config
from pbm.core.errors import ConfigError, OAuth2Error
from pbm.mail.oauth2 import OAuth2Config, TokenSource, sasl_string
from pbm.ops.logs import configure_logging
from tests.oauth_server import CLIENT_ID, CLIENT_SECRET, token_server
from tests.pbm.conftest import config_data


def with_oauth2(tmp_path: Path, oauth2: dict[str, Any], **doors: dict[str, Any]) -> Any:
    imap = {"host": "outlook.office365.com", "username": "pbm@example.test", "auth": "xoauth2"}
    data = config_data("sqlite://", tmp_path, imap=imap, oauth2=oauth2, **doors)
    return parse_config(data, env={"RT": "rt-from-env"})


def test_microsoft_and_google_presets(tmp_path: Path) -> None:
    """The provider names the token endpoint (with the Microsoft tenant) and the scope."""
    ms = with_oauth2(
        tmp_path,
        {
            "provider": "microsoft",
            "tenant": "consumers",
            "client_id": "c",
            "refresh_token_env": "RT",
        },
    ).oauth2
    assert ms.token_url == "https://login.microsoftonline.com/consumers/oauth2/v2.0/token"
    assert "IMAP.AccessAsUser.All" in ms.scope and "SMTP.Send" in ms.scope
    assert "offline_access" in ms.scope
    assert ms.refresh_token == "rt-from-env"
    google = with_oauth2(
        tmp_path,
        {"provider": "google", "client_id": "c", "client_secret": "s", "refresh_token": "r"},
    )
    assert google.oauth2.token_url == "https://oauth2.googleapis.com/token"
    assert {"s", "r"} <= set(google.secrets())
    assert google.imap.password == ""  # no password for an OAuth2 door


@pytest.mark.parametrize(
    ("oauth2", "message"),
    [
        ({"client_id": "c", "refresh_token": "r"}, "oauth2.token_url: missing"),
        (
            {"client_id": "c", "refresh_token": "r", "token_url": "http://login.example/t"},
            "must be an https:// URL",
        ),
        (
            {
                "provider": "google",
                "client_id": "c",
                "refresh_token": "r",
                "refresh_token_file": "f",
            },
            "give refresh_token",
        ),
        ({"provider": "google", "client_id": "c"}, "give refresh_token"),
        (
            {"provider": "microsoft", "tenant": "a/b", "client_id": "c", "refresh_token": "r"},
            "tenant",
        ),
    ],
)
def test_oauth2_mistakes_name_their_key(
    tmp_path: Path, oauth2: dict[str, Any], message: str
) -> None:
    """A missing endpoint, a token endpoint in clear, or two refresh tokens are refused."""
    with pytest.raises(ConfigError, match=message):
        with_oauth2(tmp_path, oauth2)


def test_an_oauth2_door_needs_the_section(tmp_path: Path) -> None:
    """auth = "xoauth2" without [oauth2] says what is missing."""
    imap = {"host": "imap.gmail.com", "username": "pbm@example.test", "auth": "xoauth2"}
    with pytest.raises(ConfigError, match=r"imap\.auth: OAuth2 needs an \[oauth2\] section"):
        parse_config(config_data("sqlite://", tmp_path, imap=imap), env={})


def test_sasl_strings() -> None:
    """XOAUTH2 is Google's and Microsoft's format; OAUTHBEARER is RFC 7628's GS2 header form."""
    assert sasl_string("xoauth2", "u@x", "T") == "user=u@x\x01auth=Bearer T\x01\x01"
    assert sasl_string("oauthbearer", "u@x", "T") == "n,a=u@x,\x01auth=Bearer T\x01\x01"


def test_rotated_refresh_token_is_written_back_and_tokens_never_logged(tmp_path: Path) -> None:
    """A rotated refresh token replaces the file's (mode 0600) and is used next; no token
    reaches a log line, even one that names it."""
    out = io.StringIO()
    with token_server(rotate=True, lifetime=0.0) as server:
        first = server.issue_refresh_token("pbm")
        path = tmp_path / "token"
        path.write_text(first + "\n")
        cfg = OAuth2Config(
            "custom", server.token_url, CLIENT_ID, "", CLIENT_SECRET, refresh_token_file=path
        )
        src = TokenSource(cfg)
        a = src.token()
        second = path.read_text().strip()
        assert second != first and second in server.refresh_tokens
        assert oct(path.stat().st_mode & 0o777) == "0o600"
        b = src.token()  # expires_in 0: refreshed again, with the rotated token
        assert a != b and server.refreshes == ["pbm", "pbm"]
        from contextlib import redirect_stderr

        with redirect_stderr(out):
            configure_logging("json", "info")
            structlog.get_logger("t").info("leak", token=b, refresh=second, text=f"Bearer {a}")
    line = json.loads(out.getvalue().strip().splitlines()[-1])
    assert line["event"] == "leak"
    assert a not in out.getvalue() and b not in out.getvalue() and second not in out.getvalue()


def test_an_unreachable_token_endpoint_is_transient(tmp_path: Path) -> None:
    """No answer from the endpoint: a transient error (retry), not a refusal."""
    with token_server() as server:
        url = server.token_url
    src = TokenSource(OAuth2Config("custom", url, CLIENT_ID, refresh_token="r", timeout=2))
    with pytest.raises(OAuth2Error, match="cannot refresh") as caught:
        src.token()
    assert caught.value.transient


def test_a_missing_token_file_is_a_clear_permanent_error(tmp_path: Path) -> None:
    """The file the config names is missing: the error names it."""
    path = tmp_path / "nope"
    src = TokenSource(OAuth2Config("custom", "https://x.test/t", "c", refresh_token_file=path))
    with pytest.raises(OAuth2Error, match=f"cannot read refresh_token_file {path}") as caught:
        src.token()
    assert not caught.value.transient
