"""Outbound mail: threading, automatic marking, determinism and header-injection safety."""

from __future__ import annotations

import email
from dataclasses import replace
from datetime import UTC, datetime
from email import policy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.core.errors import MailError
from pbm.mail.compose import (
    OutboundEmail,
    compose,
    make_message_id,
    references_for,
    reply_subject,
)
from pbm.mail.parse import parse_message

DATE = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _out(**kw: object) -> OutboundEmail:
    fields: dict[str, object] = {
        "to": "bob@example.com",
        "subject": "Re: [CCC] Welcome",
        "text": "Welcome, Zoë.\n",
        "from_addr": "pbm+ccc@example.org",
        "from_name": "Cosmic Celebrity Cricket",
    }
    fields.update(kw)
    return OutboundEmail(**fields)  # type: ignore[arg-type]


def test_reply_threads_under_parent() -> None:
    """In-Reply-To is the parent and References is the parent's references plus the parent."""
    msg = compose(
        _out(in_reply_to="<p2@x>", references=("<p0@x>", "<p1@x>")), date=DATE, message_id="<m@y>"
    )
    assert msg["In-Reply-To"] == "<p2@x>"
    assert msg["References"] == "<p0@x> <p1@x> <p2@x>"
    assert msg["Message-ID"] == "<m@y>"


def test_references_are_trimmed_keeping_the_root() -> None:
    """A long thread keeps its root and the nine most recent ids."""
    refs = tuple(f"<r{i}@x>" for i in range(20))
    trimmed = references_for("<parent@x>", refs)
    assert len(trimmed) == 10
    assert trimmed[0] == "<r0@x>"
    assert trimmed[-1] == "<parent@x>"


def test_marked_auto_replied_and_dated() -> None:
    """An outbound mail says Auto-Submitted: auto-replied (an answer) unless it is pbm's own
    (auto-generated); no other value goes out. It carries the given date."""
    msg = compose(_out(), date=DATE)
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Date"] == "Mon, 30 Nov 2026 09:00:00 +0000"
    own = compose(replace(_out(), auto_submitted="auto-generated"), date=DATE)
    assert own["Auto-Submitted"] == "auto-generated"
    with pytest.raises(MailError, match="Auto-Submitted"):
        compose(replace(_out(), auto_submitted="no"), date=DATE)


def test_naive_date_refused() -> None:
    """A naive datetime is a programming error, not silently local time."""
    with pytest.raises(ValueError, match="aware"):
        compose(_out(), date=datetime(2026, 11, 30))


def test_generated_message_id_uses_sender_domain() -> None:
    """Without an id one is generated in the sender's domain."""
    assert str(compose(_out(), date=DATE)["Message-ID"]).endswith("@example.org>")


def test_seeded_message_id_is_deterministic() -> None:
    """The same seed gives the same Message-ID; different seeds differ."""
    a = make_message_id("example.org", seed="outbox:1")
    assert a == make_message_id("example.org", seed="outbox:1")
    assert a != make_message_id("example.org", seed="outbox:2")
    assert a.startswith("<") and a.endswith("@example.org>")


def test_same_input_gives_same_bytes() -> None:
    """Composing twice with a fixed id yields identical bytes, HTML alternative included."""
    out = _out(html="<p>Welcome</p>")
    one = compose(out, date=DATE, message_id="<m@y>").as_bytes()
    assert one == compose(out, date=DATE, message_id="<m@y>").as_bytes()


def test_text_and_html_alternative_round_trip() -> None:
    """The text part is UTF-8 plain text, with the HTML as an alternative, both readable back."""
    msg = compose(_out(html="<p>Welcome, Zoë.</p>"), date=DATE)
    assert msg.get_content_type() == "multipart/alternative"
    back = parse_message(msg.as_bytes())
    assert back.body == "Welcome, Zoë."
    assert back.auto_reason == "Auto-Submitted: auto-replied"


def test_bcc_cannot_be_injected_through_a_team_name() -> None:
    """A team name with CR/LF in the subject stays inside the Subject header."""
    team = "Rovers\r\nBcc: victim@example.com\r\n\r\nInjected body"
    msg = compose(_out(subject=reply_subject(f"[CCC] Team {team}")), date=DATE)
    parsed = email.message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert parsed["Bcc"] is None
    assert "victim@example.com" in str(parsed["Subject"])
    assert parsed.get_content() == "Welcome, Zoë.\n"


@given(st.text())
def test_no_header_injection_from_any_text(name: str) -> None:
    """Whatever a player names their team, the header set of the mail is unchanged."""
    msg = compose(_out(subject=f"Team {name}", from_name=name, headers={"X-Team": name}), date=DATE)
    parsed = email.message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert sorted(k.lower() for k in parsed) == sorted(k.lower() for k in msg)
    assert parsed["Bcc"] is None and parsed["Cc"] is None


@pytest.mark.parametrize("addr", ["", "a b@example.com", "a@example.com\r\nBcc: x@y", "<a@b>"])
def test_bad_recipient_refused(addr: str) -> None:
    """An unusable recipient raises MailError rather than producing a broken header."""
    with pytest.raises(MailError):
        compose(_out(to=addr), date=DATE)


@pytest.mark.parametrize("name", ["Bcc", "To", "X Bad", "X:Y"])
def test_bad_extra_header_refused(name: str) -> None:
    """Extra headers cannot override addressing or use invalid names."""
    with pytest.raises(MailError):
        compose(_out(headers={name: "v"}), date=DATE)


@pytest.mark.parametrize(
    ("subject", "tag", "expected"),
    [
        ("[CCC] Welcome", None, "Re: [CCC] Welcome"),
        ("Re: [CCC] Welcome", None, "Re: [CCC] Welcome"),
        ("RE: Re: AW: [CCC] Welcome", None, "Re: [CCC] Welcome"),
        ("[CCC] Re: Welcome", None, "Re: [CCC] Welcome"),
        ("Fwd: orders", "CCC", "Re: [CCC] orders"),
        ("orders", "CCC", "Re: [CCC] orders"),
        ("Re: [ccc] orders", "CCC", "Re: [ccc] orders"),
        ("[XYZ] orders", "CCC", "Re: [CCC] [XYZ] orders"),
        ("", None, "Re:"),
        ("Team A\r\nBcc: x@y", None, "Re: Team A Bcc: x@y"),
    ],
)
def test_reply_subject(subject: str, tag: str | None, expected: str) -> None:
    """Re: appears once, the game tag is kept or added, control characters go."""
    assert reply_subject(subject, tag=tag) == expected
