"""House rules reach a competition: ``pbm gm new --set`` and NEWGAME set them, the engine's
every match plays them, and the RULES mail states them. A tied Hundred knockout played by
the season machinery goes to two Super Fives, then the higher place in the draw."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from engine.flungo.turn import SeasonState, TurnReport
from pbm.app import App
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.core.config import Config
from pbm.daemon import Daemon
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import GM, GM_SECRET, make_config
from tests.pbm.helpers import say
from tests.pbm.season import START, Season, StoreDoor
from tests.pbm.test_gm import _toml

#: A season seed whose Hundred final between these two sides ties, and ties two Super Fives
#: (found by playing the fixture's match on seeds tie-0, tie-1, ...; a third Super Five
#: would have settled it).
TIED = "tie-9319"
SIDES = [("h1@example.test", "Alpha Apes", "Alpha"), ("h2@example.test", "Beta Bats", "Beta")]


@pytest.fixture
def hundred(tmp_path: Path) -> Iterator[Season]:
    """A two-team Hundred knockout with the house rule on its ties, its two managers joined
    and named."""
    config = make_config(f"sqlite:///{tmp_path}/h.sqlite3", tmp_path)
    clock = FixedClock(START)
    app = App.from_config(config, clock, upgrade=True)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    season = Season(daemon, StoreDoor(daemon, sender), clock, "HUND")
    with transaction(app.sessions) as s:
        create_competition(
            s,
            clock,
            code="HUND",
            name="HUND Cup",
            fmt="hundred",
            teams=2,
            naming_deadline=clock.now() + timedelta(days=2),
            seed=TIED,
            kind="knockout",
            schedule="every 1h",
            settings={
                "naming_after_full": 600,
                "hold_share": 1.0,
                "reminders": [],
                "hundred_tiebreak": True,
            },
        )
    for address, team, prefix in SIDES:
        season.join(address, team, prefix)
    yield season
    app.close()


def test_a_tied_hundred_final_goes_to_the_higher_place(hundred: Season) -> None:
    """Played stage by stage on the defaults, the tied final goes to a Super Five, a second,
    and then to the higher place in the draw; the report says so."""
    hundred.clock.advance(timedelta(minutes=10))
    hundred.pump()  # the draw
    everyone = [a for a, _, _ in SIDES]
    while hundred.show()["turn"] is not None:
        mail = hundred.play_stage(everyone)
    final = hundred.show()
    [fixture] = final["fixtures"]
    assert fixture["result"]["text"].endswith("won on the higher place"), fixture["result"]
    [report] = [m for m in mail if "h1@" in str(m["To"]) and "(issue" in str(m["Subject"])]
    assert "won on the higher place" in body_of(report)
    stored = TurnReport.from_text(hundred.reports()[-1])
    [match] = stored.matches
    state = match.state
    assert len(state.innings) == 6  # the match and two Super Fives, no third
    seeds = stored.competition.teams
    assert state.result is not None and state.result.winner == seeds[0]
    with transaction(hundred.daemon.app.sessions) as s:
        comp = s.scalars(select(Competition)).one()
        season = SeasonState.from_text(comp.season or "")
        assert season.competition.hundred_tiebreak and not season.competition.no_consecutive_overs


def test_rules_mail_states_the_house_rules(hundred: Season) -> None:
    """The RULES mail of a competition with The Hundred's tie-break says how a tie is
    settled, and lists the house rules."""
    [rules] = hundred.mail("h1@example.test", "RULES\n", subject="[HUND] rules")
    words = " ".join(body_of(rules).split())
    assert "nor more than two overs in succession (two running, never three)" in words, words
    assert "a tied Super Five to a second" in words and "higher place in the draw" in words
    assert "House rules of HUND Cup" in words


def test_rules_mail_without_house_rules_says_never_three(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Without the house rule the RULES mail gives the seed's limit: two overs in
    succession, never three (it said "two in a row" was forbidden)."""
    [rules] = say(daemon, sender, "RULES\n", subject="[DEMO] rules")
    words = " ".join(body_of(rules).split())
    assert "nor more than two overs in succession (two running, never three)" in words
    assert "nor two in a row" not in words and "House rules" not in words
    assert "A knockout tie goes to a Super Over" in words


def test_newgame_by_mail_sets_house_rules_and_policy(
    daemon: Daemon, sender: RecordingSender
) -> None:
    """NEWGAME takes KEY=VALUE settings before the name: the house rules and nmr_limit are
    stored, the reply lists the house rules and the RULES mail states them; one the format
    cannot play is refused."""
    body = (
        f"SECRET {GM_SECRET}\nNEWGAME HUN hundred 4 2026-02-01 kind=knockout "
        "hundred_tiebreak=yes no_consecutive_overs=on nmr_limit=3 The Flungo Hundred\n"
    )
    [reply] = say(daemon, sender, body, frm=GM, subject="new game")
    words = " ".join(body_of(reply).split())
    assert "Competition HUN created" in str(reply["Subject"]), words
    assert "House rules:" in words and "higher place in the draw wins" in words
    with transaction(daemon.app.sessions) as s:
        comp = s.scalars(select(Competition)).one()
        assert comp.name == "The Flungo Hundred"
        assert comp.settings == {
            "hundred_tiebreak": True,
            "no_consecutive_overs": True,
            "nmr_limit": 3,
        }
    [rules] = say(daemon, sender, "RULES\n", subject="[HUN] rules")
    words = " ".join(body_of(rules).split())
    assert "nor two overs running (this competition's house rule)" in words, words
    assert "(two running, never three)" not in words
    body = f"SECRET {GM_SECRET}\nNEWGAME TTT t20 4 2026-02-01 hundred_tiebreak=yes T Cup\n"
    [refused] = say(daemon, sender, body, frm=GM, subject="new game")
    assert "NOT created" in str(refused["Subject"])
    assert "hundred_tiebreak is a rule of The Hundred" in body_of(refused)


def test_cli_gm_new_set_takes_house_rules(daemon: Daemon, config: Config, tmp_path: Path) -> None:
    """``pbm gm new --set no_consecutive_overs=yes --set nmr_limit=2`` stores them; a key it
    does not know is refused with the keys it does."""
    path = str(_toml(config, tmp_path))
    args = ["gm", "new", "--config", path, "--name", "X", "--teams", "4"]
    args += ["--naming-deadline", "2030-01-01"]
    r = CliRunner().invoke(
        main,
        [*args, "--code", "SET", "--set", "no_consecutive_overs=yes", "--set", "nmr_limit=2"],
    )
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, [*args, "--code", "BAD", "--set", "super_overs=9"])
    assert r.exit_code == os.EX_USAGE and "no_consecutive_overs" in r.output, r.output
    app = App.from_config(config)
    try:
        with transaction(app.sessions) as s:
            comp = s.scalars(select(Competition).where(Competition.code == "SET")).one()
            assert comp.settings == {"no_consecutive_overs": True, "nmr_limit": 2}
    finally:
        app.close()
