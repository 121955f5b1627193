"""The CLI's edge: every command, against a database that is missing, empty or behind this
pbm's migrations, says so in one line naming the fix, with a sysexits code, and no traceback;
an unforeseen error is one line pointing at the log, which holds the traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from sqlalchemy import text

from pbm.cli import main
from pbm.cli._edge import (
    DB_FREE,
    EXIT_CODES,
    NOT_GUARDED,
    TEMPFAIL_WHEN_NOT_READY,
    database_commands,
    walk,
)
from pbm.db import migrate
from pbm.db.session import make_db_engine
from tests.pbm.conftest import config_data, fresh_pg_database, toml_text

FIX = "pbm db upgrade"


def _previous_revision() -> str:
    """The revision just before head: an "old" database is migrated to it."""
    from alembic.script import ScriptDirectory

    eng = make_db_engine("sqlite://")
    script = ScriptDirectory.from_config(migrate.alembic_config(eng))
    (head,) = script.get_heads()
    down = script.get_revision(head).down_revision
    assert isinstance(down, str)
    return down


def _sqlite_database(kind: str, tmp_path: Path) -> str:
    """A SQLite URL of the ``kind`` asked for: its directory missing, an empty file, or a
    database migrated to the revision before head."""
    if kind == "missing":
        return f"sqlite:///{tmp_path}/no-such-dir/pbm.sqlite3"
    path = tmp_path / "db" / "pbm.sqlite3"
    path.parent.mkdir()
    url = f"sqlite:///{path}"
    db_engine = make_db_engine(url)
    if kind == "empty":
        with db_engine.connect() as c:  # a real SQLite file, with no table in it
            c.execute(text("PRAGMA user_version = 0"))
    else:
        migrate.upgrade(db_engine, _previous_revision())
    db_engine.dispose()
    return url


def _config(url: str, tmp_path: Path, **sections: dict[str, Any]) -> Path:
    path = tmp_path / "pbm.toml"
    path.write_text(toml_text(config_data(url, tmp_path, **sections)))
    return path


def _minimal_args(cmd: click.Command, tmp_path: Path) -> list[str]:
    """The least a command accepts: a value of the right type for each required argument
    and option (an existing file for a file, a folder name for a folder)."""
    some_file = tmp_path / "some-file.txt"
    some_file.write_text("x\n")
    args: list[str] = []
    for p in cmd.params:
        if not p.required:
            continue
        t = p.type
        if isinstance(t, click.Path):
            value = str(tmp_path / "out-dir") if not t.file_okay else str(some_file)
        elif isinstance(t, click.Choice):
            value = str(t.choices[0])
        elif isinstance(t, click.types.IntParamType):
            value = "1"
        else:
            value = "X1"
        if isinstance(p, click.Option):
            args += [p.opts[0], value]
        else:
            args.append(value)
    return args


def test_every_command_is_known_to_open_the_database_or_not() -> None:
    """The commands that take no ``--config`` or ``--url`` are exactly the listed DB-free
    ones: a new command that opens the database cannot slip past the checks below."""
    paths = {path for path, _ in walk(main)}
    assert paths - set(database_commands(main)) == DB_FREE
    assert set(database_commands(main)) >= NOT_GUARDED


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["missing", "empty", "old"])
def test_every_command_against_a_database_not_ready(kind: str, tmp_path: Path) -> None:
    """Each command that opens the database, run with minimal valid arguments against a
    database whose directory is missing, one that is empty, and one a migration behind:
    no traceback, a sysexits code, and (unless it is the fix itself) a failure naming
    `pbm db upgrade`."""
    runner = CliRunner()
    commands = dict(walk(main))
    for path in database_commands(main):
        here = tmp_path / path.replace(" ", "-")
        here.mkdir()
        config = _config(_sqlite_database(kind, here), here)
        argv = [*path.split(), *_minimal_args(commands[path], tmp_path), "--config", str(config)]
        result = runner.invoke(main, argv)
        out = result.output
        assert "Traceback" not in out, (path, out)
        assert result.exit_code in EXIT_CODES, (path, result.exit_code, out)
        assert not isinstance(result.exception, Exception) or isinstance(
            result.exception, SystemExit
        ), (path, repr(result.exception))
        if path in NOT_GUARDED:
            continue
        assert result.exit_code != 0, (path, out)
        assert FIX in out, (path, out)
        assert len(out.strip().splitlines()) == 1, (path, out)
        if path in TEMPFAIL_WHEN_NOT_READY:
            assert result.exit_code == os.EX_TEMPFAIL, (path, out)
        elif kind == "missing":
            assert result.exit_code == os.EX_NOINPUT, (path, out)
        elif kind == "old":
            assert "older than this pbm" in out and result.exit_code == os.EX_UNAVAILABLE


def test_ingest_of_a_database_not_ready_is_a_temporary_failure(tmp_path: Path) -> None:
    """``pbm ingest`` (an MTA's pipe) on an empty database exits EX_TEMPFAIL, so the MTA
    keeps the mail and tries again once the operator has run the fix it names."""
    config = _config(_sqlite_database("empty", tmp_path), tmp_path)
    mail = tmp_path / "m.eml"
    mail.write_bytes(b"From: a@b.test\r\nTo: pbm@example.test\r\nSubject: hi\r\n\r\nhi\r\n")
    result = CliRunner().invoke(main, ["ingest", str(mail), "--config", str(config)])
    assert result.exit_code == os.EX_TEMPFAIL, result.output
    assert FIX in result.output


def test_db_upgrade_creates_the_missing_directory_and_then_commands_work(tmp_path: Path) -> None:
    """The fix named works: `pbm db upgrade` on a missing directory creates it (owner only)
    and the database, and `pbm gm list` then succeeds."""
    url = _sqlite_database("missing", tmp_path)
    config = _config(url, tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["gm", "list", "--config", str(config)]).exit_code == 66
    up = runner.invoke(main, ["db", "upgrade", "--config", str(config)])
    assert up.exit_code == 0, up.output
    assert (tmp_path / "no-such-dir").stat().st_mode & 0o077 == 0
    assert runner.invoke(main, ["gm", "list", "--config", str(config)]).exit_code == 0


def test_db_upgrade_where_the_directory_cannot_be_made(tmp_path: Path) -> None:
    """`pbm db upgrade` under a folder it may not write: one line, EX_CANTCREAT."""
    if os.geteuid() == 0:
        blocked = tmp_path / "a-file"  # root may write anywhere: a file stands in the way
        blocked.write_text("")
    else:
        blocked = tmp_path / "ro"
        blocked.mkdir(mode=0o500)
    config = _config(f"sqlite:///{blocked}/sub/pbm.sqlite3", tmp_path)
    result = CliRunner().invoke(main, ["db", "upgrade", "--config", str(config)])
    assert result.exit_code == os.EX_CANTCREAT, result.output
    assert "cannot create" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("kind", ["empty", "old"])
def test_postgres_database_not_ready(kind: str, pg_url: str, tmp_path: Path) -> None:
    """On PostgreSQL too: an empty database and one a migration behind are one line with the
    fix, for a GM's command and for `pbm status`."""
    url = fresh_pg_database(pg_url)
    if kind == "old":
        db_engine = make_db_engine(url)
        migrate.upgrade(db_engine, _previous_revision())
        db_engine.dispose()
    config = _config(url, tmp_path)
    for argv in (["gm", "list"], ["status"], ["mail", "list"]):
        result = CliRunner().invoke(main, [*argv, "--config", str(config)])
        assert result.exit_code == os.EX_UNAVAILABLE, (argv, result.output)
        assert FIX in result.output and "Traceback" not in result.output


def test_postgres_server_down_is_a_temporary_failure(tmp_path: Path) -> None:
    """A PostgreSQL server that does not answer: EX_TEMPFAIL and one line saying so."""
    from tests.services import free_port

    config = _config(f"postgresql://pbm:pw@127.0.0.1:{free_port()}/pbm", tmp_path)
    result = CliRunner().invoke(main, ["gm", "list", "--config", str(config)])
    assert result.exit_code == os.EX_TEMPFAIL, result.output
    assert "does not answer" in result.output
    assert len(result.output.strip().splitlines()) == 1


def _pbm(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbm", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
        check=False,
    )


@pytest.mark.slow
def test_a_real_process_on_a_missing_database_prints_one_line(tmp_path: Path) -> None:
    """Through the real process, as an operator's shell meets it: `pbm gm list` and `pbm db
    check` on a missing database write one line to stderr, nothing else, and exit 66."""
    config = _config(_sqlite_database("missing", tmp_path), tmp_path)
    for argv in (["gm", "list"], ["db", "check"]):
        done = _pbm(*argv, "--config", str(config))
        assert done.returncode == os.EX_NOINPUT, done.stderr
        assert done.stderr.count("\n") == 1 and FIX in done.stderr, done.stderr
        assert "Traceback" not in done.stdout + done.stderr


def test_an_unforeseen_error_is_one_line_and_the_traceback_goes_to_the_log(
    tmp_path: Path,
) -> None:
    """A bug (injected with PBM_TEST_FAIL_AT) is one line, "internal error ... see the log:
    FILE", exit EX_SOFTWARE; the traceback is in that file ([logging] file), not on the
    terminal, and the configured secrets are not in it."""
    db = tmp_path / "db.sqlite3"
    log = tmp_path / "pbm.log"
    url = f"sqlite:///{db}"
    eng = make_db_engine(url)
    migrate.upgrade(eng)
    eng.dispose()
    config = _config(url, tmp_path, logging={"file": str(log)})
    done = _pbm("gm", "list", "--config", str(config), env={"PBM_TEST_FAIL_AT": "cli"})
    assert done.returncode == os.EX_SOFTWARE, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "internal error" in done.stderr and f"see the log: {log}" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    logged = log.read_text()
    assert "Traceback" in logged and "InjectedBug" in logged and "pbm gm list" in logged
    from tests.pbm.conftest import GM_SECRET, SECRET_KEY

    assert GM_SECRET not in logged and SECRET_KEY not in logged


# Each a pbm process of its own; the loop keeps the crash to a configured log above.
@pytest.mark.slow
def test_an_unforeseen_error_in_a_json_log_is_one_json_line(tmp_path: Path) -> None:
    """With [logging] format = "json", the crash is one JSON line among the daemon's, the
    traceback a field of it: a log shipper reading JSON lines does not choke on it."""
    import json

    log = tmp_path / "pbm.log"
    config = _config(
        f"sqlite:///{tmp_path}/db.sqlite3", tmp_path, logging={"file": str(log), "format": "json"}
    )
    done = _pbm("status", "--config", str(config), env={"PBM_TEST_FAIL_AT": "cli"})
    assert done.returncode == os.EX_SOFTWARE, done.stderr
    [line] = log.read_text().splitlines()
    entry = json.loads(line)
    assert entry["event"] == "cli.crashed" and entry["command"].endswith("status")
    assert "Traceback" in entry["exception"] and "InjectedBug" in entry["exception"]


@pytest.mark.slow  # a pbm process of its own, like the one above
def test_an_unforeseen_error_without_a_log_file_goes_to_a_private_file(tmp_path: Path) -> None:
    """With no [logging] file (and no config at all), the traceback goes to a file of the
    temporary directory readable by its owner only, named on the one line."""
    done = _pbm(
        "gm",
        "list",
        "--config",
        str(tmp_path / "none.toml"),
        env={"PBM_TEST_FAIL_AT": "cli", "TMPDIR": str(tmp_path)},
    )
    assert done.returncode == os.EX_SOFTWARE, done.stderr
    where = Path(done.stderr.rsplit("see the log: ", 1)[1].strip())
    assert where.parent == tmp_path and "Traceback" in where.read_text()
    assert where.stat().st_mode & 0o077 == 0


def test_usage_errors_exit_ex_usage() -> None:
    """A command pbm does not have, or a missing argument, exits EX_USAGE (64), not click's 2."""
    runner = CliRunner()
    assert runner.invoke(main, ["no-such-command"]).exit_code == os.EX_USAGE
    assert runner.invoke(main, ["gm", "show"]).exit_code == os.EX_USAGE


def test_a_database_url_the_driver_refuses(tmp_path: Path) -> None:
    """A SQLite "database" that is not one (a text file): one line, not a traceback."""
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_text("hello, I am not a database\n" * 100)
    config = _config(f"sqlite:///{bad}", tmp_path)
    result = CliRunner().invoke(main, ["gm", "list", "--config", str(config)])
    assert result.exit_code in EXIT_CODES and result.exit_code != 0, result.output
    assert "Traceback" not in result.output and "cannot read the database" in result.output


def test_ingest_with_a_broken_config_is_a_config_error(tmp_path: Path) -> None:
    """``pbm ingest`` with a config that does not load exits EX_CONFIG (the MTA bounces to
    its postmaster rather than retrying for days a mistake no retry will mend)."""
    bad = tmp_path / "bad.toml"
    bad.write_text("[server]\naddress = 42\n")
    mail = tmp_path / "m.eml"
    mail.write_bytes(b"From: a@b.test\r\nSubject: hi\r\n\r\nhi\r\n")
    result = CliRunner().invoke(main, ["ingest", str(mail), "--config", str(bad)])
    assert result.exit_code == os.EX_CONFIG, result.output
    assert "server.address" in result.output and "Traceback" not in result.output
