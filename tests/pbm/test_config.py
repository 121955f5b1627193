"""Configuration: the example documents and loads; every mistake names its key."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbm.cli import main
from pbm.config import load_config, parse_config
from pbm.errors import ConfigError
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
    source = (ROOT / "pbm" / "config.py").read_text()
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
    """``pbm check-config`` prints the key path and exits 1 on a bad file, 0 on a good one."""
    bad = tmp_path / "bad.toml"
    bad.write_text('[server]\naddress = "pbm@example.test"\n[database]\nurl = 42\n')
    result = CliRunner().invoke(main, ["check-config", str(bad)])
    assert result.exit_code == 1
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
    assert result.exit_code == 1
    assert "add an [smtp] or a [maildir] section" in " ".join(result.output.split())
    result = CliRunner().invoke(main, ["check-config", str(tmp_path / "absent.toml")])
    assert result.exit_code == 1
    assert "$PBM_CONFIG" in result.output and "config.example.toml" in result.output
