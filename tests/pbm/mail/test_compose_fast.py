"""The direct writer of plain-text replies gives the email package's bytes exactly."""

from __future__ import annotations

from datetime import UTC, datetime
from email import quoprimime
from email.parser import BytesParser

from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.mail.compose import (
    SAFE_POLICY,
    OutboundEmail,
    _alternative_bytes,
    _headers,
    _package_bytes,
    _plain_bytes,
    _qp,
    compose_message,
)
from pbm.mail.headers import valid_text
from pbm.mail.limits import cut_reply

DATE = datetime(2026, 12, 1, 15, 4, 5, tzinfo=UTC)
MID = "<pbm.0123456789abcdef@example.org>"

_words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=90)


def _out(**kw: object) -> OutboundEmail:
    fields: dict[str, object] = {
        "to": "bob@example.com",
        "subject": "Re: [CCC] names — Squad names accepted",
        "text": "Your squad:\n 1 Celebrity 1-1\n",
        "from_addr": "pbm+ccc@example.org",
        "from_name": "Cosmic Celebrity Cricket",
        "in_reply_to": "<names-1@players.test>",
        "references": ("<root@players.test>",),
        "headers": {"X-Auto-Response-Suppress": "All"},
    }
    fields.update(kw)
    return OutboundEmail(**fields)  # type: ignore[arg-type]


def _both(out: OutboundEmail) -> tuple[bytes | None, bytes]:
    text = cut_reply(valid_text(out.text))
    heads = _headers(out, DATE, MID)
    return _plain_bytes(heads, text, flowed=out.flowed), _package_bytes(out, heads, text)


def test_a_typical_reply_is_written_directly_with_the_same_bytes() -> None:
    """An ASCII reply takes the direct path, and its bytes are the package's to the byte."""
    fast, package = _both(_out(text="Zoë's squad: é, ü, = signs, and a long line " * 9 + "\n"))
    assert fast is not None
    assert fast == package
    assert compose_message(_out(), date=DATE, message_id=MID).raw == _both(_out())[1]
    long_subject = _out(subject="Re: [CCC] Zoë's names, " + "and more " * 12)
    fast, package = _both(long_subject)
    assert fast is not None
    assert fast == package


def test_what_the_package_would_fold_or_encode_is_left_to_it() -> None:
    """Non-ASCII headers, long ones and odd spacing go to the package: no guessing its folds."""
    for out in (
        _out(subject="Re: [CCC] " + "long " * 20),
        _out(from_name="Zoë"),
        _out(subject="two  spaces"),
        _out(text=""),
        _out(text="a\r\nb\n"),
    ):
        fast, package = _both(out)
        assert fast is None
        assert compose_message(out, date=DATE, message_id=MID).raw == package


@settings(max_examples=300, deadline=None)
@given(subject=_words, text=_words, name=_words, header=_words, flowed=st.booleans())
def test_direct_path_matches_the_package_for_any_text(
    subject: str, text: str, name: str, header: str, flowed: bool
) -> None:
    """Whatever the subject, body, display name or extra header, flowed or not, the direct
    bytes (when it writes them) are the package's bytes, and the Subject and Message-ID it
    says it wrote are what a reader of the bytes finds."""
    out = _out(
        subject=subject, text=text, from_name=name, headers={"X-Note": header}, flowed=flowed
    )
    fast, package = _both(out)
    if fast is not None:
        assert fast == package
    composed = compose_message(out, date=DATE, message_id=MID)
    read = BytesParser(policy=SAFE_POLICY).parsebytes(composed.raw)
    assert composed.subject == str(read["Subject"])
    assert composed.message_id == str(read["Message-ID"]) == MID
    assert bool(composed.texts) == (fast is not None)
    assert (read.get_body().get_param("format") == "flowed") == flowed


