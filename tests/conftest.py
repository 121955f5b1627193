"""Shared fixtures: real Dovecot, aiosmtpd and PostgreSQL (see tests/services.py)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

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

# The quick loop's property tests try fewer examples: 20 where a test leaves the number to
# the profile, at most QUICK_EXAMPLES where it names more (its count is for the whole suite,
# which finds the rare cases; the loop checks the property still holds at all), and no
# deadline: a machine shared with other builds is not a slow function. CI's whole suite keeps
# every named count and Hypothesis's defaults but its deadline: 2 s an example, not 0.2. A
# deadline is a clock in a test (speed is measured in bench/); ten times Hypothesis's still
# fails an input that stalls (the mail fuzz tests' point), where 0.2 s failed examples of
# 0.27-0.30 s at load 12 and passed them on the replay (FlakyFailure).
settings.register_profile("quick", max_examples=20, deadline=None)
settings.register_profile("whole", deadline=timedelta(seconds=2))
settings.load_profile("quick" if QUICK else "whole")
QUICK_EXAMPLES = 50


def cap_examples(test: Any, cap: int = QUICK_EXAMPLES) -> None:
    """Let the Hypothesis test ``test`` (a function under ``@given``) try at most ``cap``
    examples. Hypothesis has no public hook for this: the settings it reads when the test
    runs are the attribute ``@settings`` writes (tests/test_the_quick_loop.py holds that)."""
    test = getattr(test, "__func__", test)  # a method's function holds the settings
    named = getattr(test, "_hypothesis_internal_use_settings", None)
    if getattr(test, "is_hypothesis_test", False) and named and named.max_examples > cap:
        test._hypothesis_internal_use_settings = settings(named, max_examples=cap)


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
    for item in keep:
        cap_examples(getattr(item, "obj", None))
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
