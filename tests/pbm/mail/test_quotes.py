"""The quote and signature stripper: what it removes, and above all what it keeps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.mail.quotes import MAX_LINES, strip_quotes

GMAIL_ATTR = "On Mon, 30 Nov 2026 at 09:12, Cosmic <pbm@example.org> wrote:"

# (name, text, expected body)
ROWS = [
    ("top-post", f"JOIN\n\n{GMAIL_ATTR}\n> hello\n", "JOIN"),
    ("bottom-post", f"{GMAIL_ATTR}\n> hello\n\nJOIN\nTEAM X\n", "JOIN\nTEAM X"),
    (
        "inline",
        "> Who opens?\nNAME 1 A\n> Who bowls?\nIf green, B bowls.\n> Else?\n",
        "NAME 1 A\nIf green, B bowls.",
    ),
    (
        "wrapped attribution",
        "JOIN\n\nOn Mon, 30 Nov 2026 at 09:12, Cosmic Celebrity Cricket <\npbm@example.org>"
        " wrote:\n\n> hi\n",
        "JOIN",
    ),
    ("thunderbird", "NAME 1 A\n\nOn 30/11/2026 09:12, Cosmic wrote:\n> hi\n", "NAME 1 A"),
    ("old style", "NAME 1 A\n\nbob@example.com writes:\n> hi\n", "NAME 1 A"),
    ("german", "TEAM X\n\nAm Mo., 30. Nov. 2026 um 09:12 Uhr schrieb A <a@b.c>:\n> x\n", "TEAM X"),
    ("french", "TEAM X\n\nLe lun. 30 nov. 2026 à 09:12, A <a@b.c> a écrit :\n> x\n", "TEAM X"),
    ("spanish", "TEAM X\n\nEl lun, 30 nov 2026 a las 9:12, A (<a@b.c>) escribió:\n> x\n", "TEAM X"),
    (
        "outlook original message",
        "TEAM X\n\n-----Original Message-----\nFrom: pbm\nSent: Mon\nold zine\n",
        "TEAM X",
    ),
    (
        "outlook header block",
        "TEAM X\n\nFrom: Cosmic <pbm@example.org>\nSent: Monday\nTo: me\nSubject: hi\n\nzine\n",
        "TEAM X",
    ),
    (
        "outlook bold headers",
        "TEAM X\n\n*From:* Cosmic\n*Sent:* Monday\n*Subject:* hi\n\nzine\n",
        "TEAM X",
    ),
    (
        "german outlook",
        "TEAM X\n\nVon: Cosmic\nGesendet: Montag\nAn: ich\nBetreff: hi\n\nzine\n",
        "TEAM X",
    ),
    ("signature", "JOIN\n-- \nBob\nPhone 555\n", "JOIN"),
    ("signature then quote", f"JOIN\n\n-- \nBob\n\n{GMAIL_ATTR}\n> hi\n", "JOIN"),
    ("phone", "JOIN\n\nSent from my iPhone\n", "JOIN"),
    ("outlook mobile", "JOIN\n\nGet Outlook for Android\n", "JOIN"),
    ("outlook ios link", "JOIN\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n", "JOIN"),
    ("yahoo android", "JOIN\n\nSent from Yahoo Mail on Android\n", "JOIN"),
    (
        "protonmail",
        "TEAM X\n\n------- Original Message -------\nOn Monday, November 30th, 2026 at 09:12, "
        "Cosmic <pbm@example.org> wrote:\n\n> zine\n",
        "TEAM X",
    ),
    (
        "outlook for mac",
        "TEAM X\n\nFrom: Cosmic <pbm@example.org>\nDate: Monday, 30 November 2026 at 09:12\n"
        "To: Me <me@x.org>\nSubject: [CCC] Round 2\n\nzine\n",
        "TEAM X",
    ),
    (
        "forward keeps forwarded text",
        "see below\n\n---------- Forwarded message ---------\nFrom: Me <me@work>\n"
        "Date: Wed, 2 Dec 2026\nSubject: orders\nTo: me\n\n\nNAME 3 G Gooch\n",
        "see below\n\nNAME 3 G Gooch",
    ),
    (
        "apple forward keeps forwarded text",
        "Begin forwarded message:\n\nFrom: Me <me@work>\nSubject: orders\nDate: 2 Dec 2026\n"
        "To: me\n\nNAME 3 G Gooch\n",
        "NAME 3 G Gooch",
    ),
    ("quoted attribution", "JOIN\n\n> On 30 Nov 2026, at 09:12, A <a@b> wrote:\n>\n> hi\n", "JOIN"),
    ("blank lines of the player kept", "JOIN\n\n\nTEAM X", "JOIN\n\n\nTEAM X"),
]

# Things a player might write that the stripper must leave alone.
KEEP_ROWS = [
    ("wrote without quote", f"NAME 1 A\n\n{GMAIL_ATTR}\n\nNAME 2 B\n"),
    ("On in orders", "On a green pitch, bowl seam.\nOn a dry pitch, bowl spin.\n"),
    ("order mentions wrote", "NAME 1 The man who wrote:\nNAME 2 B\n"),
    ("From line alone", "TEAM X\n\nFrom: over 10, bowl Smith\nNAME 1 A\n"),
    ("From and Sent without Subject", "TEAM X\n\nFrom: over 10\nSent: to deep\nNAME 1 A\n"),
    ("header block without blank before", "TEAM X\nFrom: a\nSent: b\nSubject: c\nNAME 1 A\n"),
    ("double dash without space", "JOIN\n--\nTEAM X\n"),
    (
        "long text after sig marker",
        "JOIN\n-- \n" + "".join(f"NAME {i} P{i}\n" for i in range(1, 19)),
    ),
    ("greater-than inside", "IF score > 100, declare.\nNAME 1 A\n"),
    ("thanks", "JOIN\nThanks,\nBest,\nTEAM X\n"),
    ("sent from mid-sentence", "TEAM Sent from my iPhone Rovers\n"),
]


@pytest.mark.parametrize(
    ("text", "expected"), [(t, e) for _, t, e in ROWS], ids=[r[0] for r in ROWS]
)
def test_strips(text: str, expected: str) -> None:
    """Quotes, attributions, reply header blocks and signatures are removed."""
    assert strip_quotes(text).text == expected


@pytest.mark.parametrize("text", [t for _, t in KEEP_ROWS], ids=[r[0] for r in KEEP_ROWS])
def test_keeps(text: str) -> None:
    """Player text that merely resembles a quote or signature is kept whole."""
    result = strip_quotes(text)
    assert result.text == text.strip("\n")
    assert (result.quoted_lines, result.signature_lines) == (0, 0)


def test_counts_removed_lines() -> None:
    """Counts cover non-blank removed lines (not the "-- " line), quotes and signature apart."""
    result = strip_quotes(f"JOIN\n-- \nBob\n\n{GMAIL_ATTR}\n>\n> a\n> b\n")
    assert (result.quoted_lines, result.signature_lines) == (4, 1)


@pytest.mark.slow
@given(st.lists(st.from_regex(r"[A-Z]{3,8} [A-Za-z0-9 ]{0,30}", fullmatch=True), max_size=20))
def test_unquoted_order_lines_survive(orders: list[str]) -> None:
    """Order-like lines around a quoted zine all survive, in order."""
    text = "\n".join(orders[:5]) + f"\n\n{GMAIL_ATTR}\n> zine\n\n" + "\n".join(orders[5:])
    kept = [line for line in strip_quotes(text).text.split("\n") if line.strip()]
    assert kept == [o for o in orders if o.strip()]


def test_very_long_text_is_left_alone() -> None:
    """Past MAX_LINES nothing is stripped, so hostile mail costs linear time only."""
    text = "JOIN\n" + "> quoted\n" * MAX_LINES
    result = strip_quotes(text)
    assert result.too_long
    assert result.text == text.strip("\n")


PIECES = ["-- ", ">", "On", "wrote:", "From:", "Sent:", "Subject:", "\n", " ", "x", "Sent from my"]
PIECES += ["_" * 12, "Begin forwarded message:", "1", "@"]


@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_only_removes_whole_lines(text: str) -> None:
    """The stripper only drops whole lines; it never edits or reorders one (blanks go empty)."""
    out = strip_quotes(text).text
    kept = out.split("\n") if out else []
    source = iter(line if line.strip() else "" for line in text.split("\n"))
    assert all(any(line == original for original in source) for line in kept)
