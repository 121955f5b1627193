"""Routing tables: game code from plus-address or subject tag, command lines, secrets, redaction."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.inbound.routing import (
    REDACTED,
    CommandLine,
    Route,
    commands,
    extract_secret,
    redact,
    route,
)
from pbm.mail.parse import parse_message

OURS = ("pbm@example.org", "gm@example.org")


def _mail(to: str = "pbm@example.org", subject: str = "orders", extra: str = "") -> bytes:
    return (
        f"From: bob@example.com\nTo: {to}\nSubject: {subject}\n{extra}"
        "Message-ID: <r@example.com>\n\nJOIN\n"
    ).encode()


# (to, subject, extra headers, known games, expected route)
ROUTE_ROWS = [
    ("pbm+abc@example.org", "orders", "", None, Route("ABC", "plus-address", "pbm@example.org")),
    ("PBM+Abc@Example.org", "orders", "", None, Route("ABC", "plus-address", "pbm@example.org")),
    ("gm+abc@example.org", "x", "", None, Route("ABC", "plus-address", "gm@example.org")),
    ("pbm@example.org", "Re: [ABC] Round 2", "", None, Route("ABC", "subject", "pbm@example.org")),
    ("pbm@example.org", "[pbm abc] orders", "", None, Route("ABC", "subject", "pbm@example.org")),
    (
        "pbm@example.org",
        "[PBM: ccc2026] x",
        "",
        None,
        Route("CCC2026", "subject", "pbm@example.org"),
    ),
    ("pbm@example.org", "[pbm-XY] x", "", None, Route("XY", "subject", "pbm@example.org")),
    ("pbm@example.org", "no tag here", "", None, Route(None, None, "pbm@example.org")),
    ("pbm+abc@example.org", "[DEF] x", "", None, Route("ABC", "plus-address", "pbm@example.org")),
    (
        "pbm+zzz@example.org",
        "[DEF] x",
        "",
        frozenset({"DEF"}),
        Route("DEF", "subject", "pbm@example.org"),
    ),
    (
        "pbm@example.org",
        "[SPAM] [abc] x",
        "",
        frozenset({"ABC"}),
        Route("ABC", "subject", "pbm@example.org"),
    ),
    ("pbm@example.org", "[SPAM] x", "", frozenset({"ABC"}), Route(None, None, "pbm@example.org")),
    ("someone+abc@other.org", "hi", "", None, Route(None, None, None)),
    (
        "list@lists.org",
        "hi",
        "Delivered-To: pbm+abc@example.org\n",
        None,
        Route("ABC", "plus-address", "pbm@example.org"),
    ),
    (
        "list@lists.org",
        "hi",
        "X-Original-To: pbm+q1@example.org\n",
        None,
        Route("Q1", "plus-address", "pbm@example.org"),
    ),
    (
        "a@b.org, pbm+abc@example.org",
        "hi",
        "",
        None,
        Route("ABC", "plus-address", "pbm@example.org"),
    ),
    ("pbm+a.b@example.org", "x", "", None, Route(None, None, "pbm@example.org")),
]


@pytest.mark.parametrize(("to", "subject", "extra", "known", "expected"), ROUTE_ROWS)
def test_route(
    to: str, subject: str, extra: str, known: frozenset[str] | None, expected: Route
) -> None:
    """The game code comes from a plus-address on one of our addresses, else a subject tag."""
    mail = parse_message(_mail(to, subject, extra))
    assert route(mail, addresses=OURS, known_games=known) == expected


WORDS = ("JOIN", "SECRET", "TEAM", "NAME", "DIGEST", "HELP", "NEW")

# (line, expected (word, rest) or None)
COMMAND_ROWS = [
    ("JOIN", ("JOIN", "")),
    ("join", ("JOIN", "")),
    ("  Join please", ("JOIN", "please")),
    ("TEAM The Gunge Rovers", ("TEAM", "The Gunge Rovers")),
    ("Team: The Gunge Rovers", ("TEAM", "The Gunge Rovers")),
    ("NAME 1 Don Bradman", ("NAME", "1 Don Bradman")),
    ("- NAME 2 W G Grace", ("NAME", "2 W G Grace")),
    ("* name 3 Kapil Dev", ("NAME", "3 Kapil Dev")),
    ("• NAME 4 Brian Lara", ("NAME", "4 Brian Lara")),
    ("1. NAME 5 Shane Warne", ("NAME", "5 Shane Warne")),
    ("2) DIGEST", ("DIGEST", "")),
    ("(3) HELP me", ("HELP", "me")),
    ("JOINED the club", None),
    ("NAMES are below", None),
    ("NEW-BALL rule", None),
    ("I want to JOIN", None),
    ("> JOIN", None),
    ("", None),
]


@pytest.mark.parametrize(("line", "expected"), COMMAND_ROWS)
def test_command_line(line: str, expected: tuple[str, str] | None) -> None:
    """A command word counts only at the start of a line, after an optional bullet or number."""
    found = commands(line, WORDS)
    assert [(c.word, c.rest) for c in found] == ([expected] if expected else [])


def test_commands_report_line_numbers_and_text() -> None:
    """Commands carry their 1-based line number and original text; other lines are skipped."""
    body = "Hello!\nJOIN\n\n  team  The Rovers\nthanks"
    assert commands(body, WORDS) == [
        CommandLine(2, "JOIN", "", "JOIN"),
        CommandLine(4, "TEAM", "The Rovers", "  team  The Rovers"),
    ]


def test_command_words_are_a_parameter() -> None:
    """Only the words passed count; they come back spelled as given."""
    assert [c.word for c in commands("BOWL Smith\nJOIN", ["Bowl"])] == ["Bowl"]
    assert commands("JOIN", []) == []


# (body, expected secret, expected remaining body)
SECRET_ROWS = [
    ("JOIN\nSECRET abcd-efgh\nTEAM X\n", "abcd-efgh", "JOIN\n\nTEAM X\n"),
    ("secret: abcd-efgh", "abcd-efgh", ""),
    ("PASSWORD=hunter22\nNAME 1 A", "hunter22", "\nNAME 1 A"),
    ("  - Secret   abcd extra words", "abcd", ""),
    ("SECRET\nSECRET later-one", "later-one", "\n"),
    ("SECRET one\nSECRET two\nJOIN", "one", "\n\nJOIN"),
    ("JOIN\nmy secret is abcd", None, "JOIN\nmy secret is abcd"),
    ("", None, ""),
]


@pytest.mark.parametrize(("body", "secret", "rest"), SECRET_ROWS)
def test_extract_secret(body: str, secret: str | None, rest: str) -> None:
    """The first secret line's token is the secret; secret lines are blanked, keeping numbering."""
    assert extract_secret(body) == (secret, rest)


