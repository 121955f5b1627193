"""``scripts/test --quick``: the developer's loop leaves out what needs a server, a browser
or minutes, and says so (deselected), while CI's whole suite keeps everything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent


def _collect(quick: bool, *paths: str) -> tuple[list[str], str]:
    env = {k: v for k, v in os.environ.items() if k != "PBM_TEST_QUICK"}
    if quick:
        env["PBM_TEST_QUICK"] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--co", "-q", "-n", "0", *paths],
        capture_output=True,
        text=True,
        cwd=ROOT.parent,
        env=env,
        check=True,
    ).stdout.splitlines()
    return [line for line in out if "::" in line], out[-1]


@pytest.mark.slow  # two collections in subprocesses; the quick loop need not test itself
def test_quick_loop_deselects_postgres_servers_and_slow_tests_and_keeps_the_rest() -> None:
    """On the same files the quick loop drops the PostgreSQL halves of the two-database tests,
    the slow packaging tests and the Dovecot tests, keeps their SQLite halves, and reports the
    dropped ones as deselected."""
    files = ("tests/pbm/test_packaging.py", "tests/pbm/test_cli_edge.py", "tests/pbm/test_db.py")
    full, _ = _collect(False, *files)
    quick, summary = _collect(True, *files)
    assert set(quick) < set(full)
    dropped = set(full) - set(quick)
    assert "deselected" in summary and str(len(dropped)) in summary
    assert any("test_wheel_installs_in_a_fresh_venv" in t for t in dropped)
    assert any(t.endswith("[postgresql]") for t in dropped)
    assert not any(t.endswith("[postgresql]") for t in quick)
    assert any(t.endswith("[sqlite]") for t in quick)
    assert any("declared_dependency" in t for t in quick)
