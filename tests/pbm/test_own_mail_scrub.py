"""pbm's own mail is scrubbed for the outbox without the email package's reading, and the
result is byte for byte the package's: the same reading of the same bytes, the same search."""

from __future__ import annotations

import email
import quopri
import re
import sys
from datetime import UTC, datetime
from email import policy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.mail.compose import OutboundEmail, compose_message
from pbm.mail.headers import decoded
from pbm.secrets.scrub import (
    _FOLDING,
    _PLAIN_VALUE,
    _changes,
    _own_parts,
    _own_unchanged,
    _scrub_read,
    scrub_message,
    scrub_text,
)
from pbm.secrets.shapes import _SYM

DATE = datetime(2026, 12, 1, 15, 4, 5, tzinfo=UTC)
SHAPE = "ABCD-EFGH-JKLM-NPQR"

# Text a secret shape can hide in or brush against: symbols, dashes, other word characters
# (ASCII and not), the two characters beyond ASCII that fold to symbols, spaces and lines.
_pieces = st.sampled_from(
    [
        "A",
        "k",
        "9",
        "-",
        "_",
        "o",
        "é",
        "\u212a",
        "\u017f",
        " ",
        "\n",
        "—",
        "ABCD",
        "efgh",
        "ABCDEFGHJKLMNPQR",
        SHAPE,
        SHAPE.lower(),
        "background-color",
        "[redacted]",
        "=?utf-8?q?x?=",
        "=",
        "\t",
        ".",
    ]
)
_texts = st.lists(_pieces | st.text(max_size=4), max_size=24).map("".join)
_known = st.lists(
    st.sampled_from(["utf-8", "quoted", "Ab", "hunter22", "K" * 6, "ſecret", "pbm", SHAPE])
    | st.text(min_size=1, max_size=8),
    max_size=3,
)


def test_the_characters_beyond_ascii_that_fold_to_a_symbol_are_all_known() -> None:
    """Every code point the shape's caseless symbols match beyond ASCII is in _FOLDING, so
    the byte search for runs cannot miss a secret spelt with one."""
    symbol = re.compile(_SYM, re.IGNORECASE)
    found = {chr(i) for i in range(128, sys.maxunicode + 1) if symbol.fullmatch(chr(i))}
    assert found == set(_FOLDING)


@settings(max_examples=600, deadline=None)
@given(text=_texts, known=_known)
def test_the_quick_search_answers_as_the_scrub_does(text: str, known: list[str]) -> None:
    """Whether a text would change under scrub_text is answered the same by the quick way."""
    values = [k.strip() for k in known if k.strip()]
    assert _changes(text, values, False) == (scrub_text(text, values, lines=False) != text)


def _composed(subject: str, text: str, html: str | None, name: str) -> bytes:
    out = OutboundEmail(
        to="bob@example.com",
        subject=subject,
        text=text,
        html=html,
        from_addr="pbm+ccc@example.org",
        from_name=name,
        in_reply_to="<names-1@players.test>",
        headers={"X-Auto-Response-Suppress": "All"},
        flowed=True,
    )
    return compose_message(out, date=DATE, message_id="<pbm.0123@example.org>").raw


def _compat32(raw: bytes) -> list[tuple[list[str], object]]:
    msg = email.message_from_bytes(raw, policy=policy.compat32)
    return [
        (
            [str(v) for _, v in part.items()],
            None if part.is_multipart() else part.get_payload(decode=True),
        )
        for part in msg.walk()
    ]


# What a hostile edit may put into pbm's bytes: a second boundary, a CR, a stray '=', a
# folded line, another part's header, a secret, bytes beyond ASCII.
_edits = st.sampled_from(
    [
        b"\n--=_pbm_",
        b"\r",
        b"=",
        b"\n ",
        b"\nContent-Type: text/html\n",
        b"\nContent-Transfer-Encoding: base64\n",
        SHAPE.encode(),
        b"=41=42=43=44-=45=46=47=48-=4A=4B=4C=4D-=4E=50=51=52",
        b"\xe2\x84\xaa",
        b"=E2=84=AA",
        b"\n\n",
        b"--",
        b"=\n",
    ]
)


