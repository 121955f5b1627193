"""The practice in every answer to an orders mail: a manager mails orders with conditional
orders, and the answer plays them in three practice matches against the next opponent, saying
line by line when each fired or why it never did, and who bowled which overs. The dice come
from the mail's orders, never from the match's committed seed, and the match is untouched."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from engine.flungo.match import start_match
from engine.flungo.turn import SeasonState
from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import make_config
from tests.pbm.season import MINI_TEAMS, START, Season, StoreDoor, new_competition

ORDERS = (
    "after 5 overs, if wickets <= 3: Alpha 1 bats aggressive\n"
    "when the 9th wicket falls: all batsmen wahoo\n"
    "Alpha 14 bowls overs 1, 3\n"
    "Alpha 15 bowls overs 2, 4\n"
)


def season_at(tmp_path: Path, code: str, settings: dict[str, object]) -> Season:
    """A drawn mini-tournament at its first selection, on a fixed clock."""
    clock = FixedClock(START)
    app = App.from_config(
        make_config(f"sqlite:///{tmp_path}/{code}.sqlite3", tmp_path), clock, upgrade=True
    )
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, code)
    base = {"naming_after_full": 600, "reminders": [], "hold_share": 1.0}
    new_competition(daemon, clock, code=code, kind="mini", teams=4, settings=base | settings)
    for address, team, prefix in MINI_TEAMS:
        s.join(address, team, prefix)
    clock.advance(timedelta(minutes=10))
    s.pump()
    return s


@pytest.fixture
def season(tmp_path: Path) -> Iterator[Season]:
    """A drawn mini-tournament whose first stage (the selection) is open."""
    s = season_at(tmp_path, "PRAC", {})
    try:
        yield s
    finally:
        s.daemon.app.close()


def practice_of(body: str) -> list[str]:
    """The answer's practice section, each entry on one line (the wrap undone)."""
    assert "Practice:" in body, body
    part = body.split("Practice:\n", 1)[1].split("\n\n", 1)[0]
    entries: list[str] = []
    for line in part.splitlines():
        if line.lstrip().startswith("- ") or not entries:
            entries.append(line.lstrip().removeprefix("- ").strip())
        else:
            entries[-1] += " " + line.strip()
    return entries


def test_the_answer_says_when_each_conditional_fired(season: Season) -> None:
    """Alpha mails two conditional orders and a plan for four overs. The answer's practice
    names the opponent of Alpha's semi-final and says, per order, where it fired (at 5.0, with
    the wickets down) or why it never did (the most wickets that fell), and that the plan ran
    out at over 5, where the default bowler took over."""
    a1 = MINI_TEAMS[0][0]
    [reply] = season.orders(a1, ORDERS)
    entries = practice_of(body_of(reply))
    assert entries[0].startswith("3 practice matches against "), entries
    opponent = entries[0].removeprefix("3 practice matches against ").split(",")[0]
    assert opponent in {t[1] for t in MINI_TEAMS[1:]}
    [after5] = [e for e in entries if e.startswith("after 5 overs")]
    assert "fired at 5.0 with " in after5 and " down in " in after5 and " of 3" in after5
    [ninth] = [e for e in entries if "9th wicket" in e]
    assert "never" in ninth or "fired" in ninth
    bowling = next(e for e in entries if e.startswith("Bowling"))
    assert "Alpha 14 1, 3" in bowling and "Alpha 15 2, 4" in bowling
    assert any(e.startswith("Your plan ran out at over 5") for e in entries), entries
    assert entries[-1].startswith("Scores (yours first): ")


def test_the_same_mail_gets_the_same_dice_and_a_changed_mail_others(season: Season) -> None:
    """The practice's dice come from the orders: the same mail again gets the very same
    practice (a replay), a mail that changes an order gets another."""
    a1 = MINI_TEAMS[0][0]
    [first] = season.orders(a1, ORDERS)
    [again] = season.orders(a1, ORDERS)
    assert practice_of(body_of(first)) == practice_of(body_of(again))
    [changed] = season.orders(a1, ORDERS + "Alpha 2 bats defensive\n")
    assert practice_of(body_of(changed))[-1] != practice_of(body_of(first))[-1]


def test_the_practice_leaves_the_match_alone(season: Season) -> None:
    """After the practice the selection stage runs: the match it starts is exactly the one
    the engine starts from the match's own seed and the orders received, and that seed is
    not the practice's."""
    a1 = MINI_TEAMS[0][0]
    season.orders(a1, ORDERS)
    season.play_stage([t[0] for t in MINI_TEAMS])
    with transaction(season.daemon.app.sessions) as s:
        comp = s.scalars(select(Competition).where(Competition.code == "PRAC")).one()
        state = SeasonState.from_text(comp.season)
    [live] = [
        m for m in state.live if "Alpha Apes" in (m.state.setup.home.name, m.state.setup.away.name)
    ]
    st = live.state
    again = start_match(st.setup, st.orders[0], st.orders[1]).state
    assert again.selections == st.selections and again.batting_first == st.batting_first
    assert again.orders == st.orders
    # on the field, the practice is against the same opponent, with its published XI
    side = 0 if st.setup.home.name == "Alpha Apes" else 1
    [reply] = season.orders(a1, ORDERS)
    head = practice_of(body_of(reply))[0]
    assert head.startswith(f"3 practice matches against {st.team(1 - side).name},"), head


def test_between_seasons_the_answer_says_nothing_of_practice(tmp_path: Path) -> None:
    """Before the draw there is no next match: the answer has no practice section."""
    clock = FixedClock(START)
    app = App.from_config(
        make_config(f"sqlite:///{tmp_path}/open.sqlite3", tmp_path), clock, upgrade=True
    )
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, "OPEN")
    new_competition(daemon, clock, code="OPEN", kind="mini", teams=4, settings={})
    try:
        address, team, prefix = MINI_TEAMS[0]
        s.join(address, team, prefix)
        [reply] = s.orders(address, ORDERS)
        assert "Practice:" not in body_of(reply)
        assert "Orders received" in str(reply["Subject"])
    finally:
        app.close()


def test_a_plan_against_the_house_rule_is_mended_and_shown(tmp_path: Path) -> None:
    """Under the house rule no_consecutive_overs, "Alpha 4 bowls overs 1, 2" breaks the limit
    (the seed alone allows it): the answer says so once and gives the nearest legal plan, the
    one the match will play, and the practice bowls it."""
    s = season_at(tmp_path, "HOUSE", {"no_consecutive_overs": True})
    try:
        a1 = MINI_TEAMS[0][0]
        [reply] = s.orders(a1, "Alpha 14 bowls overs 1, 2\nAlpha 15 bowls overs 3, 5\n")
        words = " ".join(body_of(reply).split())
        assert (
            "Your bowling plan breaks the limits, so the match plays the nearest legal plan"
            in words
        )
        assert words.count("Alpha 14 would bowl more than 1 over in succession") == 1
        assert "he bowls over 4 instead of 2" in words or "swapped" in words
        bowling = next(e for e in practice_of(body_of(reply)) if e.startswith("Bowling"))
        assert "Alpha 14 1-2" not in bowling
    finally:
        s.daemon.app.close()
