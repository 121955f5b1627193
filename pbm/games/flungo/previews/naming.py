"""The acknowledgement of an orders mail."""

from __future__ import annotations

from typing import Any

from engine.flungo.formats import FORMATS, Format
from engine.flungo.ground import Conditions
from engine.flungo.language import parse_orders
from engine.flungo.practice import practice_lines, practice_seed, practise
from pbm.games.flungo.previews import _data as d


def _practice(echo: str) -> list[str]:
    """The practice the answer gives, played for real by the engine: the echo's orders for
    the Gunge Giants against the Dundee Cakes on the fixture's pitch and weather."""
    team, opponent = d.team(), d.opponent()
    read = parse_orders(echo, team, FORMATS[Format.T20])
    seed = practice_seed(echo, "DEMO:1")
    conditions = Conditions("The Gunge Bowl", 3, 2)
    return practice_lines(practise(team, read.orders.match, opponent, Format.T20, conditions, seed))


def _errors(line: str) -> list[dict[str, Any]]:
    """The errors the engine gives ``line`` (as the answer shows them: words, the line and
    its caret row), as if it were the mail's fifth line."""
    read = parse_orders(line, d.team(), FORMATS[Format.T20])
    return [{"text": str(e).replace("line 1,", "line 5,", 1), "line": 5} for e in read.errors]


def context() -> dict[str, Any]:
    """The made-up context."""
    n = d.names()
    wp = d.will_play()
    echo = (
        f"captain: {n[1]}\ntoss: bat\n"
        f"after 10 overs, if score >= 50 and wickets <= 3: {n[0]} bats aggressive"
    )
    return {
        "competition": d.COMP,
        "accepted": True,
        "errors": _errors(f"{n[0]} on defensive pls, blunt the seamers"),
        "echo": echo,
        # a sure typo read as the order word it is one edit from (the mail said "ovres")
        "read_as": ["Line 4: read 'ovres' as 'overs'."],
        "practice": _practice(echo),
        "changes": [],
        "squad": d.squad(),
        "team_name": d.team().name,
        "named": True,
        "unnamed": [],
        "version": 2,
        "naming": False,
        "orders_version": 3,
        "standing": "\n".join(wp["lines"]),
        "flags": [
            {
                "line": 6,
                "text": "if Warne gets hammered take him off",
                "reason": "I don't know what 'hammered' means in an order",
                "readings": [],
            }
        ],
        "still_stands": [],
        "kept": [],
        "will_play": wp,
        "deadline": d.DEADLINE,
        "fixture": d.FIXTURE,
        "notes": [],
    }
