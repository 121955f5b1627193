"""The bench's stage timer names functions by where their callers look them up: each must
still be there, or ``bench/intake.py`` stops at its first burst (as it did when a module
stopped importing ``parse_orders``)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from _stages import _TARGETS  # type: ignore[import-not-found]


@pytest.mark.parametrize(("stage", "where", "attr"), _TARGETS)
def test_every_timed_function_is_where_the_timer_looks(stage: str, where: str, attr: str) -> None:
    """Each (module[:class], attribute) of the stage table resolves to a callable."""
    module_name, _, owner_name = where.partition(":")
    owner: object = importlib.import_module(module_name)
    if owner_name:
        owner = getattr(owner, owner_name)
    assert callable(getattr(owner, attr, None)), f"{stage}: {where}.{attr} is gone"
