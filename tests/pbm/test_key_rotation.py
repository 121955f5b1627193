"""Rotating ``[security] secret_key`` (issue 23): with the old key in ``old_secret_keys``
everything that waits still works; ``pbm secrets rotate`` re-seals stored mail under the new
key; players' secrets are untouched. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from pbm.app import App
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.core.config import Config
from pbm.core.errors import PbmError, SmtpError
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, OutboxMessage
from pbm.db.session import transaction
from pbm.inbound import pipeline
from pbm.inbound.context import Handled, MailContext
from pbm.inbound.dispatch import Run
from pbm.mail.limits import Oversize, stand_in
from pbm.outbound.bounces import read_verp, verp_address
from pbm.secrets.at_rest import Sealer
from pbm.testing import RecordingSender, body_of, make_eml
from tests.pbm.conftest import SECRET_KEY, config_data, make_config, toml_text
from tests.pbm.helpers import SECRET_RE, join, say

NEW_KEY = "the-new-secret-key-fedcba9876543210"


def _boom(ctx: MailContext, decision: Run) -> Handled:
    raise RuntimeError("a handler failed")


def _rotated(config: Config, tmp_path: Path, *, old: bool = True) -> Config:
    security = {"secret_key": NEW_KEY, "old_secret_keys": [SECRET_KEY] if old else []}
    return make_config(config.database.url, tmp_path, security=security)


def _orders(daemon: Daemon, sender: RecordingSender, frm: str, secret: str, team: str) -> str:
    [reply] = say(daemon, sender, f"SECRET {secret}\nTEAM NAME {team}\n", frm=frm)
    return body_of(reply)


def test_a_rotation_keeps_secrets_waiting_mail_and_bounces(
    daemon: Daemon,
    sender: RecordingSender,
    demo: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under the old key: a player joined, a second JOIN's reply waits in the outbox (the
    relay is down), a third JOIN waits unhandled, a dead letter waits. Restarted with the new
    key and the old one in old_secret_keys: the first player's secret still works, the
    waiting reply shows the secret that verifies, the waiting mail is read, a bounce of
    mail sent before is recognised; ``pbm secrets rotate`` re-seals all of it, after which
    the new key alone opens every sealed mail."""
    app = daemon.app
    clock = app.clock
    assert isinstance(clock, FixedClock)
    first = join(daemon, sender, "one@example.test")
    sender.fail_next(SmtpError("relay down", transient=True, relay=True), times=5)
    say(daemon, sender, "JOIN\n", frm="two@example.test", subject="[DEMO] join")
    assert sender.to("two@example.test") == []
    with monkeypatch.context() as m:
        m.setattr(pipeline, "execute", _boom)
        say(daemon, sender, "HELP\n", frm="dead@example.test", subject="help")
    daemon.store(
        make_eml("JOIN\n", sender="three@example.test", subject="[DEMO] join"),
        "three@example.test",
        ["pbm@example.test"],
    )
    old_verp = verp_address(app.config.server.address, SECRET_KEY, 1)
    sender.failures.clear()

    config = _rotated(app.config, tmp_path)
    new_app = App.from_config(config, clock)
    try:
        new_daemon = Daemon(new_app, sender)
        clock.advance(timedelta(hours=1))
        new_daemon.run_once()
        [two] = sender.to("two@example.test")
        [three] = sender.to("three@example.test")
        for frm, reply in (("two@example.test", two), ("three@example.test", three)):
            found = SECRET_RE.search(body_of(reply))
            assert found, body_of(reply)
            assert "version 1" in _orders(new_daemon, sender, frm, found.group(1), frm[:3])
        assert "version 1" in _orders(new_daemon, sender, "one@example.test", first, "Uno")
        assert read_verp(old_verp, config.server.address, config.security.keys) == 1
        assert read_verp(old_verp, config.server.address, NEW_KEY) is None

        cfg = tmp_path / "rotated.toml"
        cfg.write_text(
            toml_text(
                config_data(
                    config.database.url,
                    tmp_path,
                    security={"secret_key": NEW_KEY, "old_secret_keys": [SECRET_KEY]},
                )
            )
        )
        result = CliRunner().invoke(main, ["secrets", "rotate", "--config", str(cfg)])
        assert result.exit_code == 0, result.output
        assert "re-sealed 1 mail(s)" in result.output  # the dead letter (the rest handled)
        again = CliRunner().invoke(main, ["secrets", "rotate", "--config", str(cfg)])
        assert "re-sealed 0 mail(s); 1 already under the current key" in again.output
        only_new = Sealer(NEW_KEY)
        with transaction(new_app.sessions) as s:
            sealed = list(
                s.scalars(select(InboundMail.sealed).where(InboundMail.sealed.is_not(None)))
            )
            assert sealed
            for token in sealed:
                assert b"dead@example.test" in only_new.unseal(token)
                with pytest.raises(PbmError):
                    Sealer(SECRET_KEY).unseal(token)
            assert not list(
                s.scalars(select(OutboxMessage).where(OutboxMessage.status == "pending"))
            )
    finally:
        new_app.close()

    # the old key dropped: the retried dead letter still opens and is handled
    final = App.from_config(_rotated(config, tmp_path, old=False), clock)
    try:
        with transaction(final.sessions) as s:
            dead_id = s.scalars(select(InboundMail.id).where(InboundMail.status == "shunted")).one()
        final.inbound.retry(dead_id)
        Daemon(final, sender).run_once()
        assert sender.to("dead@example.test")
    finally:
        final.close()


