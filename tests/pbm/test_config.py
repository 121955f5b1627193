"""Configuration: the example documents and loads; every mistake names its key."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from pbm.cli import main
from pbm.core.config import load_config, parse_config
from pbm.core.errors import ConfigError
from tests.pbm.conftest import config_data

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"
ENV = {"PBM_GM_SECRET": "a-gm-secret", "PBM_SECRET_KEY": "k" * 32, "PBM_IMAP_PASSWORD": "pw"}


def test_example_config_loads() -> None:
    """config.example.toml is valid, with its secrets from the environment."""
    config = load_config(EXAMPLE, env=ENV)
    assert config.gm.secret == "a-gm-secret"
    assert config.imap is not None and config.imap.password == "pw"
    assert config.listener is not None and config.listener.port == 2525


def test_example_documents_every_key() -> None:
    """Every key the loader reads is written in config.example.toml (set or commented)."""
    documented = set(re.findall(r"(\w+)\s*=", EXAMPLE.read_text()))
    source = (ROOT / "pbm" / "core" / "config.py").read_text()
    read = set(
        re.findall(
            r'\.(?:text|integer|number|flag|choice|str_list|address|secret)\(\s*"(\w+)"', source
        )
    )
    if "tls_mode(" in source:  # reads the key "tls" of its section
        read.add("tls")
    sections = set(re.findall(r'\btable\(root, "(\w+)"', source))
    assert read and len(sections) >= 10
    assert read - documented == set()
    # each secret key is documented with its *_env twin too
    secrets = set(re.findall(r'\.secret\(\s*"(\w+)"', source))
    assert {f"{s}_env" for s in secrets} - documented == set()
    assert {s for s in sections if f"[{s}]" not in EXAMPLE.read_text()} == set()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"database": {}}, "database.url: missing"),
        ({"smtp_listener": {"port": "abc"}}, "smtp_listener.port: expected an integer, got 'abc'"),
        ({"smtp_listener": {"prot": 25}}, "smtp_listener.prot: unknown key (did you mean 'port'?)"),
        ({"gm": {"address": "gm@x.test", "secret_env": "NOPE"}}, "NOPE is not set"),
        (
            {"gm": {"address": "not an address", "secret": "12345678"}},
            "gm.address: expected an email",
        ),
        ({"maildir": None, "smtp": None}, "no outbound transport"),
        ({"smtp": {"host": "h"}}, "choose one outbound transport"),
        (
            {"imap": {"host": "h", "username": "u", "password": "p", "tls": "ssl"}},
            "imap.tls: expected one of",
        ),
        (
            {"imap": {"host": "h", "username": "u", "password": "p", "hot_poll_seconds": -1}},
            "imap.hot_poll_seconds: must be at least 0",
        ),
        ({"logging": {"format": "xml"}}, "logging.format"),
        ({"security": {"secret_key": "short"}}, "security.secret_key: too short"),
    ],
)
def test_errors_name_the_key(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    """Each kind of mistake raises ConfigError naming the dotted key and the problem."""
    data = config_data("sqlite:///x.db", tmp_path)
    for k, v in change.items():
        if v is None:
            data.pop(k, None)
        else:
            data[k] = v
    with pytest.raises(ConfigError) as info:
        parse_config(data, env={})
    assert message in str(info.value)


def test_imap_hot_polling_reaches_the_door(tmp_path: Path) -> None:
    """``[imap] hot_poll_seconds`` and ``hot_seconds`` are the door's polling while mail flows;
    left out, the door polls every 0.05 s for 10 s after the last mail."""
    from pbm.app import make_mailboxes
    from pbm.mail.imap import ImapMailbox

    data = config_data("sqlite:///x.db", tmp_path)
    data["imap"] = {"host": "h", "username": "u", "password": "p"}
    (door,) = make_mailboxes(parse_config(data, env={}))
    assert isinstance(door, ImapMailbox)
    assert (door.hot_poll_interval, door.hot_seconds) == (0.05, 10.0)
    data["imap"] |= {"hot_poll_seconds": 0, "hot_seconds": 2.5}
    (door,) = make_mailboxes(parse_config(data, env={}))
    assert isinstance(door, ImapMailbox)
    assert (door.hot_poll_interval, door.hot_seconds) == (0.0, 2.5)


def test_send_lease_must_outlast_the_smtp_timeout(tmp_path: Path) -> None:
    """A send lease no longer than ``[smtp] timeout`` is refused (a slow live send could be
    claimed again and go twice); a longer one is read into the config."""
    data = config_data("sqlite:///x.db", tmp_path)
    data.pop("maildir", None)
    data["smtp"] = {"host": "h", "timeout": 30.0}
    data["outbox"] = {"send_lease_seconds": 30}
    with pytest.raises(ConfigError) as info:
        parse_config(data, env={})
    assert "outbox.send_lease_seconds" in str(info.value) and "smtp.timeout" in str(info.value)
    data["outbox"] = {"send_lease_seconds": 31}
    assert parse_config(data, env={}).outbox.send_lease_seconds == 31


def test_env_reference_in_any_string(tmp_path: Path) -> None:
    """ "${VAR}" in a string reads the environment."""
    data = config_data("${DB}", tmp_path)
    assert parse_config(data, env={"DB": "sqlite:///y.db"}).database.url == "sqlite:///y.db"


def test_check_config_says_what_is_wrong(tmp_path: Path) -> None:
    """``pbm check-config`` prints the key path and exits 78 (EX_CONFIG) on a bad file, 0 on a
    good one."""
    bad = tmp_path / "bad.toml"
    bad.write_text('[server]\naddress = "pbm@example.test"\n[database]\nurl = 42\n')
    result = CliRunner().invoke(main, ["check-config", str(bad)])
    assert result.exit_code == os.EX_CONFIG
    assert "database.url: expected a string, got 42" in result.output
    result = CliRunner().invoke(main, ["check-config", str(EXAMPLE)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "is valid" in result.output


def test_secrets_not_in_repr(tmp_path: Path) -> None:
    """A config's repr never shows its secrets."""
    config = parse_config(config_data("sqlite:///x.db", tmp_path), env={})
    assert config.gm.secret not in repr(config)
    assert config.security.secret_key not in repr(config)


