"""A mail kind with ``body.html`` goes as text and HTML twins, pictures beside the HTML."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.core.errors import MailError
from pbm.db.models import OutboxMessage
from pbm.db.session import transaction
from pbm.mail.compose import Attachment, OutboundEmail, compose_message
from pbm.outbound.render import email_kinds, has_html, render_email
from pbm.outbound.replies import queue_mail

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
SERVER = SimpleNamespace(display_name="Cosmic Celebrity Cricket", address="pbm@example.test")


def _last(app: App) -> EmailMessage:
    with transaction(app.sessions) as s:
        row = s.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()
        assert row is not None
        msg = message_from_bytes(row.raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def _queue(
    app: App, kind: str, ctx: dict[str, object], images: tuple[Attachment, ...] = ()
) -> None:
    with transaction(app.sessions) as s:
        queue_mail(s, app.config, app.clock, kind=kind, to="p@players.test", ctx=ctx, images=images)


def test_the_html_twin_is_rendered_from_the_same_context_with_styles_inline() -> None:
    """The HTML part says what the text says, escapes the sender's words, carries its styles
    on the elements, and fetches or runs nothing."""
    r = render_email(
        "refused", {"server": SERVER, "reason": "<script>x</script> & co", "notes": []}
    )
    assert r.html is not None
    assert "&lt;script&gt;x&lt;/script&gt; &amp; co" in r.html
    assert "<script" not in r.html.lower()
    assert 'style="' in r.html and "<p style=" in r.html
    for external in ("http://", "https://", "<link", "@import", "url("):
        assert external not in r.html
    assert "Nothing was changed." in r.text and "Nothing was changed." in r.html


def test_a_kind_with_an_html_twin_is_queued_as_alternative_text_first(app: App) -> None:
    """The outbox holds multipart/alternative: the flowed text part, then the HTML."""
    _queue(app, "refused", {"reason": "the mail was empty", "notes": []})
    msg = _last(app)
    assert msg.get_content_type() == "multipart/alternative"
    parts = list(msg.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    assert parts[0].get_param("format") == "flowed"
    assert "the mail was empty" in parts[1].get_content()


def test_inline_images_travel_as_related_parts_the_html_names(app: App) -> None:
    """Pictures go in multipart/related beside the HTML, each with the Content-ID its
    ``cid:`` reference names, shown inline, not as attachments."""
    assert has_html("refused")
    image = Attachment("card 1.png", "image", "png", PNG, cid="card-1")
    _queue(app, "refused", {"reason": "see the card", "notes": []}, (image,))
    msg = _last(app)
    plain, related = msg.iter_parts()
    assert plain.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html, png = related.iter_parts()
    assert html.get_content_type() == "text/html"
    assert png.get_content_type() == "image/png"
    assert png["Content-ID"] == "<card-1>"
    assert png.get_content_disposition() == "inline"
    assert png.get_filename() == "card-1.png"
    assert png.get_content() == PNG


def test_every_kind_of_cosmic_celebrity_cricket_and_pbm_has_an_html_twin() -> None:
    """Every mail kind has body.html (Hit for Six's kinds are built on the same frame)."""
    missing = [k for k in email_kinds() if not k.startswith("h6-") and not has_html(k)]
    assert missing == []


@pytest.mark.parametrize("cid", ["a b", "<x>", "x\r\nBcc: y", ""])
def test_an_unusable_content_id_is_refused(cid: str) -> None:
    """A Content-ID that could carry a header or a URL is refused where the header is
    written (an empty one makes the picture an attachment, so ``-`` stands for it)."""
    out = OutboundEmail(
        to="p@players.test",
        subject="s",
        text="t",
        from_addr="pbm@example.test",
        html="<p>x</p>",
        inline=(Attachment("x.png", "image", "png", PNG, cid=cid or "-"),),
    )
    with pytest.raises(MailError):
        compose_message(out, date=datetime(2026, 1, 1, tzinfo=UTC))
