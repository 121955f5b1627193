"""Every example in the player's guide (docs/players/orders.md) reads as the guide says.

A fenced block tagged ``orders`` is read against the fixture squad (with the Blobs as the
opponents, 50 overs unless the tag names a format; ``drinks`` marks amendments at drinks).
It must read without error, unless tagged ``errors``. An ``echo`` block right after it is
the expected canonical echo; an ``errors`` block, the expected errors as printed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from tests.engine.orders.squad import fixture_team, opponent_team

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "players" / "orders.md"
_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def _blocks() -> list[tuple[str, str, str | None, str | None]]:
    """(info, orders text, the following block's tag, its text) for each ``orders`` block."""
    found = [(m.group(1).split(), m.group(2)) for m in _FENCE.finditer(GUIDE.read_text("utf-8"))]
    out = []
    for i, (info, body) in enumerate(found):
        if info[:1] != ["orders"]:
            continue
        nxt = found[i + 1] if i + 1 < len(found) else ([], "")
        tag = nxt[0][0] if nxt[0] and nxt[0][0] in ("echo", "errors") else None
        out.append((" ".join(info), body, tag, nxt[1] if tag else None))
    return out


BLOCKS = _blocks()


def _read(info: str, text: str) -> ParsedOrders:
    words = info.split()[1:]
    fmt = next((Format(w) for w in words if w in {f.value for f in Format}), Format.FIFTY)
    drinks = "drinks" in words
    context = OrderContext(
        opponent=opponent_team(), at_drinks=drinks, batting=False if drinks else None
    )
    return parse_orders(text, fixture_team(), FORMATS[fmt], context=context)


def test_the_guide_has_examples() -> None:
    """The guide has many order examples, most with their expected echo."""
    assert len(BLOCKS) >= 20
    assert sum(1 for b in BLOCKS if b[2] == "echo") >= 20


@pytest.mark.parametrize(("info", "text", "tag", "expected"), BLOCKS, ids=range(len(BLOCKS)))
def test_guide_example(info: str, text: str, tag: str | None, expected: str | None) -> None:
    """A guide example reads with the echo or the errors the guide shows."""
    result = _read(info, text)
    if "errors" in info.split():
        assert result.errors
    else:
        assert result.errors == (), "\n\n".join(str(e) for e in result.errors)
    if tag == "echo":
        assert result.echo_text() == (expected or "").rstrip("\n")
    elif tag == "errors":
        assert "\n\n".join(str(e) for e in result.errors) == (expected or "").rstrip("\n")


@pytest.mark.parametrize(("info", "text", "tag", "expected"), BLOCKS, ids=range(len(BLOCKS)))
def test_guide_echo_reads_back(info: str, text: str, tag: str | None, expected: str | None) -> None:
    """The echo of every guide example reads back to the same orders."""
    del tag, expected
    first = _read(info, text)
    again = _read(info, first.echo_text())
    assert again.errors == ()
    assert again.orders == first.orders
