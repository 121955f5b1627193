"""Whole emails as players write them: each reads to the echo, errors and not-understood lines
written beside it in email_examples.toml, and its echo reads back to the same orders."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.dice import Dice
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.squad import Team, generate_squad
from tests.engine.orders.squad import fixture_team, opponent_team

EMAILS: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).parent / "email_examples.toml").read_text(encoding="utf-8")
)["email"]


def _team(email: dict[str, Any]) -> Team:
    if email["squad"] == "placeholders":
        return generate_squad(Dice(1), "Gunge Giants")
    return fixture_team()


def _read(email: dict[str, Any], text: str) -> ParsedOrders:
    context = OrderContext(opponent=opponent_team())
    return parse_orders(text, _team(email), FORMATS[Format(email["format"])], context=context)


@pytest.mark.parametrize("email", EMAILS, ids=[e["name"] for e in EMAILS])
def test_email(email: dict[str, Any]) -> None:
    """An email reads to exactly the echo, errors, not-understood lines and notes (a typo read
    as the word it is one edit from) written beside it."""
    result = _read(email, email["text"])
    assert result.echo_text() == email["echo"].rstrip("\n")
    errors = [
        f"line {e.span.line}, column {e.span.column}: {e.message}" if e.span else e.message
        for e in result.errors
    ]
    assert errors == email["errors"]
    assert [n.line for n in result.not_understood] == email["not_understood"]
    assert [f"line {n.line}: {n.text}" for n in result.notes] == email.get("notes", [])


@pytest.mark.parametrize("email", EMAILS, ids=[e["name"] for e in EMAILS])
def test_email_echo_reads_back(email: dict[str, Any]) -> None:
    """The echo of an email, sent back as orders, gives the same orders and no error."""
    first = _read(email, email["text"])
    again = _read(email, first.echo_text())
    assert again.errors == ()
    assert again.orders == first.orders


def test_the_corpus_is_large_and_mostly_understood() -> None:
    """At least 20 emails, and most of their lines are understood."""
    assert len(EMAILS) >= 20
    echoed = sum(len(e["echo"].splitlines()) for e in EMAILS)
    errors = sum(len(e["errors"]) for e in EMAILS)
    assert echoed > 5 * errors


_HEADING = re.compile(r"^\W*(?:bowling|bowling plan|bowlers|orders|styles)\W*$", re.IGNORECASE)


@pytest.mark.parametrize("email", EMAILS, ids=[e["name"] for e in EMAILS])
def test_no_line_is_acted_on_with_another_meaning(email: dict[str, Any]) -> None:
    """What the engine will do is exactly what the expected echo says, and every line of the
    mail is accounted for: echoed, an error, not understood (for the GM) or noted as chatter,
    so nothing is acted on silently."""
    result = _read(email, email["text"])
    assert result.orders == _read(email, email["echo"]).orders
    seen = {e.line for e in result.echo} | {c.line for c in result.chatter}
    seen |= {e.span.line for e in result.errors if e.span} | {n.line for n in result.not_understood}
    seen |= {n for n, _ in result.line_parts}
    for number, line in enumerate(email["text"].splitlines(), start=1):
        text = line.strip()
        if not text or not any(ch.isalnum() for ch in text) or _HEADING.match(text):
            continue
        if re.match(r"^(?:my |our )?orders (?:for|v|vs|against)\b", text, re.I):
            continue
        assert number in seen, f"line {number} ({text!r}) was neither read nor reported"


def test_the_corpus_has_sixty_emails_of_every_kind_of_player() -> None:
    """At least 60 whole emails (phone, long-time fan, newcomer, non-native speaker...)."""
    assert len(EMAILS) >= 60
    names = " ".join(e["name"] for e in EMAILS)
    for kind in ("phone", "long-time fan", "newcomer", "non-native speaker"):
        assert kind in names
