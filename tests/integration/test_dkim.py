"""pbm's own DKIM signature: what reaches the relay verifies against the published key.

Through the doors: a JOIN is stored, a pass runs, the welcome goes out through the sender
the config makes (SMTP to the sink, signed with ``[smtp] dkim_key``), and the bytes the sink
received are checked with ``dkim.verify``, whose DNS lookup is the test's own record."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from pathlib import Path

import dkim
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from pbm.app import App, make_sender
from pbm.core.config import Config, parse_config
from pbm.core.errors import ConfigError
from pbm.daemon import Daemon
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.testing import make_eml
from tests.services import SmtpSink, post_office_config

pytestmark = [pytest.mark.services]

SELECTOR = "pbm2026"
DOMAIN = "example.test"


def keypair(tmp_path: Path) -> tuple[Path, bytes]:
    """A private key file and the TXT record that publishes its public half."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path = tmp_path / "dkim.key"
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    der = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return path, b"v=DKIM1; k=rsa; p=" + base64.b64encode(der)


def dns(record: bytes) -> object:
    def lookup(name: bytes, timeout: int = 5) -> bytes | None:
        return record if name == f"{SELECTOR}._domainkey.{DOMAIN}.".encode() else None

    return lookup


def signing_config(tmp_path: Path, sink: SmtpSink, key: Path) -> Config:
    raw = post_office_config(
        f"sqlite:///{tmp_path}/pbm.sqlite3",
        sink.port,
        smtp={"dkim_key": str(key), "dkim_selector": SELECTOR},
        smtp_listener={"port": 0},
    )
    return parse_config(raw, env={})


def test_what_pbm_sends_carries_a_signature_that_verifies(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    """The welcome to a JOIN (its secret filled in at send time) arrives signed for the
    server's domain; the signature covers From, Subject and the body, so a changed subject
    or body no longer verifies."""
    key, record = keypair(tmp_path)
    config = signing_config(tmp_path, smtp_sink, key)
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
            seed="dkim",
        )
    daemon = Daemon(app, make_sender(config))
    try:
        app.inbound.store(make_eml("JOIN\n", sender="p1@example.test", subject="[DEMO] in"), "t")
        daemon.run_once()
        [envelope] = smtp_sink.wait_for(1)
    finally:
        app.close()
    raw: bytes = envelope.original_content
    assert raw.startswith(b"DKIM-Signature:")
    assert b"YOUR SECRET:" in raw or b"YOUR SECRET" in raw.replace(b"=\r\n", b"")
    assert dkim.verify(raw, dnsfunc=dns(record))
    signature = raw.split(b"\r\n\r\n", 1)[0].decode()
    assert f"d={DOMAIN};" in signature.replace(" ", "") and f"s={SELECTOR};" in signature
    for header in (b"from", b"subject", b"auto-submitted"):
        assert header in signature.lower().encode()
    tampered_subject = raw.replace(b"Subject: ", b"Subject: Fw: ", 1)
    assert not dkim.verify(tampered_subject, dnsfunc=dns(record))
    tampered_body = raw[:-20] + b"a different end\r\n"
    assert not dkim.verify(tampered_body, dnsfunc=dns(record))


def test_a_key_that_cannot_sign_stops_the_start(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """A missing or broken key file is a config error naming the key, before any mail."""
    missing = signing_config(tmp_path, smtp_sink, tmp_path / "nope.key")
    with pytest.raises(ConfigError, match=r"smtp\.dkim_key: cannot read"):
        make_sender(missing)
    broken = tmp_path / "broken.key"
    broken.write_text("-----BEGIN RSA PRIVATE KEY-----\nnot a key\n-----END RSA PRIVATE KEY-----\n")
    with pytest.raises(ConfigError, match=r"smtp\.dkim_key: .* cannot sign"):
        make_sender(signing_config(tmp_path, smtp_sink, broken))


def test_dkim_settings_go_together(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """A key needs its selector; a selector without a key is a mistake too."""
    raw = post_office_config("sqlite://", smtp_sink.port, smtp={"dkim_key": "k"})
    with pytest.raises(ConfigError, match=r"smtp\.dkim_selector: needed"):
        parse_config({**raw, "smtp_listener": {"port": 0}}, env={})
    raw = post_office_config("sqlite://", smtp_sink.port, smtp={"dkim_selector": "s"})
    with pytest.raises(ConfigError, match=r"smtp\.dkim_key: missing"):
        parse_config({**raw, "smtp_listener": {"port": 0}}, env={})