def test_check_config_shows_section_names_and_where_it_looked(tmp_path: Path) -> None:
    """check-config prints "[smtp]" literally (not eaten as markup) and, for a missing file,
    where pbm looks for its config."""
    bad = tmp_path / "no-out.toml"
    bad.write_text(
        '[server]\naddress = "pbm@example.test"\n[database]\nurl = "sqlite:///x.db"\n'
        '[gm]\naddress = "gm@example.test"\nsecret = "12345678"\n'
        '[security]\nsecret_key = "0123456789abcdefg"\n[smtp_listener]\n'
    )
    result = CliRunner().invoke(main, ["check-config", str(bad)])
    assert result.exit_code == os.EX_CONFIG
    assert "add an [smtp] or a [maildir] section" in " ".join(result.output.split())
    result = CliRunner().invoke(main, ["check-config", str(tmp_path / "absent.toml")])
    assert result.exit_code == os.EX_CONFIG
    assert "$PBM_CONFIG" in result.output and "config.example.toml" in result.output


def _relative_config(folder: Path, **extra: str) -> Path:
    """A config in ``folder`` whose paths are all relative."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pbm.toml"
    lines = [
        '[server]\naddress = "pbm@example.test"',
        '[database]\nurl = "sqlite:///state/pbm.sqlite3"',
        '[gm]\naddress = "gm@example.test"\nsecret = "12345678"',
        '[security]\nsecret_key = "0123456789abcdefg"',
        "[smtp_listener]\nport = 0",
        f'[maildir]\npath = "{extra.get("maildir", "mail/out")}"',
        '[zine]\narchive_dir = "zine"',
        '[logging]\nfile = "log/pbm.log"',
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_relative_paths_are_from_the_config_files_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SQLite file, the Maildir, the archive and the log file written relative in the
    config are taken from the config file's folder, whatever the current directory."""
    config_path = _relative_config(tmp_path / "etc")
    monkeypatch.chdir(tmp_path)
    config = load_config(Path("etc/pbm.toml"))
    etc = tmp_path / "etc"
    assert config.database.url == f"sqlite:///{etc}/state/pbm.sqlite3"
    assert config.maildir is not None and config.maildir.path == etc / "mail/out"
    assert config.zine.archive_dir == etc / "zine"
    assert config.logging.file == str(etc / "log/pbm.log")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert load_config(config_path).database.url == config.database.url


