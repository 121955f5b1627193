"""The quick loop's selection (tests/conftest.py): a property test that names more examples
than the loop allows tries the loop's number there, one that names fewer keeps its own, and
what is no property test is left alone."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import cap_examples


def _counting(named: int) -> tuple[list[int], Any]:
    seen: list[int] = []

    @settings(max_examples=named, database=None, deadline=None)
    @given(st.integers())
    def prop(x: int) -> None:
        seen.append(x)

    return seen, prop


def test_a_named_count_over_the_cap_runs_the_cap() -> None:
    """A test naming 200 examples, capped at 7, runs at most 7; uncapped, the same test
    runs more (so the cap is what stopped it)."""
    capped, prop = _counting(200)
    cap_examples(prop, 7)
    prop()
    free, other = _counting(200)
    other()
    assert 1 <= len(capped) <= 7 < len(free)


def test_a_named_count_under_the_cap_is_kept() -> None:
    """A test naming 5 examples keeps 5 under a cap of 7."""
    _, prop = _counting(5)
    cap_examples(prop, 7)
    assert prop._hypothesis_internal_use_settings.max_examples == 5


def test_what_is_no_property_test_is_left_alone() -> None:
    """A plain function gets no Hypothesis settings."""

    def plain() -> None:
        pass

    cap_examples(plain, 7)
    assert not hasattr(plain, "_hypothesis_internal_use_settings")


def test_an_example_has_two_seconds_in_the_whole_suite_and_no_deadline_in_the_loop() -> None:
    """The profile loaded: the loop gives an example no deadline, the whole suite 2 s (a
    stall still fails; a busy machine's 0.3 s example no longer does)."""
    from datetime import timedelta

    from tests.conftest import QUICK

    assert settings.default.deadline == (None if QUICK else timedelta(seconds=2))