def test_rotate_names_mail_no_configured_key_opens(
    daemon: Daemon, sender: RecordingSender, demo: str, tmp_path: Path
) -> None:
    """A mail sealed under a key that is neither current nor old is reported by id and the
    command fails, saying which key to add back."""
    daemon.store(
        make_eml("JOIN\n", sender="w@example.test", subject="[DEMO] join"),
        "w@example.test",
        ["pbm@example.test"],
    )
    cfg = tmp_path / "other.toml"
    cfg.write_text(
        toml_text(
            config_data(daemon.app.config.database.url, tmp_path, security={"secret_key": NEW_KEY})
        )
    )
    result = CliRunner().invoke(main, ["secrets", "rotate", "--config", str(cfg)])
    assert result.exit_code != 0
    assert "open under no configured key (#1)" in result.output
    assert "old_secret_keys" in result.output


def test_a_waiting_stand_in_is_signed_again_and_stays_one_after_the_old_key_goes(
    app: App, sender: RecordingSender, demo: str, tmp_path: Path
) -> None:
    """A door's stand-in of a big mail, stored under the old key and not yet handled: after
    the restart with the new key, ``pbm secrets rotate`` re-seals it and signs it again, so
    with the old key dropped it is still refused as too big and answered once, not read as
    an ordinary mail."""
    head = make_eml("JOIN\n", sender="cam@example.test", subject="[DEMO] video").split(b"\n\n")[0]
    over = Oversize(3_000_000, 1_048_576, "on the IMAP server, in the folder Processed")
    app.inbound.store(stand_in(head, over, SECRET_KEY), "imap")
    cfg = tmp_path / "rotated.toml"
    security = {"secret_key": NEW_KEY, "old_secret_keys": [SECRET_KEY]}
    cfg.write_text(toml_text(config_data(app.config.database.url, tmp_path, security=security)))
    result = CliRunner().invoke(main, ["secrets", "rotate", "--config", str(cfg)])
    assert result.exit_code == 0, result.output
    assert "re-sealed 1 mail(s)" in result.output

    final = App.from_config(_rotated(app.config, tmp_path, old=False), app.clock)
    try:
        Daemon(final, sender).run_once()
        with transaction(final.sessions) as s:
            [row] = s.scalars(select(InboundMail)).all()
            assert row.status == "rejected" and (row.note or "").startswith("too big (3000000")
    finally:
        final.close()
    [answer] = sender.to("cam@example.test")
    assert "none of it was read" in body_of(answer)
