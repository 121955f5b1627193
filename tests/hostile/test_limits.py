"""The per-mail bounds that need no door to show: the reply size cap and the MIME count."""

from __future__ import annotations

from datetime import UTC, datetime

from pbm.mail.compose import OutboundEmail, compose
from pbm.mail.limits import MAX_REPLY_CHARS, count_multiparts, screen


def test_a_huge_reply_is_cut_with_a_note() -> None:
    """A reply text of 500,000 characters goes out cut to the cap, saying how much was left."""
    text = "".join(f"line {i} of an enormous echo\n" for i in range(20_000))
    out = OutboundEmail(to="p@example.test", subject="s", text=text, from_addr="pbm@example.test")
    msg = compose(out, date=datetime(2026, 1, 1, tzinfo=UTC))
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    shown = body.get_content()
    assert len(shown) < MAX_REPLY_CHARS + 500
    assert "pbm cut this reply here" in shown and "more were left out" in shown


def test_screen_counts_folded_multipart_headers() -> None:
    """A Content-Type folded onto a second line still counts towards the MIME bound."""
    raw = b'Content-Type:\r\n multipart/mixed; boundary="a"\r\n\r\n' * 41
    assert count_multiparts(raw) == 41
    refused = screen(raw, "JOIN\n", "p@example.test")
    assert refused is not None and refused.answer is not None and "41" in refused.answer
    assert screen(b"", "JOIN\n", "p@example.test") is None


def test_scrub_hides_secret_shapes_but_not_parts_of_longer_codes() -> None:
    """A seat secret in any case, dashed or not, is hidden; a 32-character base64url code
    that happens to hold 16 secret-alphabet symbols between '_' and '-' is left whole."""
    from pbm.secrets.scrub import scrub_bytes, scrub_text

    code = "x_ABCDEFGH23456789-yzQQ"
    text = f"play {code}; secret abcd-efgh-jklm-npqr or ABCDEFGHJKLMNPQR."
    assert scrub_text(text, lines=False) == f"play {code}; secret [redacted] or [redacted]."
    assert code.encode() in scrub_bytes(text.encode(), lines=False)
