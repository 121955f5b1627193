"""The zine after every resolved stage: one issue mailed to every player (text + HTML inline,
the PDF attached only for a team that asked), once, through the hardened composer; the archive
rebuilt."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.db.models import Competition, OutboxMessage, Player, Seat
from pbm.db.session import transaction
from pbm.games.flungo.zine.delivery import set_zine_delivery
from pbm.games.flungo.zine.source import TurnReport, store_report
from pbm.scheduler import run_due
from tests.pbm.conftest import make_config

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PLAYERS = ("ann@example.test", "bob@example.test", "cat@example.test", "dan@example.test")


def _app(tmp_path: Path, league: list[TurnReport], **zine: object) -> App:
    config = make_config(f"sqlite:///{tmp_path}/z.sqlite3", tmp_path, zine=dict(zine))
    app = App.from_config(config, FixedClock(START), upgrade=True)
    with transaction(app.sessions) as s:
        comp = Competition(
            code="LG1",
            name="LG1 League",
            format="t20",
            teams=4,
            naming_deadline=START,
            seed="x",
            created_at=START,
            status="running",  # the stored reports are its season: no draw is due
        )
        s.add(comp)
        s.flush()
        for n, (address, team) in enumerate(zip(PLAYERS, league[0].squads, strict=True), 1):
            player = Player(address=address, created_at=START)
            s.add(player)
            s.flush()
            s.add(
                Seat(
                    competition_id=comp.id,
                    player_id=player.id,
                    number=n,
                    secret_hash="",
                    team=team.to_json(),
                    joined_at=START,
                )
            )
        for report in league[:2]:
            store_report(s, "LG1", report)
    return app


def _zines(app: App) -> list[EmailMessage]:
    with transaction(app.sessions) as s:
        raws = s.scalars(
            select(OutboxMessage.raw).where(OutboxMessage.kind == "zine").order_by(OutboxMessage.id)
        )
        out = []
        for raw in raws:
            msg = message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out


def test_each_issue_goes_once_to_every_player_its_pdf_to_who_asked(
    tmp_path: Path, league: list[TurnReport]
) -> None:
    """Two resolved stages make two issues; each player gets each once, as text and HTML
    alternatives, the PDF attached only for the one who asked (ZINE ATTACH): the others' mail
    is a tenth of its weight; a second pass sends nothing more."""
    app = _app(tmp_path, league)
    try:
        with transaction(app.sessions) as s:
            assert set_zine_delivery(s, PLAYERS[0], "attach") == 1
        run_due(app.sessions, app.config, app.clock)
        mails = _zines(app)
        assert sorted(str(m["To"]) for m in mails) == sorted(PLAYERS * 2)
        for m in mails[1:4]:
            kinds = [p.get_content_type() for p in m.walk() if not p.is_multipart()]
            assert kinds == ["text/plain", "text/html"], str(m["To"])
            assert len(m.as_bytes()) * 5 < len(mails[0].as_bytes())
        first = mails[0]
        assert str(first["To"]) == PLAYERS[0]
        assert first.get_content_type() == "multipart/mixed"
        kinds = [p.get_content_type() for p in first.walk() if not p.is_multipart()]
        assert kinds == ["text/plain", "text/html", "application/pdf"]
        pdf = next(p for p in first.walk() if p.get_content_type() == "application/pdf")
        payload = pdf.get_payload(decode=True)
        assert isinstance(payload, bytes) and payload.startswith(b"%PDF")
        assert "[LG1]" in str(first["Subject"]) and "issue 1" in str(first["Subject"])
        assert "Cosmic Celebrity Cricket" in str(first["Subject"])
        run_due(app.sessions, app.config, app.clock)
        assert len(_zines(app)) == 8
    finally:
        app.close()


def test_inline_delivery_links_to_the_archive(tmp_path: Path, league: list[TurnReport]) -> None:
    """A player who gets the issue inline (the default, or ZINE LINK, its older name) gets no
    PDF but the issue's address in the archive, which is rebuilt in the configured folder
    after each issue."""
    archive = tmp_path / "site"
    app = _app(
        tmp_path, league, archive_dir=str(archive), archive_url="https://zine.example.test/lg"
    )
    try:
        with transaction(app.sessions) as s:
            set_zine_delivery(s, PLAYERS[1], "link")
        run_due(app.sessions, app.config, app.clock)
        mails = _zines(app)
        bobs = [m for m in mails if str(m["To"]) == PLAYERS[1]]
        assert len(bobs) == 2
        for m in bobs:
            kinds = [p.get_content_type() for p in m.walk() if not p.is_multipart()]
            assert kinds == ["text/plain", "text/html"]
            text = m.get_body(("plain",))
            assert text is not None and "https://zine.example.test/lg/" in text.get_content()
        assert (archive / "index.html").is_file() and (archive / "atom.xml").is_file()
        assert len(list(archive.glob("**/*.pdf"))) == 2
    finally:
        app.close()


def test_a_bouncing_or_retired_player_gets_no_issue(
    tmp_path: Path, league: list[TurnReport]
) -> None:
    """Undeliverable addresses and retired seats are skipped."""
    app = _app(tmp_path, league, pdf=False)
    try:
        with transaction(app.sessions) as s:
            ann = s.scalars(select(Player).where(Player.address == PLAYERS[0])).one()
            ann.undeliverable_at = START
            seat = s.scalars(select(Seat).where(Seat.number == 4)).one()
            seat.retired = True
        run_due(app.sessions, app.config, app.clock)
        mails = _zines(app)
        assert sorted({str(m["To"]) for m in mails}) == sorted(PLAYERS[1:3])
        assert all(p.get_content_type() != "application/pdf" for m in mails for p in m.walk())
    finally:
        app.close()


def test_a_hostile_competition_name_reaches_no_header(
    tmp_path: Path, league: list[TurnReport]
) -> None:
    """A name with CR/LF and encoded-words in it stays inside one Subject line: each issue
    mail has exactly one recipient and no header pbm did not mean."""
    from dataclasses import replace

    hostile = "Cup\r\nBcc: victim@third.test =?utf-8?q?=0D=0ACc:_v2@third.test?="
    bad = [replace(r, competition=replace(r.competition, name=hostile)) for r in league[:1]]
    app = _app(tmp_path, bad, pdf=False)
    try:
        run_due(app.sessions, app.config, app.clock)
        with transaction(app.sessions) as s:
            raws = list(s.scalars(select(OutboxMessage.raw).where(OutboxMessage.kind == "zine")))
        assert len(raws) == 4
        for raw in raws:
            head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
            names = [
                ln.split(b":", 1)[0].lower() for ln in head.splitlines() if ln[:1] not in b" \t"
            ]
            assert b"bcc" not in names and b"cc" not in names
            assert names.count(b"to") == 1 and names.count(b"subject") == 1
            msg = message_from_bytes(raw, policy=policy.default)
            assert "\n" not in str(msg["Subject"]) and "\r" not in str(msg["Subject"])
            assert "victim@third.test" not in str(msg["To"])
    finally:
        app.close()
