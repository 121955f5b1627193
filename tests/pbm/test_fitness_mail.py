"""Injuries as a manager meets them by mail (issue 22): his accepted XI survives an injury with
the best fit player in the injured man's slot, every mail before the deadline says so and what
treatment would let him play, SQUAD and the treat order agree with the report, and the events
of a turn report name their team.

The season seed ``fit-1`` is chosen so that Alpha 5, a batsman in the XI Alpha Apes send,
retires hurt with 4 injury points in their semi-final (the test checks it happened, so a change
to the dice shows here first, not as a puzzling failure further on).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from engine.flungo.turn import TurnReport
from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import make_config
from tests.pbm.season import MINI_TEAMS, START, Season, StoreDoor, is_zine, new_competition

SETTINGS = {"naming_after_full": 600, "early": 300, "reminders": [], "hold_share": 1.0}
A1 = MINI_TEAMS[0][0]
EVERYONE = [t[0] for t in MINI_TEAMS]
XI = (
    "Alpha 1, Alpha 2, Alpha 5, Alpha 9, Alpha 4, Alpha 7, Alpha 13, Alpha 14, Alpha 18, "
    "Alpha 17, Alpha 15"
)
ORDERS = f"xi: {XI}\ncaptain: Alpha 1\nwicketkeeper: Alpha 7\ntoss: bat\nbatting order: {XI}"


@pytest.fixture
def season(tmp_path: Path) -> Iterator[Season]:
    """A mini-tournament on seed ``fit-1``: four teams joined and named, the draw made, and
    Alpha Apes' XI, captain, keeper and batting order accepted for their semi-final."""
    config = make_config(f"sqlite:///{tmp_path}/f.sqlite3", tmp_path)
    clock = FixedClock(START)
    app = App.from_config(config, clock, upgrade=True)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    try:
        s = Season(daemon, StoreDoor(daemon, sender), clock, "FIT")
        new_competition(
            daemon, clock, code="FIT", kind="mini", teams=4, settings=SETTINGS, seed="fit-1"
        )
        for address, team, prefix in MINI_TEAMS:
            s.join(address, team, prefix)
        clock.advance(timedelta(minutes=10))
        s.pump()
        [ack] = s.orders(A1, ORDERS)
        assert "Orders received" in str(ack["Subject"]), body_of(ack)
        yield s
    finally:
        app.close()


def _mine(mail: list[EmailMessage]) -> str:
    [report] = [m for m in mail if A1 in str(m["To"]) and not is_zine(m)]
    return body_of(report)


def _words(text: str) -> str:
    return " ".join(text.split())


def _to_round_two(season: Season) -> str:
    """Play round 1 (Alpha 5 is hurt in it); Alpha Apes' report of the stage that decided
    their semi-final."""
    decided = ""
    while season.show()["turn"]["key"] != "R2-select":
        body = _mine(season.play_stage(EVERYONE))
        if "Fitness:" in body:
            decided = body
    assert decided, "Alpha 5 was not hurt: the dice of seed fit-1 changed"
    return decided


def test_an_injury_is_announced_before_the_deadline_and_the_xi_survives_it(
    season: Season,
) -> None:
    """The report of the turn Alpha 5 is hurt in says he has 4 injury points, that he sits
    out the next match unless treated with "treat Alpha 5: 4", and who plays in his place; the
    promise lists that XI. SQUAD says the same. Untreated, the next selection keeps the
    manager's XI, captain, keeper and batting order with the replacement in Alpha 5's slot,
    and says who replaced whom and why; the replay's orders keep the XI (no "xi": null)."""
    report = _words(_to_round_two(season))
    assert "Alpha 5 is injured (4 injury points): he sits out your next match" in report
    assert 'to play him send "treat Alpha 5: 4" (4 of your 6 helper points' in report
    assert "plays in his place in your XI" in report
    sub = report.split("plays in his place in your XI")[0].rsplit("; ", 1)[1].strip()
    assert sub.startswith("Alpha ") and sub != "Alpha 5"
    promise = report.split("What pbm will play if you send nothing more")[1]
    assert "xi: Alpha 1, Alpha 2, " + sub + ", Alpha 9" in promise
    assert "+1 fielding for the six lowest fielders, as the rules say; it treats nobody" in (
        promise
    )
    assert "1 injury points" not in report and "pts)" not in report

    [answer] = season.orders(A1, "SQUAD")
    squad = _words(body_of(answer))
    [row] = [r for r in body_of(answer).splitlines() if " Alpha 5 " in r and "bat " in r]
    assert row.endswith("field 3  injured") and len(row) <= 78
    assert "Alpha 5 is injured (4 injury points): he sits out your next match (Final)" in squad
    assert 'send "treat Alpha 5: 4"' in squad

    mail = season.play_stage(EVERYONE)  # round 2's selection: Alpha 5 untreated
    body = _words(_mine(mail))
    assert (
        f"Alpha Apes: Alpha 5 is injured (4 injury points, not treated) and sits out: {sub} "
        "plays in his place (the best fit batsman left)"
    ) in body
    assert "Alpha Apes: no XI given" not in body
    xis = body.split("The toss and both XIs:")[1]
    mine = xis.split("Alpha Apes: ")[1].split(")")[0]
    assert mine.startswith(f"Alpha 1, Alpha 2, {sub}, Alpha 9") and "Alpha 5," not in mine
    assert "(captain Alpha 1, keeper Alpha 7" in xis
    # on the field now: the promise is the XI playing; he needs no treatment
    assert "the XI on the field in" in body
    assert "Alpha 5 is injured and sits out this match" in body and "needs no treatment" in body
    stored = TurnReport.from_text(season.reports()[-1])
    [final] = [
        m
        for m in stored.matches
        if "Alpha Apes" in (m.state.setup.home.name, m.state.setup.away.name)
    ]
    side = 0 if final.state.setup.home.name == "Alpha Apes" else 1
    played = final.played[side]
    assert played is not None and played.xi is not None and "Alpha 5" in played.xi
    assert json.loads(season.reports()[-1])["matches"][0]["played"] is not None

    # a treatment for a man sitting out the match on the field is refused, and why
    [ack] = season.orders(A1, "treat Alpha 5: 4")
    text = _words(body_of(ack))
    assert "Alpha 5 sits out this match (Final) injured" in text
    assert "he needs no treatment: the treatment for him was not taken" in text


def test_a_treated_player_plays_and_every_event_names_its_team(season: Season) -> None:
    """Treated with "treat Alpha 5: 4" before the deadline, the acknowledgement says he will
    be fit, and the next selection plays him in his place; a house side's defaults read as
    theirs ("Beta Bats: no XI given ..."), never as the manager's orders lost."""
    first = _words(_mine(season.play_stage(EVERYONE)))  # round 1's selection
    assert "Beta Bats: no XI given: the default XI plays" in first or (
        "Gamma Gnus: no XI given" in first or "Delta Dogs: no XI given" in first
    )
    assert "Alpha Apes: no XI given" not in first
    _to_round_two(season)
    [ack] = season.orders(A1, "treat Alpha 5: 4")
    text = _words(body_of(ack))
    assert 'your orders treat him ("treat Alpha 5: 4"), so he is fit for your next match' in text
    assert "treat Alpha 5: 4" in text.split("What pbm will play if you send nothing more")[1]
    body = _words(_mine(season.play_stage(EVERYONE)))
    mine = body.split("The toss and both XIs:")[1].split("Alpha Apes: ")[1].split(")")[0]
    assert mine.startswith("Alpha 1, Alpha 2, Alpha 5, Alpha 9")
    assert "Alpha 5 is injured" not in body
