"""The GM's and the players' commands around a running season, by mail: the pre-run check
holds a stage and RESUME runs it, PROCESS, SEAT/STANDBY, RETIRE, REJECT, EDITORIAL, and the
players' STATUS, SQUAD, FIXTURES, TABLE, SCOUT, RULES, ZONE and HELP."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import make_config
from tests.pbm.season import MINI_TEAMS, START, Season, StoreDoor, new_competition


@pytest.fixture
def season(tmp_path: Path) -> Iterator[Season]:
    """A mini-tournament on SQLite whose four teams have joined and named their squads."""
    config = make_config(f"sqlite:///{tmp_path}/g.sqlite3", tmp_path)
    clock = FixedClock(START)
    app = App.from_config(config, clock, upgrade=True)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, "MINI")
    new_competition(
        daemon,
        clock,
        code="MINI",
        kind="mini",
        teams=4,
        settings={"naming_after_full": 600, "early": 0, "reminders": [], "hold_share": 0.5},
    )
    for address, team, prefix in MINI_TEAMS:
        s.join(address, team, prefix)
    yield s
    app.close()


def test_names_rejected_before_the_draw(season: Season) -> None:
    """REJECT returns a name to its placeholder and mails the player the GM's reason."""
    a1 = MINI_TEAMS[0][0]
    answer = season.gm("REJECT MINI 1 3 never appeared on TV or radio")
    assert "Done" in body_of(answer), body_of(answer)
    [told] = [
        m for m in season.post.sent() if "rejected" in str(m["Subject"]) and a1 in str(m["To"])
    ]
    assert "never appeared on TV or radio" in body_of(told) and "Alpha 3" in body_of(told)


def test_hold_resume_and_the_players_questions(season: Season) -> None:
    """Nobody sent a selection: the pre-run check holds the stage and alerts the GM; RESUME
    runs it. Players ask STATUS, SQUAD, FIXTURES, TABLE, SCOUT, RULES, ZONE and HELP."""
    a1, a2 = MINI_TEAMS[0][0], MINI_TEAMS[1][0]
    season.clock.advance(timedelta(minutes=10))
    season.pump()  # the draw
    season.clock.set(season.deadline())
    mail = season.pump()
    [alert] = [m for m in mail if "HELD" in str(m["Subject"])]
    assert "4 of 4 teams sent nothing" in body_of(alert)
    assert season.show()["phase"] == "held"
    answer = season.gm("RESUME MINI")
    assert "runs again" in body_of(answer)
    mail = season.pump()
    assert season.show()["turn"]["key"] == "T1"
    # the players' questions
    [status] = season.orders(a1, "STATUS")
    body = body_of(status)
    assert "Turn 1" in body and "The deadline" in body and "What pbm will play" in body
    [squad] = season.orders(a1, "SQUAD")
    assert "Alpha 18" in body_of(squad) and "field" in body_of(squad)
    [fixtures] = season.mail(a2, "FIXTURES")
    assert "Semi-final 1" in body_of(fixtures)
    [table] = season.mail(a2, "TABLE")
    assert "Pos" in body_of(table)
    [scout] = season.mail(a2, "SCOUT alpha apes")
    assert "Published XIs" in body_of(scout) and "Alpha" in body_of(scout)
    [rules] = season.mail(a2, "RULES")
    assert "helper points" in body_of(rules)
    [zone] = season.orders(a2, "ZONE Europe/Paris")
    assert "Europe/Paris" in body_of(zone)
    [status] = season.orders(a2, "STATUS")
    # The deadline in the manager's own zone, with UTC beside it.
    assert re.search(r"\d\d:\d\d CES?T \(\d\d:\d\d UTC", body_of(status)), body_of(status)
    [help_] = season.mail(a2, "HELP")
    assert "SCOUT" in body_of(help_) and "ROLLBACK" not in body_of(help_)
    [gm_help] = season.mail("gm@example.test", "SECRET gm-secret-horse-battery\nHELP")
    assert "ROLLBACK" in body_of(gm_help)


def test_process_seat_retire_and_editorial(season: Season) -> None:
    """PROCESS runs the stage now; SEAT hands a team to the standby address with a new
    secret; a retired team is no longer mailed; the editorial appears in the next report."""
    a3, a4 = MINI_TEAMS[2][0], MINI_TEAMS[3][0]
    season.clock.advance(timedelta(minutes=10))
    season.pump()
    assert "Done" in body_of(season.gm("STANDBY MINI new@example.test"))
    assert "Done" in body_of(season.gm("SEAT MINI 3 STANDBY"))
    secret_mail = [m for m in season.post.sent() if "new@example.test" in str(m["To"])]
    assert secret_mail and "YOUR SECRET" in body_of(secret_mail[-1])
    assert "Done" in body_of(season.gm("RETIRE MINI 4"))
    assert "Done" in body_of(season.gm("EDITORIAL MINI Welcome to the Flungo Cup!\nGood luck."))
    before = len(season.post.sent())
    answer = season.gm("PROCESS MINI")  # the stage runs in the same pass
    assert "runs at the next pass" in body_of(answer)
    mail = season.post.sent()[before:]
    to = {str(m["To"]) for m in mail if "(issue" in str(m["Subject"])}
    assert "new@example.test" in to and a3 not in to and a4 not in to
    [rep] = [
        m for m in mail if "new@example.test" in str(m["To"]) and "(issue" in str(m["Subject"])
    ]
    assert "Welcome to the Flungo Cup!" in body_of(rep) and "Good luck." in body_of(rep)
    with transaction(season.daemon.app.sessions) as s:
        comp = s.scalars(select(Competition)).one()
        assert comp.editorial is None and comp.issue == 1


