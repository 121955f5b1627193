"""A queued reply is stored scrubbed, whether its bytes were written directly or not."""

from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.db.models import OutboxMessage
from pbm.db.session import transaction
from pbm.outbound.replies import ReplyTo, queue_mail

SHAPE = "ABCD-EFGH-JKLM-NPQR"


def _queued(app: App, reason: str, subject: str = "Re: orders") -> OutboxMessage:
    with transaction(app.sessions) as s:
        queue_mail(
            s,
            app.config,
            app.clock,
            kind="refused",
            to="p@players.test",
            ctx={"reason": reason, "notes": []},
            reply_to=ReplyTo("<m1@players.test>", (), subject),
        )
    with transaction(app.sessions) as s:
        row = s.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()
        assert row is not None
        s.expunge(row)
        return row


@pytest.mark.parametrize("where", ["body", "subject"])
def test_a_secret_shape_in_a_reply_is_scrubbed_in_the_row(app: App, where: str) -> None:
    """A secret-shaped token echoed in the body or the subject never reaches the row."""
    row = _queued(
        app,
        f"you wrote {SHAPE}" if where == "body" else "no",
        f"Re: {SHAPE} orders" if where == "subject" else "Re: orders",
    )
    assert SHAPE.encode() not in row.raw
    assert SHAPE.replace("-", "").encode() not in row.raw
    assert SHAPE not in row.subject
    body = message_from_bytes(row.raw, policy=policy.default).get_body()
    assert body is not None
    text = body.get_content()
    assert SHAPE not in text
    if where == "body":
        assert "[redacted]" in text


def test_a_clean_reply_is_stored_as_composed(app: App) -> None:
    """A reply with nothing to hide keeps its text, subject and Message-ID in the row."""
    row = _queued(app, "the mail was empty", "Re: [DEMO] orders")
    read = message_from_bytes(row.raw, policy=policy.default)
    assert str(read["Message-ID"]) == row.message_id
    assert row.subject == str(read["Subject"])
    assert row.subject.startswith("Re: [DEMO] orders — ")
    body = read.get_body()
    assert body is not None
    assert "the mail was empty" in body.get_content()
