"""Charsets, transfer encodings, HTML conversion and part choice."""

from __future__ import annotations

import base64

import pytest

from pbm.mail.mime import decode_bytes, html_to_text
from pbm.mail.parse import parse_message


def _single(body: bytes, content_type: str, cte: str = "8bit") -> bytes:
    head = (
        "From: a@example.com\nTo: pbm@example.org\nSubject: s\nMessage-ID: <m@x>\n"
        f"MIME-Version: 1.0\nContent-Type: {content_type}\nContent-Transfer-Encoding: {cte}\n\n"
    )
    return head.encode() + body


# (raw body bytes, content type, transfer encoding, expected body)
CHARSET_ROWS = [
    ("TEAM Zoë".encode("latin-1"), "text/plain; charset=iso-8859-1", "8bit", "TEAM Zoë"),
    (b"TEAM \x93Rovers\x94", "text/plain; charset=iso-8859-1", "8bit", "TEAM \u201cRovers\u201d"),
    (b"TEAM \x93Rovers\x94", "text/plain; charset=windows-1252", "8bit", "TEAM \u201cRovers\u201d"),
    ("TEAM 東京".encode("iso-2022-jp"), "text/plain; charset=iso-2022-jp", "7bit", "TEAM 東京"),
    ("\ufeffJOIN".encode(), "text/plain; charset=utf-8", "8bit", "JOIN"),
    ("TEAM Zoë".encode(), "text/plain; charset=x-unknown-42", "8bit", "TEAM Zoë"),
    ("TEAM Zoë".encode(), "text/plain", "8bit", "TEAM Zoë"),
    ("TEAM Zoë".encode("latin-1"), "text/plain; charset=utf-8", "8bit", "TEAM Zoë"),
    (b"TEAM Zo=C3=AB=\nRovers", "text/plain; charset=utf-8", "quoted-printable", "TEAM ZoëRovers"),
    (
        base64.b64encode("JOIN\r\nTEAM Zoë".encode()),
        "text/plain; charset=utf-8",
        "base64",
        "JOIN\nTEAM Zoë",
    ),
    (b"JOIN\r\nTEAM X\r\n", "text/plain; charset=us-ascii", "7bit", "JOIN\nTEAM X"),
]


@pytest.mark.parametrize(("body", "ctype", "cte", "expected"), CHARSET_ROWS)
def test_charsets_and_encodings(body: bytes, ctype: str, cte: str, expected: str) -> None:
    """Declared (or wrong, or unknown) charsets and transfer encodings decode to the text."""
    assert parse_message(_single(body, ctype, cte)).body == expected


def test_unknown_charset_is_reported() -> None:
    """An unknown charset is decoded as UTF-8 and noted as a problem."""
    mail = parse_message(_single(b"JOIN", "text/plain; charset=x-unknown-42"))
    assert any("x-unknown-42" in p for p in mail.problems)


def test_undecodable_bytes_never_raise() -> None:
    """Bytes valid in no declared charset fall back to replacement characters."""
    text, problem = decode_bytes(b"\xff\xfe\x81 JOIN", "utf-8")
    assert text.endswith("JOIN")
    assert problem is not None


def test_plain_preferred_over_html() -> None:
    """In multipart/alternative the text/plain part is read, not the HTML."""
    raw = (
        b"From: a@example.com\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/alternative; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nPLAIN JOIN\n"
        b"--b\nContent-Type: text/html\n\n<p>HTML JOIN</p>\n--b--\n"
    )
    mail = parse_message(raw)
    assert mail.body == "PLAIN JOIN"
    assert "HTML-only mail converted to text" not in mail.notes


def test_html_blockquotes_become_quotes() -> None:
    """HTML blockquotes turn into '>' lines, so the quote stripper treats them like text quotes."""
    text = html_to_text(
        "<p>JOIN</p><blockquote><p>old</p><blockquote>older</blockquote></blockquote>"
    )
    assert text.split("\n")[0] == "JOIN"
    assert "> old" in text
    assert "> > older" in text


def test_outlook_html_reply_is_stripped() -> None:
    """An HTML-only Outlook reply loses the original message under its From/Sent block."""
    html = (
        "<div>NAME 1 Don Bradman</div><hr><div id='divRplyFwdMsg'><b>From:</b> pbm<br>"
        "<b>Sent:</b> Monday<br><b>To:</b> me<br><b>Subject:</b> squad</div><div>zine</div>"
    )
    mail = parse_message(_single(html.encode(), "text/html; charset=utf-8"))
    assert mail.body == "NAME 1 Don Bradman"