def test_a_stage_dies_after_freezing_and_resolves_its_frozen_inputs(
    season: Season, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daemon dies between freezing a stage and resolving it: the next pass resolves the
    frozen inputs (orders sent meanwhile are not played), once, with one set of reports."""
    from pbm.games.flungo.turns import split  # where step 2 looks resolving up

    a1 = MINI_TEAMS[0][0]
    season.clock.advance(timedelta(minutes=10))
    season.pump()
    season.orders(a1, "toss: bowl")
    real = split.resolve_frozen

    def die(*args: object, **kw: object) -> object:
        raise RuntimeError("the power went out")

    monkeypatch.setattr(split, "resolve_frozen", die)
    season.clock.set(season.deadline())
    season.pump()  # held: three of four teams sent nothing
    season.gm("RESUME MINI")  # the stage is frozen, then the daemon "dies"
    assert not [m for m in season.post.sent() if "(issue" in str(m["Subject"])]
    assert season.show()["turn"]["status"] == "frozen"
    monkeypatch.setattr(split, "resolve_frozen", real)
    before = len(season.post.sent())
    season.orders(a1, "toss: bat")  # too late: the inputs are frozen; this pass resolves them
    mail = season.post.sent()[before:]
    reports = [
        m for m in mail if "(issue 1)" in str(m["Subject"]) and "Digest" not in str(m["Subject"])
    ]
    assert len(reports) == 4
    [mine] = [m for m in reports if a1 in str(m["To"])]
    assert "toss: bat" in body_of(mine)  # what pbm will play next: the new standing orders
    with transaction(season.daemon.app.sessions) as s:
        from pbm.db.models import Turn

        first = s.scalars(select(Turn).order_by(Turn.id)).first()
        assert first is not None and first.orders is not None
        assert first.orders["teams"]["Alpha Apes"] == "toss: bowl"
    assert season.pump() == []  # nothing runs twice


def test_newgame_by_mail_with_kind_and_schedule(season: Season) -> None:
    """NEWGAME takes kind= and schedule= options; a bad schedule is refused with the reason."""
    answer = season.mail(
        "gm@example.test",
        "SECRET gm-secret-horse-battery\n"
        'NEWGAME KO t20 8 2026-04-01 kind=knockout schedule="mon,thu 20:00 Europe/London" '
        "The Flungo Knockout\n",
        subject="new",
    )
    assert any("KO" in body_of(m) for m in answer)
    with transaction(season.daemon.app.sessions) as s:
        comp = s.scalars(select(Competition).where(Competition.code == "KO")).one()
        assert (comp.kind, comp.schedule, comp.name) == (
            "knockout",
            "mon,thu 20:00 Europe/London",
            "The Flungo Knockout",
        )
    [bad] = season.mail(
        "gm@example.test",
        "SECRET gm-secret-horse-battery\nNEWGAME KX t20 8 2026-04-01 schedule=funday X\n",
        subject="new",
    )
    assert "funday" in body_of(bad)


def test_rollback_with_a_new_seed_only_if_asked(season: Season) -> None:
    """ROLLBACK reopens the stage and, replayed, it gives the same dice; ROLLBACK NEWSEED
    gives the matches new seeds (new commitments)."""
    from engine.flungo.turn import TurnReport

    season.clock.advance(timedelta(minutes=10))
    season.pump()
    season.gm("PROCESS MINI")

    def commitments() -> list[str]:
        report = TurnReport.from_text(season.reports()[-1])
        return [m.seed_sha256 for m in report.matches]

    first = commitments()
    assert "open again" in body_of(season.gm("ROLLBACK MINI"))
    season.gm("PROCESS MINI")
    assert commitments() == first
    assert "new seed" in body_of(season.gm("ROLLBACK MINI NEWSEED"))
    season.gm("PROCESS MINI")
    assert commitments() != first and len(season.reports()) == 1


def test_the_gm_cli_runs_a_season(season: Season, tmp_path: Path) -> None:
    """``pbm gm run`` closes joining and draws, then runs a stage; extend, hold, resume,
    rerun and rollback work from the command line on the same database."""
    from click.testing import CliRunner

    from pbm.cli import main
    from tests.pbm.test_gm import _toml

    cfg = ["--config", str(_toml(season.daemon.app.config, tmp_path))]
    runner = CliRunner()

    def gm(*args: str) -> str:
        result = runner.invoke(main, ["gm", *args, *cfg])
        assert result.exit_code == 0, result.output
        return result.output

    assert "joining closes and the draw" in gm("run", "MINI")
    assert season.show()["phase"] == "running"
    assert "Thursday 1 January 2099, 00:00 UTC" in gm("extend", "MINI", "2099-01-01T00:00")
    assert "is held" in gm("hold", "MINI", "--reason", "a ruling")
    assert season.show()["held"] == "a ruling"
    assert "runs again" in gm("resume", "MINI")
    assert "R1-select runs now" in gm("run", "MINI")
    assert season.show()["turn"]["key"] == "T1"
    assert "identical, byte for byte" in gm("rerun", "MINI")
    assert "R1-select is open again" in gm("rollback", "MINI")
    shown = gm("show", "MINI", "--json")
    assert '"key": "R1-select"' in shown and '"phase": "running"' in shown
