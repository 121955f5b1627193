"""The golden corpus: realistic mails from common clients and the body pbm should read."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbm.mail.parse import InboundEmail, parse_message

EML_DIR = Path(__file__).parents[2] / "data" / "eml"
OURS = ("pbm@example.org",)
CORPUS = sorted(EML_DIR.glob("*.eml"))


def _parse(name: str) -> InboundEmail:
    return parse_message((EML_DIR / f"{name}.eml").read_bytes(), own_addresses=OURS)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_body_matches_golden(path: Path) -> None:
    """Each corpus mail's stripped body equals its reviewed ``.body.txt`` golden file."""
    expected = path.with_suffix(".body.txt").read_text(encoding="utf-8")
    assert parse_message(path.read_bytes(), own_addresses=OURS).body + "\n" == expected


def test_corpus_is_complete() -> None:
    """The corpus covers every client style the issue names."""
    names = {p.stem for p in CORPUS}
    assert {"gmail_reply", "outlook_reply", "apple_mail_flowed", "thunderbird_flowed"} <= names
    assert {"iphone_toppost", "html_only", "base64_utf8_bom", "latin1_8bit"} <= names
    assert {"with_attachment", "broken_mime", "auto_reply_vacation", "dsn_bounce"} <= names
    assert {"mailing_list", "inline_reply"} <= names


# (file, attribute, expected)
HEADER_ROWS = [
    ("gmail_reply", "message_id", "<CAJx1y=Qh3v8k2mN0pZ@mail.gmail.com>"),
    ("gmail_reply", "key", "<CAJx1y=Qh3v8k2mN0pZ@mail.gmail.com>"),
    ("gmail_reply", "from_addr", "bob.smith@gmail.com"),
    ("gmail_reply", "from_name", "Bob Smith"),
    ("gmail_reply", "delivered_to", ("pbm+ccc@example.org",)),
    ("gmail_reply", "in_reply_to", "<pbm.3f2a9c@example.org>"),
    ("gmail_reply", "references", ("<pbm.1a2b3c@example.org>", "<pbm.3f2a9c@example.org>")),
    ("gmail_reply", "subject", "Re: [CCC] Welcome to Cosmic Celebrity Cricket"),
    ("gmail_reply", "notes", ("quoted text removed: 7 lines",)),
    ("iphone_toppost", "notes", ("quoted text removed: 3 lines", "signature removed: 1 line")),
    ("thunderbird_flowed", "notes", ("quoted text removed: 3 lines", "signature removed: 2 lines")),
    (
        "forwarded_orders",
        "notes",
        ("quoted text removed: 5 lines", "forwarded message: its headers removed, its text read"),
    ),
    ("outlook_reply", "from_name", "Françoise Dupont"),
    ("outlook_reply", "from_addr", "f.dupont@outlook.com"),
    ("apple_mail_flowed", "from_name", "Jérôme Martin"),
    ("base64_utf8_bom", "subject", "Grüße"),
    ("latin1_8bit", "from_name", "José García"),
    ("with_attachment", "notes", ("2 attachments ignored",)),
    ("html_only", "notes", ("HTML-only mail converted to text", "quoted text removed: 1 line")),
    ("inline_reply", "to_addrs", ("pbm+ccc@example.org",)),
    ("mailing_list", "cc_addrs", ("pbm@example.org",)),
    ("auto_reply_vacation", "auto_reason", "Auto-Submitted: auto-replied"),
    ("mailing_list", "auto_reason", "Precedence: list"),
    ("dsn_bounce", "auto_reason", "Auto-Submitted: auto-replied"),
    ("gmail_reply", "auto_reason", None),
    ("iphone_toppost", "auto_reason", None),
    ("gmail_reply", "bounce", None),
    ("outlook_german", "from_name", "Jürgen Müller"),
    ("outlook_german", "notes", ("quoted text removed: 5 lines",)),
    ("gm_new_competition", "to_addrs", ("pbm+gm@example.org",)),
    ("yahoo_unquoted", "notes", ()),
]


def test_unquoted_original_is_kept() -> None:
    """Yahoo's unmarked original stays in the body: pbm cannot tell where it ends."""
    assert "Mail JOIN to take a team" in _parse("yahoo_unquoted").body


def test_long_conditional_order_survives_quoted_printable_soft_breaks() -> None:
    """A conditional sentence split by QP soft breaks reads back as one line."""
    body = _parse("outlook_german").body
    assert (
        "After 20 overs, if I have lost 3 wickets or less all batsmen will be aggressive, "
        "but will reduce to normal when the 6th wicket is lost." in body.split("\n")
    )


@pytest.mark.parametrize(("name", "attribute", "expected"), HEADER_ROWS)
def test_header_fields(name: str, attribute: str, expected: object) -> None:
    """Headers are decoded into the documented fields."""
    assert getattr(_parse(name), attribute) == expected


def test_attachments_are_listed_not_read() -> None:
    """Attachments are listed with their names and types, and their bytes are not in the body."""
    mail = _parse("with_attachment")
    assert [(a.filename, a.content_type) for a in mail.attachments] == [
        ("team.jpg", "image/jpeg"),
        ("squad.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ]
    assert "/9j/" not in mail.full_text


def test_dsn_bounce_names_the_failed_address() -> None:
    """A delivery report yields the permanently failed original recipient."""
    bounce = _parse("dsn_bounce").bounce
    assert bounce is not None
    assert bounce.addresses == ("gone.player@example.com",)
    assert bounce.permanent


def test_broken_mime_is_read_and_reported() -> None:
    """A multipart with a wrong boundary is still read, with the problem noted."""
    mail = _parse("broken_mime")
    assert mail.body.startswith("JOIN\n")
    assert any("boundary" in p for p in mail.problems)


def test_full_text_keeps_what_was_stripped() -> None:
    """``full_text`` still holds the quote the body dropped."""
    mail = _parse("gmail_reply")
    assert "> Your secret is abcd-efgh-ijkl" in mail.full_text
    assert "Your secret is" not in mail.body
