"""The zine by mail: each player's choice of delivery, and the message of an issue.

A player's ``zine_delivery`` (column on ``players``) is ``attach`` (the default: the issue as
``multipart/alternative`` text + HTML, with the PDF attached) or ``link`` (the same text and
HTML, no attachment, with a link to the issue in the archive). The lead wires
:func:`zine_message` into the turn pipeline and a mail command onto
:func:`set_zine_delivery`; ``pbm zine delivery ADDRESS attach|link`` sets it by hand.
"""

from __future__ import annotations

from email.message import EmailMessage

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.db.models import Competition, Player, Seat
from pbm.zine.model import Issue
from pbm.zine.render import issue_html, issue_mail_parts, issue_text

__all__ = [
    "DELIVERIES",
    "issue_mail_parts",
    "link_parts",
    "recipients",
    "set_zine_delivery",
    "zine_message",
]

DELIVERIES = ("attach", "link")


def set_zine_delivery(session: Session, address: str, delivery: str) -> None:
    """Record how ``address`` wants the zine (``attach`` or ``link``); ``ValueError`` for
    anything else or an unknown address."""
    if delivery not in DELIVERIES:
        raise ValueError(f"zine delivery is 'attach' or 'link', not {delivery!r}")
    player = session.scalars(select(Player).where(Player.address == address.lower())).first()
    if player is None:
        player = session.scalars(select(Player).where(Player.address == address)).first()
    if player is None:
        raise ValueError(f"no player with address {address!r}")
    player.zine_delivery = delivery


def recipients(session: Session, code: str) -> list[tuple[str, str]]:
    """``(address, delivery)`` of every player in competition ``code``, by seat."""
    rows = session.execute(
        select(Player.address, Player.zine_delivery)
        .join(Seat, Seat.player_id == Player.id)
        .join(Competition, Competition.id == Seat.competition_id)
        .where(Competition.code == code)
        .order_by(Seat.number)
    ).all()
    return [(a, d) for a, d in rows]


def link_parts(issue: Issue, archive_url: str) -> tuple[str, str]:
    """Text and HTML of the issue for a player who chose ``link``: the whole issue, plus a
    line pointing at its page (and PDF) in the archive."""
    url = archive_url.rstrip("/") + "/"
    where = f"This issue online: {url}{issue.href} (PDF: {url}{issue.pdf_href})\n\n"
    return where + issue_text(issue), issue_html(issue, url)


def zine_message(
    issue: Issue, *, to: str, sender: str, delivery: str = "attach", archive_url: str | None = None
) -> EmailMessage:
    """The mail of ``issue`` for one player: multipart/alternative (text, HTML), with the PDF
    attached for ``attach``, or a link to the archive for ``link`` (needs ``archive_url``)."""
    msg = EmailMessage()
    msg["To"] = to
    msg["From"] = sender
    msg["Subject"] = issue.title
    if delivery == "link" and archive_url:
        text, html = link_parts(issue, archive_url)
        msg.set_content(text)
        msg.add_alternative(html, subtype="html")
        return msg
    text, html, pdf = issue_mail_parts(issue, archive_url)
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    msg.add_attachment(
        pdf, maintype="application", subtype="pdf", filename=issue.pdf_href.rsplit("/", 1)[-1]
    )
    return msg
