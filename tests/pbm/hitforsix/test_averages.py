"""The Averages (law 8): a week of dailies by five players on two decks, kept by replay."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, inspect, select
from sqlalchemy.orm import Session

from engine.hitforsix.code import encode
from engine.hitforsix.deal import daily_seed, deal
from engine.hitforsix.game import play_solo
from engine.hitforsix.over import Decisions
from engine.hitforsix.rules import Rule
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.db import migrate
from pbm.db.session import make_db_engine, make_session_factory
from pbm.games.hitforsix.averages import day_statements, post_daily, season_table
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck
from pbm.games.hitforsix.models import H6Averager, H6Statement
from pbm.games.hitforsix.pages import season_page, today_page
from pbm.secrets.seats import SecretBox
from tests.pbm.h6.browser import page_width
from tests.pbm.hitforsix.conftest import Draws

PLAYERS = ["Ann", "Bob", "Cat", "Dev", "Eve"]
DROPS = ["", "0", "0,1,2/11", "3,4/5", "1,2,3/11,12/13"]


def _daily_code(deck: str, day: str, drops: str, rule: Rule | None = None) -> str:
    d = deal(load_deck(deck), daily_seed(deck, day))
    return encode(play_solo(d, rule or d.rule, Decisions.from_text(drops)))


def test_a_week_of_dailies(
    session: Session, h6_clock: FixedClock, box: SecretBox, draw: Draws
) -> None:
    """Five players post seven days on t20i and odi: statements, the season's best days."""
    numbers: dict[str, str] = {}
    days = []
    for k in range(7):
        day = h6_clock.now().date().isoformat()
        days.append(day)
        for i, name in enumerate(PLAYERS):
            for deck in ("t20i", "odi"):
                if name == "Eve" and deck == "odi":
                    continue  # Eve plays one deck only
                code = _daily_code(deck, day, DROPS[(i + k) % len(DROPS)])
                out = post_daily(session, h6_clock, box, code=code, name=name,
                                 number=numbers.get(name), draw=draw)  # fmt: skip
                assert out.ok, out.note
                if out.reply.ctx["number"]:
                    numbers[name] = out.reply.ctx["number"]
        session.commit()
        h6_clock.advance(timedelta(days=1))
    assert set(numbers) == set(PLAYERS) and len(set(numbers.values())) == 5
    for day in days:
        odi = day_statements(session, day, "odi")
        assert [e.name for e in odi] and len(odi) == 4
        assert [e.tenths for e in odi] == sorted((e.tenths for e in odi), reverse=True)
        assert len(day_statements(session, day)) == 9
    season = season_table(session, "2026-12")
    assert {e.name for e in season} == set(PLAYERS) and len(season) == 5
    for e in season:
        every = [x for d in days for x in day_statements(session, d) if x.name == e.name]
        assert e.tenths == max(x.tenths for x in every)  # only the best day counts
    html = today_page(session, days[0], "odi") + season_page(session, "2026-12")
    assert "Ann" in html and "<script" not in html
    assert "http://" not in html and "https://" not in html
    # The book keeps a name and the hash of its number; nothing of anyone who never posts.
    assert session.scalar(select(func.count()).select_from(H6Averager)) == 5
    columns = {c["name"] for c in inspect(session.connection()).get_columns("h6_averagers")}
    assert columns == {"id", "name", "name_key", "number_hash"}
    assert all(numbers[a.name] not in a.number_hash for a in session.scalars(select(H6Averager)))


