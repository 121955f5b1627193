"""Shared fixtures: real Dovecot, aiosmtpd and PostgreSQL (see tests/services.py)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

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
