"""List headers from hostile competition names: always one header line, the id intact."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy

from hypothesis import given
from hypothesis import strategies as st

from pbm.mail.compose import OutboundEmail, compose_message
from pbm.mail.lists import list_headers, unsubscribe_address


@given(
    name=st.text(max_size=80), code=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}", fullmatch=True)
)
def test_list_id_survives_any_name(name: str, code: str) -> None:
    """Whatever the GM named the competition, the composed mail's List-Id ends in the list's
    id and List-Unsubscribe is the competition's plus-address; no header is smuggled in."""
    heads = list_headers(code, name, "pbm@example.test", "example.test")
    out = OutboundEmail(
        to="p@example.test",
        subject="s",
        text="t\n",
        from_addr="pbm@example.test",
        headers=heads,
        auto_submitted="auto-generated",
    )
    raw = compose_message(out, date=datetime(2026, 1, 1, tzinfo=UTC)).raw
    msg = message_from_bytes(raw, policy=policy.default)
    # (a long value may be folded after the colon: the leading space is the fold's)
    assert str(msg["List-Id"]).endswith(f"<{code.lower()}.example.test>")
    unsubscribe = str(msg["List-Unsubscribe"]).strip()
    assert unsubscribe == f"<mailto:pbm+{code}@example.test?subject=ZINE%20OFF>"
    assert str(msg["Auto-Submitted"]) == "auto-generated"
    names = [k.lower() for k in msg]
    assert names.count("list-id") == 1 and names.count("bcc") == 0


def test_the_unsubscribe_address_keeps_one_plus() -> None:
    """A server address with its own +tag still gives one plus-address per competition."""
    assert unsubscribe_address("pbm+mail@example.test", "DEMO") == "pbm+DEMO@example.test"
