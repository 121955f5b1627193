"""What is remembered between mails changes no reading: a turn's mails say the same lines,
each naming its own squad, and each reads as it would in a process that had read nothing.
What is remembered belongs to the :class:`Reader` that read it, never to another."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, Reader, parse_orders, shipped_parser
from engine.flungo.language._reader import active
from engine.flungo.squad import Team
from tests.engine.orders.squad import fixture_team

#: Lines naming slots ({k}: the name in slot k): selection, a batting order with styles,
#: a plan, rules naming batsmen, names written without commas, misspelt and unknown names,
#: a number that is not whole, a "while X is in" condition, a line that does not parse.
_MAIL = """Hi GM,
XI: {1}, {2}, {3}, {4}, {7}, {9}, {10}, {12}, {13}, {14}, {15}
captain #2, keeper {7}
batting order: {1} (aggressive), {2}, {3}, {4}, {7}, {9}, {10}, {12}, {13}, {14}, {15}
{14} and {15} open
{14} overs 3, 17, 19
{15} overs 4-6, 18.5
{12} {13} the rest
while {1} is in, {2} bats defensive but if {1} is out {2} bats wahoo
if we have lost fewer than 3 wickets after 10 overs, all batsmen aggressive except {3}
{4} {7} defensive
{9} bats agressive
Nobody Atall bats normal
treat {18} 1
blah blah {16}
Thanks
"""


def _squad(tag: str, team: Team) -> Team:
    """``team`` with names "Celebrity <tag>-<slot>" (two words; as long for tags alike)."""
    players = tuple(replace(p, name=f"Celebrity {tag}-{k}") for k, p in enumerate(team.players, 1))
    return replace(team, players=players)


def _text(tag: str) -> str:
    return re.sub(r"\{(\d+)\}", rf"Celebrity {tag}-\1", _MAIL)


def _seen(parsed: ParsedOrders) -> tuple[Any, ...]:
    """All a reading says, errors as the player sees them."""
    errors = tuple((type(e), str(e), e.hint, e.span) for e in parsed.errors)
    return (
        parsed.orders,
        errors,
        parsed.echo,
        parsed.not_understood,
        parsed.chatter,
        parsed.clears,
        parsed.line_parts,
    )


@pytest.mark.parametrize("fmt", [Format.T20, Format.FIFTY])
def test_a_turn_of_squads_reads_as_each_alone(fmt: Format) -> None:
    """Squads whose names are as long (the same masked lines) and squads whose are not,
    one after another and then again: each mail reads as it does with nothing remembered."""
    base = fixture_team()
    tags = ["11", "12", "13", "7", "8", "11", "123"]
    context = OrderContext(former_names=tuple(p.name for p in base.players))
    alone = {}
    for tag in tags:
        read = parse_orders(_text(tag), _squad(tag, base), FORMATS[fmt], context=context)
        alone[tag] = _seen(read)
    warm = Reader()
    for tag in tags + tags:
        got = parse_orders(
            _text(tag), _squad(tag, base), FORMATS[fmt], context=context, reader=warm
        )
        assert _seen(got) == alone[tag], tag
    assert alone["11"] != alone["12"]  # the names are in what is read


def test_two_readers_share_no_memo() -> None:
    """What one Reader read, another has not: each keeps its own lines, masks and names,
    and a call given no Reader leaves no Reader active behind it."""
    team = fixture_team()
    first, second = Reader(), Reader()
    parse_orders(_text("11"), _squad("11", team), FORMATS[Format.T20], reader=first)
    kept = first.remembered()
    assert kept > 20
    assert second.remembered() == 0
    parse_orders("toss: bat", team, FORMATS[Format.T20], reader=second)
    alone = second.remembered()
    assert 0 < alone < kept
    assert first.remembered() == kept  # the second read added nothing to the first's
    parse_orders(_text("12"), _squad("12", team), FORMATS[Format.T20])  # a fresh one
    assert first.remembered() == kept and second.remembered() == alone
    assert active() is None


def test_a_fresh_reader_reads_as_a_warm_one() -> None:
    """The same mail read by a Reader that never read anything and by one warmed by other
    mails (the same lines with other names, the same mail before) reads the same."""
    base = fixture_team()
    warm = Reader(shipped_parser())
    for tag in ["11", "12", "7", "123"]:
        parse_orders(_text(tag), _squad(tag, base), FORMATS[Format.FIFTY], reader=warm)
    for tag in ["12", "8"]:
        mail, squad = _text(tag), _squad(tag, base)
        fresh = parse_orders(mail, squad, FORMATS[Format.FIFTY], reader=Reader())
        assert _seen(parse_orders(mail, squad, FORMATS[Format.FIFTY], reader=warm)) == _seen(fresh)
