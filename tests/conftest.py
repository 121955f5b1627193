"""Shared fixtures: real Dovecot, aiosmtpd and PostgreSQL (see tests/services.py)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.services import DovecotInstance, SmtpSink, start_dovecot, start_postgres, start_smtp_sink


@pytest.fixture(scope="session")
def dovecot() -> Iterator[DovecotInstance]:
    """A throwaway Dovecot for the whole session (users pbm, gm, player1; password 'secret')."""
    # Outside pytest's own temp tree: a second pytest run as root resets that tree to 0700,
    # which would lock the server's unprivileged users out of a running instance.
    root = Path(tempfile.mkdtemp(prefix="pbm-dovecot-"))
    inst = start_dovecot(root / "dovecot", root)
    yield inst
    inst.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    """A real aiosmtpd SMTP server on a free loopback port, keeping what it receives."""
    sink = start_smtp_sink()
    yield sink
    sink.controller.stop()


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """The URL of a throwaway PostgreSQL database for the whole session."""
    root = Path(tempfile.mkdtemp(prefix="pbm-pg-"))
    (root / "pg").mkdir()
    yield from start_postgres(root / "pg", root)
    shutil.rmtree(root, ignore_errors=True)


#: ``scripts/test --quick`` (the developer's loop) sets this: SQLite only, no slow tests, no
#: server to start (Dovecot, PostgreSQL) and no browser. CI runs everything; a deselected test
#: is reported as deselected, never as passed.
QUICK = os.environ.get("PBM_TEST_QUICK") == "1"

# The quick loop's property tests try fewer examples where a test leaves the number to the
# profile (a test that names its own keeps it), and no deadline: a machine shared with other
# builds is not a slow function. CI's whole suite keeps Hypothesis's defaults.
settings.register_profile("quick", max_examples=20, deadline=None)
if QUICK:
    settings.load_profile("quick")
_SERVER_FIXTURES = {"pg_url", "dovecot"}


def _uses_browser(item: pytest.Item) -> bool:
    module = getattr(item, "module", None)
    return (
        any(
            getattr(value, "__module__", "").endswith(".browser")
            for value in vars(module).values()
            if callable(value)
        )
        if module is not None
        else False
    )


def _quick_excludes(item: pytest.Item) -> bool:
    if item.get_closest_marker("slow") or item.get_closest_marker("services"):
        return True
    if _SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgresql" in callspec.params.values():
        return True
    return _uses_browser(item)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the quick loop, deselect what needs a server, a browser or minutes."""
    if not QUICK:
        return
    keep, drop = [], []
    for item in items:
        (drop if _quick_excludes(item) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
