"""The zine by mail: text and HTML alternatives with the PDF attached, or a link instead,
by each player's choice kept in the database."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path

from click.testing import CliRunner

from pbm.cli import main
from pbm.db import migrate
from pbm.db.models import Competition, Player, Seat
from pbm.db.session import make_db_engine, make_session_factory, transaction
from pbm.zine.mail import issue_mail_parts, recipients, zine_message
from pbm.zine.model import build_issue
from pbm.zine.source import TurnReport


def test_mail_parts_are_text_html_pdf(league: list[TurnReport]) -> None:
    """issue_mail_parts gives the text, the HTML and the PDF of one issue; without an archive
    URL the HTML has no links (a mail cannot follow the archive's relative ones)."""
    issue = build_issue(league[4], league[:4], code="LG1")
    text, html, pdf = issue_mail_parts(issue)
    assert issue.masthead in text and "<html" in html and pdf.startswith(b"%PDF")
    assert "<a " not in html
    _, linked, _ = issue_mail_parts(issue, "https://zine.example.org/")
    assert f'href="https://zine.example.org/{issue.href.replace(".html", ".pdf")}"' in linked


def test_attach_is_alternative_text_html_with_the_pdf(league: list[TurnReport]) -> None:
    """'attach': multipart/mixed of a text/HTML multipart/alternative and the PDF."""
    issue = build_issue(league[4], league[:4], code="LG1")
    msg = zine_message(issue, to="p@example.org", sender="gm@example.org")
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert parsed.get_content_type() == "multipart/mixed"
    alt, pdf = parsed.iter_parts()
    assert alt.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in alt.iter_parts()] == ["text/plain", "text/html"]
    assert pdf.get_content_type() == "application/pdf"
    assert pdf.get_filename() == issue.pdf_href
    assert pdf.get_content().startswith(b"%PDF")
    assert parsed["Subject"] == issue.title


def test_link_has_no_attachment_and_points_at_the_archive(league: list[TurnReport]) -> None:
    """'link': text and HTML only, each naming the issue's address in the archive."""
    issue = build_issue(league[4], league[:4], code="LG1")
    msg = zine_message(
        issue,
        to="p@example.org",
        sender="gm@example.org",
        delivery="link",
        archive_url="https://zine.example.org/flungo",
    )
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert parsed.get_content_type() == "multipart/alternative"
    text, html = (p.get_content() for p in parsed.iter_parts())
    url = f"https://zine.example.org/flungo/{issue.href}"
    assert url in text and url in html


def test_delivery_choice_is_kept_per_player(tmp_path: Path) -> None:
    """pbm zine delivery sets a player's choice (attach by default); recipients lists each
    seat's address with it; an unknown address or choice is refused."""
    url = f"sqlite:///{tmp_path}/mail.sqlite3"
    engine = make_db_engine(url)
    migrate.upgrade(engine)
    now = datetime(2026, 12, 1, tzinfo=UTC)
    with transaction(make_session_factory(engine)) as s:
        comp = Competition(
            code="LG1",
            name="LG1",
            format="t20",
            teams=2,
            naming_deadline=now,
            seed="x",
            created_at=now,
        )
        s.add(comp)
        for n, addr in enumerate(("a@example.org", "b@example.org"), 1):
            p = Player(address=addr, created_at=now)
            s.add(p)
            s.flush()
            s.add(
                Seat(
                    competition=comp,
                    player_id=p.id,
                    number=n,
                    secret_hash="h",
                    team={},
                    joined_at=now,
                )
            )
    runner = CliRunner()
    res = runner.invoke(main, ["zine", "delivery", "b@example.org", "link", "--url", url])
    assert res.exit_code == 0, res.output
    with transaction(make_session_factory(engine)) as s:
        assert recipients(s, "LG1") == [("a@example.org", "attach"), ("b@example.org", "link")]
    res = runner.invoke(main, ["zine", "delivery", "nobody@example.org", "link", "--url", url])
    assert res.exit_code != 0 and "no player" in res.output
    res = runner.invoke(main, ["zine", "delivery", "a@example.org", "fax", "--url", url])
    assert res.exit_code != 0
    engine.dispose()
