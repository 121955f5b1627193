"""The zine by mail: each player's choice of delivery kept in the database, and the HTML a
mail carries (its mail structure is in ``test_delivery``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from pbm.cli import main
from pbm.db import migrate
from pbm.db.models import Competition, Player, Seat
from pbm.db.session import make_db_engine, make_session_factory, transaction
from pbm.games.flungo.zine.model import build_issue
from pbm.games.flungo.zine.render import issue_html, issue_text
from pbm.games.flungo.zine.source import TurnReport


def test_the_mail_html_has_no_relative_links(league: list[TurnReport]) -> None:
    """Without an archive URL the issue's HTML has no links (a mail cannot follow the
    archive's relative ones); with one, they point into the archive."""
    issue = build_issue(league[4], league[:4], code="LG1")
    assert issue.masthead in issue_text(issue) and "<a " not in issue_html(issue, None)
    linked = issue_html(issue, "https://zine.example.org/")
    assert f'href="https://zine.example.org/{issue.href.replace(".html", ".pdf")}"' in linked


def test_delivery_choice_is_kept_per_player(tmp_path: Path) -> None:
    """pbm zine delivery sets a player's choice for each team (inline by default, the PDF
    attached when asked); an unknown address or choice is refused."""
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
    res = runner.invoke(main, ["zine", "delivery", "b@example.org", "attach", "--url", url])
    assert res.exit_code == 0, res.output
    with transaction(make_session_factory(engine)) as s:
        chosen = s.execute(
            select(Player.address, Seat.zine_pdf).join(Seat.player).order_by(Player.id)
        )
        assert list(chosen) == [("a@example.org", False), ("b@example.org", True)]
    res = runner.invoke(main, ["zine", "delivery", "nobody@example.org", "link", "--url", url])
    assert res.exit_code != 0 and "no player" in res.output
    res = runner.invoke(main, ["zine", "delivery", "a@example.org", "fax", "--url", url])
    assert res.exit_code != 0
    engine.dispose()
