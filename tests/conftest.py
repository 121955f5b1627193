"""Shared fixtures: real Dovecot, aiosmtpd and PostgreSQL (see tests/services.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.services import DovecotInstance, SmtpSink, start_dovecot, start_postgres, start_smtp_sink


@pytest.fixture(scope="session")
def dovecot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DovecotInstance]:
    """A throwaway Dovecot for the whole session (users pbm, gm, player1; password 'secret')."""
    inst = start_dovecot(tmp_path_factory.mktemp("dovecot"), tmp_path_factory.getbasetemp().parent)
    yield inst
    inst.stop()


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    """A real aiosmtpd SMTP server on a free loopback port, keeping what it receives."""
    sink = start_smtp_sink()
    yield sink
    sink.controller.stop()


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a throwaway PostgreSQL database for the whole session."""
    yield from start_postgres(tmp_path_factory.mktemp("pg"), tmp_path_factory.getbasetemp().parent)
