"""Fixtures for Hit for Six's services: a migrated SQLite database, a clock, a SecretBox."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from pbm.core.clock import FixedClock
from pbm.core.config import SecurityConfig
from pbm.db import migrate
from pbm.db.session import make_db_engine, make_session_factory
from pbm.secrets.seats import SecretBox


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    """A session on a freshly migrated SQLite database (the caller commits, as services expect)."""
    db_engine = make_db_engine(f"sqlite:///{tmp_path}/h6.sqlite3")
    migrate.upgrade(db_engine)
    factory = make_session_factory(db_engine)
    with factory() as s:
        yield s
    db_engine.dispose()


@pytest.fixture
def h6_clock() -> FixedClock:
    """A clock at 2026-12-01 09:00 UTC."""
    return FixedClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))


@pytest.fixture
def box() -> SecretBox:
    """A SecretBox at the test cost."""
    return SecretBox(SecurityConfig(secret_key="test-secret-key-0123456789abcdef"))


class Draws:
    """A deterministic stand-in for secrets.randbits."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, bits: int) -> int:
        self.n += 1
        return (self.n * 0x9E3779B97F4A7C15 + 12345) % (1 << bits)


@pytest.fixture
def draw() -> Draws:
    """Deterministic draws for wire codes, tickets and nonces."""
    return Draws()