def test_hostile_subjects_write_no_header_of_their_own() -> None:
    """A subject carrying CR/LF, an encoded-word hiding CR/LF, or 2,000 characters (the
    sender's words quoted back in "Re: ...") gives one Subject and no other header, on
    the direct path and the package's alike."""
    for subject in (
        "Re: hi\r\nBcc: evil@x.test",
        "Re: =?utf-8?q?=0D=0ABcc:_evil@x.test?=",
        "Re: a\nTo: evil@x.test",
        "Re: " + "x" * 2000,
    ):
        raw = compose_message(_out(subject=subject), date=DATE, message_id=MID).raw
        head = (
            raw.replace(b"\r\n", b"\n")
            .split(b"\n\n", 1)[0]
            .replace(b"\r\n ", b" ")
            .replace(b"\n ", b" ")
        )
        names = [line.split(b":", 1)[0].lower() for line in head.splitlines()]
        assert names.count(b"subject") == 1 and names.count(b"to") == 1, head
        assert b"bcc" not in names and b"evil@x.test" not in head.split(b"Subject:")[0]


@settings(max_examples=300, deadline=None)
@given(subject=_words, text=_words, html=_words, name=_words, flowed=st.booleans())
def test_a_text_with_its_html_twin_is_written_directly_with_the_packages_bytes(
    subject: str, text: str, html: str, name: str, flowed: bool
) -> None:
    """Whatever the subject, text, HTML or display name, flowed or not, a mail with its HTML
    twin (and no pictures) written directly is the package's multipart/alternative to the
    byte, and a reader finds the same two parts in it."""
    out = _out(subject=subject, text=text, html=html, from_name=name, flowed=flowed)
    body = cut_reply(valid_text(out.text))
    heads = _headers(out, DATE, MID)
    fast = _alternative_bytes(heads, body, valid_text(html), flowed=flowed)
    package = _package_bytes(out, heads, body)
    if fast is not None:
        assert fast == package
    composed = compose_message(out, date=DATE, message_id=MID)
    assert composed.raw == package
    assert bool(composed.texts) == (fast is not None)


def test_a_typical_reply_with_its_html_twin_takes_the_direct_path() -> None:
    """An acknowledgement with its HTML (ASCII headers, no pictures) is written directly: the
    fast path is not left to chance, and its parts read back as written."""
    out = _out(text="Orders in: version 3\n", html="<p>Orders in: <b>version 3</b> = ok</p>\n")
    composed = compose_message(out, date=DATE, message_id=MID)
    assert composed.texts  # written directly
    read = BytesParser(policy=SAFE_POLICY).parsebytes(composed.raw)
    assert read.get_content_type() == "multipart/alternative"
    plain, html = read.get_payload()  # type: ignore[misc]
    assert plain.get_content() == "Orders in: version 3\n"
    assert html.get_content() == "<p>Orders in: <b>version 3</b> = ok</p>\n"


def test_hostile_subjects_write_no_header_of_their_own_beside_an_html_twin() -> None:
    """The same hostile subjects and a display name carrying CR/LF, on a mail with its HTML
    twin (the direct text-and-HTML path): one Subject, one To, no Bcc, and the HTML's own
    CR/LF cannot start a header either."""
    for subject in ("Re: hi\r\nBcc: evil@x.test", "Re: =?utf-8?q?=0D=0ABcc:_evil@x.test?="):
        out = _out(
            subject=subject,
            from_name="Evil\r\nBcc: evil@x.test",
            html="<p>x</p>\r\nBcc: evil@x.test\n",
        )
        raw = compose_message(out, date=DATE, message_id=MID).raw
        head = raw.split(b"\n\n", 1)[0].replace(b"\n ", b" ")
        names = [line.split(b":", 1)[0].lower() for line in head.splitlines()]
        assert names.count(b"subject") == 1 and names.count(b"to") == 1, head
        assert b"bcc" not in names


_qp_pieces = st.sampled_from(
    ["=", " ", "\t", "\n", "\r", "\r\n", "é", "—", "\x0b", "\x85", "x" * 70, "“", "·", "\x7f"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_qp_pieces | _words, max_size=12).map("".join))
def test_the_quoted_printable_writer_gives_the_packages_bytes(text: str) -> None:
    """Quoting a body gives quoprimime's bytes for any text: line ends of every kind, blanks
    at a line's end, escapes where a long line breaks, text beyond ASCII (a few kinds of
    byte to quote, each replaced at once, or many, a run at a time)."""
    package = quoprimime.body_encode(text.encode("utf-8").decode("latin-1"))
    assert _qp(text) == package.encode("ascii")