@st.composite
def _messages(draw: st.DrawFn) -> bytes:
    """pbm's composed bytes, now and then edited at one place by something hostile."""
    raw = _composed(
        draw(_texts),
        draw(_texts) or "x",
        draw(st.none() | _texts.map(lambda t: f"<p>{t}</p>")),
        draw(_texts),
    )
    if draw(st.booleans()):
        at = draw(st.integers(0, len(raw)))
        cut = draw(st.integers(0, 3))
        raw = raw[:at] + draw(_edits) + raw[at + cut :]
        if draw(st.booleans()):  # the boundary itself, where the edit put its start
            token = re.search(rb"=_pbm_[0-9a-f]{24}", raw)
            raw = raw.replace(b"--=_pbm_\n", b"--" + (token.group() if token else b"") + b"\n")
    return raw


@settings(max_examples=400, deadline=None)
@given(raw=_messages(), known=_known)
def test_pbm_own_mail_is_scrubbed_to_the_package_bytes(raw: bytes, known: list[str]) -> None:
    """The outbox's scrub gives the bytes the email package's reading gives, for pbm's
    composed mail and for the same bytes edited by something hostile, with any secrets."""
    values = [k.strip() for k in known if k and k.strip()]
    assert scrub_message(raw, known, lines=False, deep=False) == _scrub_read(
        raw, values, False, False
    )


@settings(max_examples=400, deadline=None)
@given(raw=_messages())
def test_pbm_own_mail_is_read_as_the_package_reads_it(raw: bytes) -> None:
    """Where the quick reading reads a message, it finds the package's header values and
    decoded payloads, part by part."""
    parts = _own_parts(raw) if b"\r" not in raw and raw.isascii() else None
    if parts is not None:
        assert [(h, None if p is None else quopri.decodestring(p)) for h, p in parts] == (
            _compat32(raw)
        )


def test_a_clean_reply_is_answered_without_the_package() -> None:
    """A clean reply, text and HTML twin, takes the quick way (so the tests above compare
    something); one with a secret shape, or a known secret, does not."""
    clean = _composed("Re: [CCC] orders — Orders received", "Your orders.", "<p>ok é</p>", "")
    assert _own_unchanged(clean, [], False)
    assert _own_unchanged(_composed("Re: x", "text only", None, "Cosmic"), [], False)
    dirty = _composed("Re: x", f"you wrote {SHAPE}", "<p>ok</p>", "")
    assert not _own_unchanged(dirty, [], False)
    assert SHAPE.encode() not in scrub_message(dirty, (), lines=False, deep=False)
    assert not _own_unchanged(clean, ["orders"], False)


@settings(max_examples=300, deadline=None)
@given(value=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40))
def test_a_plain_header_value_is_searched_once_as_it_decodes_to_itself(value: str) -> None:
    """The quick reading searches a header value of printable ASCII (no "=?", no blank at
    an end) once, as it is: the decoded value the package's way searches is the same text."""
    if "=?" not in value and _PLAIN_VALUE.fullmatch(value):
        assert decoded(value) == value


def test_a_secret_in_any_one_header_or_part_is_found_in_the_search_of_all() -> None:
    """Searched as one text, a known secret or a secret's shape in a single header value or
    part still sends the reply the package's way; a known secret holding the line end that
    joins the pieces is searched for piece by piece."""
    for subject, text, html in (
        (f"Re: {SHAPE}", "t", "<p>h</p>"),
        ("Re: x", "t", f"<p>{SHAPE.lower()}</p>"),
        ("Re: x", f"line\n{SHAPE}", None),
    ):
        raw = _composed(subject, text, html, "")
        assert not _own_unchanged(raw, [], False)
        assert SHAPE.lower().encode() not in scrub_message(raw, (), lines=False, deep=False).lower()
    raw = _composed("Re: Cosmic", "t", "<p>h</p>", "")
    assert _own_unchanged(raw, ["pbm\nCosmic"], False)
    assert not _own_unchanged(raw, ["pbm\nCosmic", "cosmic"], False)
