"""The seed: "Prior to any matches being played, the teams are published in the zine". At the
draw every player gets the zine's teams issue (issue 0): each squad with its stats, and the
fixtures, before round 1's selection closes; the archive keeps it; issue 1 does not repeat it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import make_config
from tests.pbm.season import MINI_TEAMS, Season, StoreDoor, is_zine, new_competition


@pytest.fixture
def season(tmp_path: Path) -> Iterator[tuple[Season, list[object], Path]]:
    """A mini-tournament joined and named, with an archive; the mail of the draw's pass."""
    clock = FixedClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    archive = tmp_path / "archive"
    config = make_config(
        f"sqlite:///{tmp_path}/pbm.sqlite3",
        tmp_path,
        zine={"archive_dir": str(archive), "pdf": False},
    )
    app = App.from_config(config, clock, upgrade=True)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, "TEAMS")
    new_competition(
        daemon,
        clock,
        code="TEAMS",
        kind="mini",
        teams=4,
        settings={"naming_after_full": 600, "hold_share": 1.0},
    )
    for address, team, prefix in MINI_TEAMS:
        s.join(address, team, prefix)
    clock.advance(timedelta(hours=2))
    drawn: list[object] = list(s.pump())  # the draw
    try:
        yield s, drawn, archive
    finally:
        app.close()


def test_every_player_gets_the_teams_before_a_ball(
    season: tuple[Season, list[object], Path],
) -> None:
    """The draw's pass mails each of the four players the teams issue: every team's squad by
    name, the fixtures and round 1's selection deadline; no match has been played."""
    s, drawn, _ = season
    issues = [m for m in drawn if is_zine(m)]  # type: ignore[arg-type]
    assert sorted(str(m["To"]) for m in issues) == sorted(a for a, _, _ in MINI_TEAMS)
    for m in issues:
        assert "the teams" in str(m["Subject"])
        body = body_of(m)
        for _, team, prefix in MINI_TEAMS:
            assert team in body
            assert f"{prefix} 18" in body  # every squad member is listed
        assert "before round 1" in body
    assert s.show()["turn"]["label"] == "Round 1: selection and toss"


def test_the_archive_keeps_the_teams_as_issue_0_and_issue_1_does_not_repeat_them(
    season: tuple[Season, list[object], Path],
) -> None:
    """The archive has the teams issue as issue 0; after the first stage, issue 1 is the
    stage's, numbered 1, and lists no squads again."""
    s, _, archive = season
    zero = next(archive.rglob("issue-*-000.html"))
    text = zero.read_text()
    assert "Alpha Apes" in text and "Delta 18" in text
    s.clock.set(s.deadline())
    mail = s.pump()
    [one] = {m["Subject"] for m in mail if is_zine(m)}
    assert "issue 1" in str(one)
    page = next(archive.rglob("issue-*-001.html")).read_text()
    assert "Delta 18" not in page