def test_what_the_book_refuses(
    session: Session, h6_clock: FixedClock, box: SecretBox, draw: Draws
) -> None:
    """A second statement, a taken name, another Rule, another day, a non-daily are refused."""
    day = h6_clock.now().date().isoformat()
    first = post_daily(session, h6_clock, box, code=_daily_code("t20i", day, "0"), name="Ann",
                       draw=draw)  # fmt: skip
    assert first.ok
    number = first.reply.ctx["number"]
    again = post_daily(session, h6_clock, box, code=_daily_code("t20i", day, "1"), name="Ann",
                       number=number)  # fmt: skip
    assert not again.ok and "one statement a day for each deck" in again.note
    thief = post_daily(session, h6_clock, box, code=_daily_code("odi", day, "1"), name="  ann ")
    assert not thief.ok and "first come, first served" in thief.note
    wrong = post_daily(session, h6_clock, box, code=_daily_code("odi", day, "1"), name="Ann",
                       number="000000000000")  # fmt: skip
    assert not wrong.ok
    d = deal(load_deck("odi"), daily_seed("odi", day))
    other = next(r for r in Rule if r is not d.rule)
    rerule = post_daily(session, h6_clock, box, code=_daily_code("odi", day, "", other), name="Bob")
    assert not rerule.ok and "the day's Rule is" in rerule.note
    stale = _daily_code("odi", "2026-11-20", "")
    assert "today or yesterday" in post_daily(session, h6_clock, box, code=stale, name="Bob").note
    solo = encode(play_solo(deal(load_deck("odi"), 99), Rule.WICKETS, Decisions()))
    assert not post_daily(session, h6_clock, box, code=solo, name="Bob").ok
    assert not post_daily(session, h6_clock, box, code="garbage", name="Bob").ok
    assert not post_daily(session, h6_clock, box, code=solo, name="<script>").ok
    yesterday = (h6_clock.now().date() - timedelta(days=1)).isoformat()
    late = post_daily(session, h6_clock, box, code=_daily_code("odi", yesterday, "2"),
                      name="Ann", number=number)  # fmt: skip
    assert late.ok and late.reply.ctx["day"] == yesterday
    assert session.scalar(select(func.count()).select_from(H6Averager)) == 1
    assert session.scalar(select(func.count()).select_from(H6Statement)) == 2


def test_archive_command_writes_the_pages(
    tmp_path: Path, h6_clock: FixedClock, box: SecretBox, draw: Draws
) -> None:
    """`pbm h6 archive` writes Today, a page per deck, the season and the ground, statically."""
    url = f"sqlite:///{tmp_path}/a.sqlite3"
    db_engine = make_db_engine(url)
    migrate.upgrade(db_engine)
    with make_session_factory(db_engine)() as s:
        code = _daily_code("t20i", "2026-12-01", "0")
        assert post_daily(s, h6_clock, box, code=code, name="Ann", draw=draw).ok
        s.commit()
    db_engine.dispose()
    out = tmp_path / "site"
    result = CliRunner().invoke(
        main, ["h6", "archive", "--out", str(out), "--day", "2026-12-01", "--url", url]
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert "ground.html" in names and "season-2026-12.html" in names
    assert "today-2026-12-01-t20i.html" in names and "today.html" in names
    assert "Ann" in (out / "today-2026-12-01-t20i.html").read_text()
    assert "Ann" not in (out / "today-2026-12-01-odi.html").read_text()


def test_a_name_that_looks_like_one_in_the_book_is_refused(
    session: Session, h6_clock: FixedClock, box: SecretBox, draw: Draws
) -> None:
    """ "Ann Iee" (a capital I) and "Ann Lee" read alike, as do "Barn Owl" and "Bam Owl": the
    second of each pair is refused, naming the first (issue 23); a different name is not."""
    day = h6_clock.now().date().isoformat()
    for first, second in (("Bill Lee", "BiII Lee"), ("Barn Owl", "Bam Owl")):
        ok = post_daily(session, h6_clock, box, code=_daily_code("t20i", day, "0"), name=first,
                        draw=draw)  # fmt: skip
        assert ok.ok
        alike = post_daily(session, h6_clock, box, code=_daily_code("odi", day, "1"),
                           name=second, draw=draw)  # fmt: skip
        assert not alike.ok and f"looks just like {first!r}" in alike.note
    other = post_daily(session, h6_clock, box, code=_daily_code("odi", day, "1"), name="Cat",
                       draw=draw)  # fmt: skip
    assert other.ok


@pytest.mark.parametrize("width", [390, 1280])
def test_the_averages_pages_fit_a_phone(
    tmp_path: Path, session: Session, h6_clock: FixedClock, box: SecretBox, draw: Draws, width: int
) -> None:
    """Today (all decks and one deck) and the season, with a name of the longest kind, show in
    Chromium at 390 and 1,280 px without sideways scrolling; the season page counts the
    decks there are."""
    name = "Bartholomew Fitzwilliam-Ramaswamy Jr III"[:40]
    code = _daily_code("t20i", "2026-12-01", "0")
    assert post_daily(session, h6_clock, box, code=code, name=name, draw=draw).ok
    session.commit()
    season = season_page(session, "2026-12")
    count = {4: "four", 5: "five", 6: "six", 7: "seven"}[len(DECK_NAMES)]
    assert f"{count} decks give {count} chances a day" in season
    for i, text in enumerate(
        (today_page(session, "2026-12-01"), today_page(session, "2026-12-01", "t20i"), season)
    ):
        page = tmp_path / f"page{i}.html"
        page.write_text(text, "utf-8")
        shown = page_width(page, width)
        assert shown["width"] == width and shown["scroll"] <= width, (i, shown)
