"""The zine after every turn: each resolved stage's issue, mailed to every player and archived.

A resolved stage (a ``turns`` row, ``done``, with its issue number) makes one issue. The
scheduler runs :func:`send_issue` once per issue (job key ``zine:<code>:<issue>``) in its own
transaction, after the turn's own transaction: rendering an issue (and its PDF) is the heavy
part of a turn, and a turn's reports must not wait for it.

Each player gets the issue inline, as ``multipart/alternative`` (the 80-column text and the
HTML), with a link to the issue and its PDF in the archive when ``[zine] archive_url`` is set;
the PDF is attached only for a team whose manager asked for it (``ZINE ATTACH``,
``seats.zine_pdf``), so a turn's mail is not the PDF's weight by default. The message goes
through the same composer and into the outbox by the same function as every reply
(:func:`pbm.outbound.replies.enqueue`), so nothing a player named reaches a header
unneutralised and every row is stored the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

import structlog
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.db.models import Competition, Player, Seat, Turn, TurnStatus
from pbm.games.flungo.zine.model import Issue, build_issue
from pbm.games.flungo.zine.render import issue_html, issue_pdf, issue_text
from pbm.games.flungo.zine.source import TurnReport, competition_codes, teams_report
from pbm.mail.compose import Attachment, OutboundEmail, compose_message, make_message_id
from pbm.mail.lists import GENERATED
from pbm.outbound.replies import competition_list_headers, enqueue

__all__ = ["due_issues", "numbered_reports", "rebuild_archive", "send_issue", "zine_key"]

log = structlog.get_logger("pbm.games.flungo.zine")


def zine_key(code: str, number: int) -> str:
    """The scheduler's key for mailing issue ``number`` of ``code`` (once)."""
    return f"zine:{code}:{number}"


def numbered_reports(session: Session, code: str) -> list[tuple[int, TurnReport]]:
    """``(issue number, report)`` of every resolved stage of ``code``, in issue order."""
    rows = session.execute(
        select(Turn.issue, Turn.report)
        .join(Competition, Competition.id == Turn.competition_id)
        .where(
            Competition.code == code,
            Turn.status == TurnStatus.DONE,
            Turn.report.is_not(None),
            Turn.issue.is_not(None),
        )
        .order_by(Turn.issue, Turn.position)
    ).all()
    first = teams_report(session.scalar(select(Competition.state).where(Competition.code == code)))
    return [
        *([(0, first)] if first else []),
        *((n, TurnReport.from_text(r)) for n, r in rows if r and n is not None),
    ]


def due_issues(session: Session, done: set[str]) -> list[tuple[str, int]]:
    """``(code, issue)`` of every resolved stage whose issue has not been mailed yet."""
    rows = session.execute(
        select(Competition.code, Turn.issue)
        .join(Turn, Turn.competition_id == Competition.id)
        .where(Turn.status == TurnStatus.DONE, Turn.issue.is_not(None))
        .order_by(Turn.resolved_at, Turn.issue)
    ).all()
    return [(c, n) for c, n in rows if n is not None and zine_key(c, n) not in done]


def _issue(session: Session, code: str, number: int) -> Issue | None:
    reports = numbered_reports(session, code)
    for k, (n, report) in enumerate(reports):
        if n == number:
            history = [r for _, r in reports[:k]]
            return build_issue(report, history, code=code, number=number)
    return None


def _name(session: Session, code: str) -> str:
    return session.scalar(select(Competition.name).where(Competition.code == code)) or code


def _recipients(session: Session, code: str) -> Sequence[tuple[str, bool]]:
    """``(address, PDF attached)`` of every team to mail the issue to."""
    # A team whose manager sent ZINE OFF (Seat.zine) is left out: of the zine only.
    rows = session.execute(
        select(Player.address, Seat.zine_pdf, Player.undeliverable_at, Seat.retired)
        .join(Seat, Seat.player_id == Player.id)
        .join(Competition, Competition.id == Seat.competition_id)
        .where(Competition.code == code, Seat.zine.is_(True))
        .order_by(Seat.number)
    ).all()
    return [(a, bool(pdf)) for a, pdf, bounced, retired in rows if bounced is None and not retired]


def send_issue(session: Session, config: Config, clock: Clock, code: str, number: int) -> int:
    """Queue issue ``number`` of ``code`` to every player (not retired, not bouncing, not
    unsubscribed), then
    rebuild the archive if one is configured. Returns how many mails were queued."""
    issue = _issue(session, code, number)
    if issue is None:
        return 0
    zc = config.zine
    url = zc.archive_url.rstrip("/") + "/" if zc.archive_url else None
    text = issue_text(issue)
    html = issue_html(issue, url)
    recipients = _recipients(session, code) if zc.mail else ()
    # The PDF is made only if a team will get it: it is the heavy part of an issue.
    pdf = (
        Attachment(issue.pdf_href.rsplit("/", 1)[-1], "application", "pdf", issue_pdf(issue))
        if zc.pdf and any(wants for _, wants in recipients)
        else None
    )
    linked = f"This issue online: {url}{issue.href} (PDF: {url}{issue.pdf_href})\n\n" if url else ""
    queued = 0
    now = clock.now()
    domain = config.server.message_id_domain
    listed = competition_list_headers(config, code, _name(session, code))
    for address, wants_pdf in recipients:
        attached = wants_pdf and pdf is not None
        link = not attached and url is not None
        out = OutboundEmail(
            to=address,
            subject=f"[{code}] {issue.title}",
            text=(linked + text) if link else text,
            html=html,
            from_addr=config.server.address,
            from_name=config.server.display_name,
            headers={"X-Auto-Response-Suppress": "All", **listed},
            attachments=(pdf,) if attached and pdf is not None else (),
            cut=False,
            auto_submitted=GENERATED,
        )
        composed = compose_message(
            out,
            date=now,
            message_id=make_message_id(domain, seed=f"{zine_key(code, number)}:{address}"),
        )
        enqueue(session, clock, composed, kind="zine", to=address)
        queued += 1
    if zc.archive_dir is not None:
        rebuild_archive(session, config)
    log.info("zine.issue", code=code, issue=number, mails=queued)
    return queued


def rebuild_archive(session: Session, config: Config) -> int:
    """Rebuild the configured archive from every competition's reports; returns the issues."""
    from pbm.games.flungo.zine.archive import build_archive
    from pbm.games.flungo.zine.source import load_reports

    assert config.zine.archive_dir is not None
    seasons = [(c, load_reports(session, c)) for c in competition_codes(session)]
    result = build_archive(seasons, config.zine.archive_dir, pdf=config.zine.pdf, jobs=1)
    return len(result.issues)