# (text, secrets, expected)
REDACT_ROWS = [
    ("SECRET abcd-efgh-ijkl", ["abcd-efgh-ijkl"], "SECRET [redacted]"),
    ("secret ABCD-EFGH-IJKL.", ["abcd-efgh-ijkl"], "secret [redacted]."),
    ("glued:xabcd-efgh-ijklx", ["abcd-efgh-ijkl"], "glued:x[redacted]x"),
    ("SECRET x, x marks the spot", ["x"], "SECRET [redacted], [redacted] marks the spot"),
    ("box and fox", ["x"], "box and fox"),
    ("two abcdef and ghijkl", ["abcdef", "ghijkl", None, ""], "two [redacted] and [redacted]"),
    ("nothing to hide", [], "nothing to hide"),
    ("a.b*c secret", ["a.b*c"], "[redacted] secret"),
]


@pytest.mark.parametrize(("text", "secrets", "expected"), REDACT_ROWS)
def test_redact(text: str, secrets: list[str | None], expected: str) -> None:
    """Secrets are replaced by [redacted], case-insensitively, regex characters taken literally."""
    assert redact(text, secrets) == expected


@pytest.mark.slow
@given(st.from_regex(r"[A-Za-z0-9-]{6,24}", fullmatch=True), st.text(), st.text())
def test_redacted_text_never_contains_the_secret(secret: str, before: str, after: str) -> None:
    """Whatever surrounds a long secret, it does not survive redaction."""
    out = redact(before + secret + after, [secret])
    if secret.lower() not in REDACTED.lower():
        assert secret.lower() not in out.lower()