def test_multipart_mixed_with_footer_reads_all_text_parts() -> None:
    """Inline text parts of a multipart/mixed (e.g. a footer a server appended) are all read."""
    raw = (
        b"From: a@example.com\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nJOIN\n"
        b"--b\nContent-Type: text/plain\n\nTEAM X\n--b--\n"
    )
    assert parse_message(raw).body == "JOIN\n\nTEAM X"


def test_forwarded_message_attachment_is_not_read() -> None:
    """An attached message/rfc822 is listed as an attachment, not read as the sender's words."""
    raw = (
        b"From: a@example.com\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nJOIN\n"
        b"--b\nContent-Type: message/rfc822\n\nFrom: x@y\nSubject: old\n\nTEAM Old\n--b--\n"
    )
    mail = parse_message(raw)
    assert mail.body == "JOIN"
    assert [a.content_type for a in mail.attachments] == ["message/rfc822"]
    assert "1 attachment ignored" in mail.notes


def test_message_without_id_keys_on_content_hash() -> None:
    """Without a Message-ID the idempotency key is the sha256 of the raw bytes."""
    raw = b"From: a@example.com\n\nJOIN\n"
    mail = parse_message(raw)
    assert mail.message_id is None
    assert mail.key == "sha256:" + mail.content_hash
    assert len(mail.content_hash) == 64


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("<abc@x>", "<abc@x>"),
        ("  <abc@x>  (comment)", "<abc@x>"),
        ("abc@x", "<abc@x>"),
        ("<" + "a" * 300 + "@x>", None),
        ("", None),
    ],
)
def test_message_id_normalised(header: str, expected: str | None) -> None:
    """Message-IDs are reduced to '<id>' form; absurdly long ones count as missing."""
    raw = f"From: a@example.com\nMessage-ID: {header}\n\nJOIN\n".encode()
    assert parse_message(raw).message_id == expected


def test_date_is_aware() -> None:
    """A date without a zone is read as UTC; a garbled date is None."""
    ok = parse_message(b"From: a@b\nDate: Mon, 30 Nov 2026 09:00:00 -0000\n\nx")
    assert ok.date is not None and ok.date.tzinfo is not None
    assert parse_message(b"From: a@b\nDate: yesterday-ish\n\nx").date is None


@pytest.mark.parametrize(
    ("disposition", "expected"),
    [
        ('attachment; filename="plain.pdf"', "plain.pdf"),
        ('attachment; filename="=?utf-8?q?Z=C3=B6e.pdf?="', "Zöe.pdf"),
        ("attachment; filename*=utf-8''Z%C3%B6e%20XI.pdf", "Zöe XI.pdf"),
        ("attachment", None),
    ],
)
def test_attachment_filenames_decoded(disposition: str, expected: str | None) -> None:
    """Attachment names in RFC 2047 or RFC 2231 form are decoded for the reply to mention."""
    raw = (
        "From: a@example.com\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="b"\n\n'
        "--b\nContent-Type: text/plain\n\nJOIN\n"
        f"--b\nContent-Type: application/pdf\nContent-Disposition: {disposition}\n\n%PDF\n--b--\n"
    ).encode()
    assert [a.filename for a in parse_message(raw).attachments] == [expected]


def test_empty_plain_alternative_falls_back_to_html() -> None:
    """A client that sends an empty text/plain beside the real HTML still gets read."""
    raw = (
        b"From: a@example.com\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/alternative; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\n \n"
        b"--b\nContent-Type: text/html\n\n<p>JOIN</p>\n--b--\n"
    )
    assert parse_message(raw).body == "JOIN"


def test_invalid_utf8_is_reported() -> None:
    """Bytes that are not the UTF-8 they claim are decoded as windows-1252 and noted."""
    text, problem = decode_bytes(b"Zo\xeb", "utf-8")
    assert text == "Zoë"
    assert problem == "text was not valid utf-8; decoded as windows-1252"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Bob <Bob@Example.com>", "bob@example.com"),
        ("bob@example.com (Bob)", "bob@example.com"),
        ('"Smith, Bob" <bob@x.org>', "bob@x.org"),
        # Refused (issue 8): two senders, or a bracket left open, is not one plain address.
        ('"Smith, Bob" <bob@x.org>, alice@y.org', None),
        ("Bob <bob@example.com", None),
        ("bob at example dot com", None),
        ("a@b@c", None),
        ("undisclosed-recipients:;", None),
        ("<>", None),
    ],
)
def test_from_address_is_a_plain_addr_spec_or_none(header: str, expected: str | None) -> None:
    """from_addr is a lower-cased local@domain, never a guess from a garbled header."""
    assert parse_message(f"From: {header}\n\nJOIN\n".encode()).from_addr == expected
