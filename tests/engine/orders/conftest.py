"""Fixtures for the order-language tests."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.squad import Team
from tests.engine.orders.squad import fixture_team


@pytest.fixture(scope="session")
def team() -> Team:
    """The fixture squad (see squad.py)."""
    return fixture_team()


@pytest.fixture(scope="session")
def t20() -> FormatSpec:
    """The Twenty20 format."""
    return FORMATS[Format.T20]


@pytest.fixture(scope="session")
def fifty() -> FormatSpec:
    """The 50-over format."""
    return FORMATS[Format.FIFTY]