def test_pbm_db_upgrade_from_another_folder_makes_the_database_beside_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the door: `pbm db upgrade` run from another folder creates the database in
    the config's folder, not in the current one."""
    config_path = _relative_config(tmp_path / "etc")
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    result = CliRunner().invoke(main, ["db", "upgrade", "--config", str(config_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "etc/state/pbm.sqlite3").is_file()
    assert not (tmp_path / "cwd/state").exists()


def test_check_config_lists_what_it_would_create_where(tmp_path: Path) -> None:
    """check-config names each file and folder pbm makes, absolute, and whether it exists
    or what will create it."""
    config_path = _relative_config(tmp_path / "etc")
    result = CliRunner().invoke(main, ["check-config", str(config_path)])
    assert result.exit_code == 0, result.output
    etc = tmp_path / "etc"
    lines = result.output.splitlines()
    for what, where, by in [
        ("database", etc / "state/pbm.sqlite3", "`pbm db upgrade`"),
        ("spool", etc / "state/spool", "the first mail a busy database spools"),
        ("maildir", etc / "mail/out", "the first mail"),
        ("archive", etc / "zine", "the first issue"),
        ("log file", etc / "log/pbm.log", "start"),
    ]:
        [line] = [x for x in lines if x.startswith(f"    {what}") and str(where) in x]
        assert f"will be created by {by}" in line, line
    (etc / "zine").mkdir()
    result = CliRunner().invoke(main, ["check-config", str(config_path)])
    assert any("zine" in x and "folder, exists" in x for x in result.output.splitlines())


def test_check_config_fails_when_a_path_cannot_be_created(tmp_path: Path) -> None:
    """A path under a file (or, for a user who is not root, under a folder it may not
    write) cannot be created: check-config says which and why, exit 73 (EX_CANTCREAT)."""
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/blocked").write_text("a file where a folder should be\n")
    config_path = _relative_config(tmp_path / "etc", maildir="blocked/out")
    result = CliRunner().invoke(main, ["check-config", str(config_path)])
    assert result.exit_code == os.EX_CANTCREAT, result.output
    assert "cannot create the maildir" in result.output and "is a file" in result.output
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        config_path = _relative_config(tmp_path / "etc2", maildir=f"{ro}/out")
        result = CliRunner().invoke(main, ["check-config", str(config_path)])
        assert result.exit_code == os.EX_CANTCREAT and "not writable" in result.output


@pytest.mark.slow
def test_check_config_error_line_is_not_wrapped_when_piped(tmp_path: Path) -> None:
    """Piped (not a terminal), check-config's error line of over 200 characters comes out
    as one line, whole: rich does not wrap it at 80 columns."""
    import subprocess
    import sys

    long_url = "mysql://" + "x" * 200
    bad = tmp_path / "bad.toml"
    bad.write_text(f'[server]\naddress = "pbm@example.test"\n[database]\nurl = "{long_url}"\n')
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "pbm", "check-config", str(bad)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == os.EX_CONFIG
    [line] = done.stdout.splitlines()
    assert len(line) > 200 and long_url in line
    assert "expected a sqlite:// or postgresql:// URL" in line


_SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=12)


@given(
    parts=st.lists(_SEGMENT.filter(lambda s: s not in (".", "..")), min_size=1, max_size=4),
    folder=st.lists(_SEGMENT.filter(lambda s: s not in (".", "..")), max_size=3),
)
def test_any_relative_path_is_taken_from_the_config_folder(
    parts: list[str], folder: list[str]
) -> None:
    """Property: for any relative SQLite file and Maildir path and any config folder, the
    parsed config holds the config folder joined with that path; an absolute one is kept."""
    base = Path("/srv", *folder)
    rel = "/".join(parts)
    data = config_data(f"sqlite:///{rel}", Path("/unused"))
    data["maildir"] = {"path": rel}
    config = parse_config(data, env={}, source=base / "pbm.toml")
    assert config.database.url == f"sqlite:///{base / rel}"
    assert config.maildir is not None and config.maildir.path == base / rel
    data["maildir"] = {"path": f"/abs/{rel}"}
    data["database"] = {"url": f"sqlite:////abs/{rel}"}
    config = parse_config(data, env={}, source=base / "pbm.toml")
    assert config.database.url == f"sqlite:////abs/{rel}"
    assert config.maildir is not None and config.maildir.path == Path(f"/abs/{rel}")
