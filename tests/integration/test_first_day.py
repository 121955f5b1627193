"""The operator's first day (docs/ops/operations.md, "The first day"), followed word by word:
install, configure, migrate, start, check health, back up, restore, on SQLite and on
PostgreSQL. The only word changed is the database URL."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pbm.conftest import fresh_pg_database

# It installs pbm in a fresh venv and runs the real daemon on both databases: minutes.
pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs/ops/operations.md"
SQLITE_URL = "PBM_DB_URL=sqlite:///state/pbm.sqlite3"
_FENCE = re.compile(r"^```sh(?: (\w+))?\n(.*?)^```$", re.S | re.M)


def _blocks(tag: str) -> list[tuple[str, str]]:
    """The walk's shell blocks, in order, as (tag, text): those for every database (tag
    "") and those marked ``tag``; "install" blocks are returned on their own."""
    text = GUIDE.read_text()
    start = text.index("## The first day\n")
    end = text.index("\n## ", start + 1)
    found = [(m.group(1) or "", m.group(2)) for m in _FENCE.finditer(text[start:end])]
    assert found, "no shell blocks in the first-day walk"
    return [(t, body) for t, body in found if t in ("", tag)]


def _env() -> dict[str, str]:
    """The environment of an operator's fresh shell: nothing of pbm's or of the tests'."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PBM_", "PYTEST"))}


def _bash(script: str, cwd: Path, log: Path) -> int:
    """Run ``script`` with bash -eu (a failing word stops the walk); output to ``log`` (a
    file, not a pipe: the walk leaves pbm running in the background)."""
    with log.open("ab") as out:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=cwd,
            env=_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=600,
            check=False,
        )
    return done.returncode


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The walk's install blocks, run once: a virtualenv with pbm installed from ./pbm
    (the source folder), shared by the walks on each database."""
    home = tmp_path_factory.mktemp("install")
    (home / "pbm").symlink_to(ROOT)
    log = home / "install.log"
    script = "\n".join(body for tag, body in _blocks("install") if tag == "install")
    assert _bash(script, home, log) == 0, log.read_text()[-4000:]
    assert (home / "pbm-venv/bin/pbm").exists()
    return home / "pbm-venv"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """The walk's own SQLite URL, or a fresh PostgreSQL database's (in the libpq form
    pg_dump reads and pbm accepts)."""
    if request.param == "sqlite":
        return "sqlite:///state/pbm.sqlite3"
    url = fresh_pg_database(request.getfixturevalue("pg_url"))
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    """An empty folder for the walk; the pbm it leaves running is stopped at the end."""
    yield tmp_path
    pid_file = tmp_path / "pbm.pid"
    if pid_file.exists():
        pid = int(pid_file.read_text())
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        for _ in range(200):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)


def test_the_first_day_walk(installed: Path, database_url: str, home: Path) -> None:
    """Every block of the walk, in order, for the database at hand, with only the URL
    changed: each word succeeds (bash -e); pbm answered the test mail in its Maildir; the
    mail came back with the restore; the last health check says "ok"."""
    tag = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    (home / "pbm-venv").symlink_to(installed)
    script = "\n".join(body for t, body in _blocks(tag) if t != "install")
    assert SQLITE_URL in script
    script = script.replace(SQLITE_URL, f"PBM_DB_URL={database_url}")
    log = home / "walk.log"
    code = _bash(script, home, log)
    said = log.read_text()
    assert code == 0, said[-6000:]
    assert "is valid" in said and "will be created by the first mail" in said
    assert said.strip().splitlines()[-1] != "ok"  # the last word is the mail list
    assert said.count("\nok\n") >= 2, said[-3000:]
    listed = said.rsplit("\nok\n", 1)[-1]  # what `pbm mail list` printed at the end
    assert "first@example.test" in listed, listed
    answers = list((home / "outbox/new").iterdir())
    assert answers and any(b"first@example.test" in p.read_bytes() for p in answers)
    if tag == "sqlite":
        assert (home / "state/pbm.sqlite3").is_file()
        assert (home / "backups/pbm-first-day.sqlite3").is_file()
    else:
        assert (home / "backups/pbm-first-day.dump").is_file()
        assert not (home / "state").exists()
    assert (home / "logs/pbm.log").is_file() and (home / "pbm.env").stat().st_mode & 0o077 == 0
