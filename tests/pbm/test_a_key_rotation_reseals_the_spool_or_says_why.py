"""``pbm secrets rotate`` re-seals the spool's files and dead/'s, beside its dead letters and
its faults: a file that was a dead letter because nothing opened it (truncated) is named but
does not fail every rotation for ever, while a file it cannot read now fails the command
(dropping the old key would lose that mail), until it can be read and is re-sealed."""

from __future__ import annotations

import errno
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbm.app import App
from pbm.cli import main
from pbm.core.config import parse_config
from pbm.inbound.pipeline import Arrival
from pbm.inbound.spool import DEAD, Spool, import_spool
from pbm.mail.limits import Oversize, oversize, stand_in
from pbm.secrets import Sealer
from pbm.testing import make_eml
from tests.pbm.conftest import SECRET_KEY, config_data, toml_text

AT = datetime(2026, 1, 1, 8, tzinfo=UTC)
OLD_KEY = "the-old-key-of-this-spool-0123456789abcdef"


def _put(spool: Spool, n: int) -> Path:
    raw = make_eml("HELP\n", sender=f"p{n}@example.test", message_id=f"<m{n}@example.test>")
    return spool.put(Arrival(raw, "smtp", "p@example.test", ("pbm@example.test",), AT))


def _rotating(tmp_path: Path) -> tuple[App, Path]:
    """An App (migrated SQLite, its spool beside it) amid a rotation: the new key current,
    OLD_KEY still configured; and its config file."""
    data = config_data(
        f"sqlite:///{tmp_path}/pbm.sqlite3",
        tmp_path,
        security={"secret_key": SECRET_KEY, "old_secret_keys": [OLD_KEY]},
    )
    config_file = tmp_path / "pbm.toml"
    config_file.write_text(toml_text(data))
    return App.from_config(parse_config(data, env={}), upgrade=True), config_file


def _rotate(config_file: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["secrets", "rotate", "--config", str(config_file)])
    return result.exit_code, result.output


def test_secrets_rotate_reseals_the_spool_and_its_dead_letters(tmp_path: Path) -> None:
    """``pbm secrets rotate`` re-seals the spool's files and dead/'s under the new key and
    counts them; afterwards the new key alone opens them, and the spooled mail imports."""
    app, config_file = _rotating(tmp_path)
    try:
        assert app.spool is not None
        old = Spool(app.spool.path, Sealer(OLD_KEY))
        waiting = _put(old, 0)
        (app.spool.path / DEAD).mkdir()
        buried = _put(old, 1).rename(app.spool.path / DEAD / "00000000000000000001-1-x.mail")
        code, output = _rotate(config_file)
        assert code == 0, output
        assert "re-sealed 2 spool file(s); 0 already under the current key" in output
        only_new = Spool(app.spool.path, Sealer(SECRET_KEY))
        assert only_new.read(waiting).raw and only_new.read(buried).raw
        assert sorted(p.name for p in app.spool.path.iterdir()) == sorted([DEAD, waiting.name])
        assert import_spool(only_new, app.inbound).stored == 1
    finally:
        app.close()


def test_a_spooled_stand_in_is_signed_again_under_the_new_key(tmp_path: Path) -> None:
    """A stand-in ``pbm ingest`` spooled under the old key (seal and signature): re-sealed
    and signed again, so with the old key dropped it is still refused as too big, not read
    as an ordinary mail; its envelope is kept as it was."""
    app, config_file = _rotating(tmp_path)
    try:
        assert app.spool is not None
        head = make_eml("JOIN\n", sender="cam@example.test", message_id="<big@example.test>")
        over = Oversize(3_000_000, 1_048_576, "the file /tmp/big.eml")
        raw = stand_in(head.split(b"\n\n")[0], over, OLD_KEY)
        arrival = Arrival(raw, "ingest", "cam@example.test", ("pbm@example.test",), AT)
        path = Spool(app.spool.path, Sealer(OLD_KEY)).put(arrival)
        code, output = _rotate(config_file)
        assert code == 0, output
        got = Spool(app.spool.path, Sealer(SECRET_KEY)).read(path)
        assert oversize(got.raw, SECRET_KEY) == over and oversize(raw, SECRET_KEY) is None
        assert (got.door, got.envelope_from, got.received_at) == ("ingest", "cam@example.test", AT)
    finally:
        app.close()


def test_a_truncated_dead_letter_is_named_and_the_rotation_finishes(tmp_path: Path) -> None:
    """A truncated spool file becomes a dead letter (its bytes in dead/ and in its row): each
    rotation names it as a dead letter the GM was told of, and exits 0 saying the rest is
    under the current key, so step 3 (dropping the old key) can be reached."""
    app, config_file = _rotating(tmp_path)
    try:
        assert app.spool is not None
        path = _put(app.spool, 0)
        path.write_bytes(path.read_bytes()[:-7])  # a torn copy
        _put(Spool(app.spool.path, Sealer(OLD_KEY)), 1)  # waits, under the old key
        import_spool(app.spool, app.inbound)
        buried = app.spool.path / DEAD / path.name
        assert buried.exists()
    finally:
        app.close()
    for _ in range(2):
        code, output = _rotate(config_file)
        assert code == 0, output
        assert "dead letters of the spool that no configured key opens" in output
        assert f"1 row(s) (#1) and 1 file(s) in dead/ ({buried})" in output
        assert "every stored mail is under the current key (but for the dead" in output


def test_a_spool_file_that_cannot_be_read_now_fails_the_rotation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three files under the old key, one of which cannot be read while the command runs
    (EMFILE, injected): the command fails naming it; run again once it reads, it exits 0
    and the new key alone opens all three."""
    app, config_file = _rotating(tmp_path)
    app.close()
    spool_dir = tmp_path / "spool"
    files = [_put(Spool(spool_dir, Sealer(OLD_KEY)), n) for n in range(3)]
    real = Path.read_bytes

    def flaky(path: Path) -> bytes:
        if path == files[1]:
            raise OSError(errno.EMFILE, "Too many open files")
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", flaky)
    code, output = _rotate(config_file)
    monkeypatch.setattr(Path, "read_bytes", real)
    assert code != 0
    assert "1 spool file(s) could not be read now" in output and files[1].name in output
    code, output = _rotate(config_file)
    assert code == 0, output
    only_new = Spool(spool_dir, Sealer(SECRET_KEY))
    assert all(only_new.read(p).raw for p in files)
