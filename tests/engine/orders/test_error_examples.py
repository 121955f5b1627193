"""The golden corpus: each known-bad order gives exactly the error written beside it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, parse_orders
from tests.engine.orders.squad import fixture_team

EXAMPLES: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).parent / "error_examples.toml").read_text(encoding="utf-8")
)["example"]


def _context(raw: dict[str, Any]) -> OrderContext:
    return OrderContext(
        unavailable=frozenset(raw.get("unavailable", ())),
        at_drinks=raw.get("at_drinks", False),
        batting=raw.get("batting"),
        bowled=tuple((int(o), str(b)) for o, b in raw.get("bowled", ())),
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["name"] for e in EXAMPLES])
def test_error_example(example: dict[str, Any]) -> None:
    """A known-bad order gives one error of the expected kind, place, message and hint."""
    result = parse_orders(
        example["text"],
        fixture_team(),
        FORMATS[Format(example["format"])],
        context=_context(example.get("context", {})),
    )
    assert len(result.errors) == 1, [str(e) for e in result.errors]
    (error,) = result.errors
    assert error.span is not None
    got = (error.kind, error.span.line, error.span.column, error.message, error.hint)
    want = (
        example["kind"],
        example["line"],
        example["column"],
        example["message"],
        example.get("hint"),
    )
    assert got == want
    assert error.caret().splitlines()[-1].lstrip(" ").startswith("^")


def test_corpus_covers_every_kind() -> None:
    """The corpus has invalid, illegal and ambiguous examples."""
    assert {e["kind"] for e in EXAMPLES} == {"invalid", "illegal", "ambiguous"}
