"""The canonical form: ``parse(canonical(x)) == x``, and the parser's own form is stable."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, canonical, parse_orders
from engine.flungo.orders import Orders
from tests.engine.orders.squad import fixture_team, opponent_team
from tests.engine.orders.strategies import namings, non_empty, orders_for

TEAM = fixture_team()
CONTEXT = OrderContext(opponent=opponent_team())
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _roundtrip(orders: Orders, fmt: Format) -> None:
    text = canonical(orders)
    result = parse_orders(text, TEAM, FORMATS[fmt], context=CONTEXT)
    assert result.errors == (), "\n".join(str(e) for e in result.errors) + "\n" + text
    assert result.orders == orders, text


@SETTINGS
@given(orders_for(TEAM, FORMATS[Format.FIFTY]))
def test_roundtrip_fifty(orders: Orders) -> None:
    """Any valid orders for a 50-over match read back equal from their canonical text."""
    _roundtrip(orders, Format.FIFTY)


@pytest.mark.slow
@SETTINGS
@given(orders_for(TEAM, FORMATS[Format.HUNDRED]))
def test_roundtrip_hundred(orders: Orders) -> None:
    """Any valid orders for The Hundred read back equal from their canonical text."""
    _roundtrip(orders, Format.HUNDRED)


@SETTINGS
@given(namings().map(lambda n: Orders(naming=n)).filter(non_empty))
def test_roundtrip_naming(orders: Orders) -> None:
    """Team and squad naming read back equal from their canonical text."""
    _roundtrip(orders, Format.T20)


@pytest.mark.slow
@SETTINGS
@given(orders_for(TEAM, FORMATS[Format.FIFTY]))
def test_echo_reads_back_to_the_same_orders(orders: Orders) -> None:
    """The echo of a reading is itself canonical: reading the echo gives the same orders."""
    first = parse_orders(canonical(orders), TEAM, FORMATS[Format.FIFTY], context=CONTEXT)
    again = parse_orders(first.echo_text(), TEAM, FORMATS[Format.FIFTY], context=CONTEXT)
    assert again.orders == first.orders
    assert again.echo_text() == first.echo_text()


def test_canonical_of_nothing_is_empty() -> None:
    """Empty orders have empty canonical text, which reads back as empty orders."""
    assert canonical(Orders()) == ""
    assert parse_orders("", TEAM).orders == Orders()
