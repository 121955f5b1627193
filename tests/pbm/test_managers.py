"""What managers of postal games expect, by mail: RESIGN (to the standby list, or the
defaults), AWAY until a date and BACK, REPORT (a turn report again), and the GM's
``nmr_limit`` for a team that sends nothing stage after stage."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import make_config
from tests.pbm.season import GM, MINI_TEAMS, START, Season, StoreDoor, new_competition

A1, A2, A3, A4 = (t[0] for t in MINI_TEAMS)
NEWBIE = "newbie@example.test"

SeasonMaker = Callable[..., Season]


@pytest.fixture
def make_season(tmp_path: Path) -> Iterator[SeasonMaker]:
    """A maker of mini-tournaments on SQLite whose four teams have joined and named their
    squads, with the given settings over these: the draw ten minutes after the fourth JOIN,
    a stage run a minute after every team waited for has sent orders, no reminders."""
    apps: list[App] = []

    def make(**settings: Any) -> Season:
        config = make_config(f"sqlite:///{tmp_path}/m{len(apps)}.sqlite3", tmp_path)
        clock = FixedClock(START)
        app = App.from_config(config, clock, upgrade=True)
        apps.append(app)
        sender = RecordingSender()
        daemon = Daemon(app, sender)
        s = Season(daemon, StoreDoor(daemon, sender), clock, "MINI")
        new_competition(
            daemon,
            clock,
            code="MINI",
            kind="mini",
            teams=4,
            settings={
                "naming_after_full": 600,
                "early": 60,
                "reminders": [],
                "hold_share": 1.0,
                **settings,
            },
        )
        for address, team, prefix in MINI_TEAMS:
            s.join(address, team, prefix)
        return s

    yield make
    for app in apps:
        app.close()


def _draw(season: Season) -> None:
    season.clock.advance(timedelta(minutes=10))
    season.pump()
    assert season.show()["turn"]["key"] == "R1-select"


def _to(mail: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mail if address in str(m["To"])]


def _words(m: EmailMessage) -> str:
    return " ".join(body_of(m).split())


def test_resign_hands_the_team_to_the_standby_list(make_season: SeasonMaker) -> None:
    """A manager who resigns is answered, his secret stops working, the first address on the
    standby list gets the team with a new secret, and the GM is told."""
    season = make_season()
    _draw(season)
    season.gm(f"STANDBY MINI {NEWBIE}")
    old_secret = season.secrets[A2]
    [answer] = season.orders(A2, "RESIGN")
    words = _words(answer)
    assert "You have resigned as manager of Beta Bats" in words, words
    assert "next manager on the GM's standby list" in words
    mail = season.post.sent()
    [handed] = [m for m in _to(mail, NEWBIE) if "new secret" in str(m["Subject"])]
    assert "Beta Bats' manager resigned" in _words(handed), _words(handed)
    assert "YOUR SECRET:" in body_of(handed)
    [told] = [m for m in _to(mail, GM) if "resigned" in str(m["Subject"])]
    assert f"{A2} resigned from Beta Bats (team 2)" in _words(told)
    assert f"handed to {NEWBIE}" in _words(told)
    # the old secret no longer works; the team is the newcomer's
    [refused] = season.mail(A2, f"SECRET {old_secret}\nSTATUS\n")
    assert "Refused" in str(refused["Subject"])
    teams = {t["seat"]: t for t in season.show()["teams"]}
    assert teams[2]["manager"] == NEWBIE and not teams[2]["retired"]


def test_resign_with_nobody_waiting_plays_on_the_defaults(make_season: SeasonMaker) -> None:
    """With the standby list empty, a resigned team plays on its standing orders and the
    defaults (retired), and the GM is told how to hand it on."""
    season = make_season()
    _draw(season)
    [answer] = season.orders(A3, "RESIGN")
    assert "plays on its standing orders and the defaults" in _words(answer)
    [told] = [m for m in _to(season.post.sent(), GM) if "resigned" in str(m["Subject"])]
    assert "SEAT MINI 3 <address>" in _words(told)
    assert {t["seat"]: t for t in season.show()["teams"]}[3]["retired"]


def test_resign_is_a_line_of_its_own(make_season: SeasonMaker) -> None:
    """A line that starts with RESIGN and goes on is no resignation: the manager is told how
    to resign, and keeps his team."""
    season = make_season()
    [answer] = season.orders(A1, "resign? never, we are top of the table")
    assert "Not resigned" in _words(answer)
    assert not {t["seat"]: t for t in season.show()["teams"]}[1]["retired"]


def test_away_skips_reminders_and_waiting_until_back(make_season: SeasonMaker) -> None:
    """A manager away is not reminded and no stage waits for him: when the other three have
    sent orders the stage runs early. BACK makes him waited for again."""
    season = make_season(reminders=[1800])
    _draw(season)
    [answer] = season.orders(A3, "AWAY until 10 March")
    words = _words(answer)
    assert "You are away until Tuesday 10 March 2026, 00:00 UTC" in words, words
    assert "no reminders" in words or "you get no reminders" in words
    assert "What pbm will play if you send nothing more" in body_of(answer)
    # reminders half an hour before the deadline: not to the manager away
    season.clock.set(season.deadline() - timedelta(minutes=30))
    mail = season.pump()
    assert [m for m in _to(mail, A3) if "Reminder" in str(m["Subject"])] == []
    assert [m for m in _to(mail, A4) if "Reminder" in str(m["Subject"])]
    for address in (A1, A2, A4):
        season.orders(address, "toss: bowl")
    deadline = season.deadline()
    season.clock.advance(timedelta(seconds=61))
    season.pump()
    assert season.clock.now() < deadline
    assert season.show()["turn"]["key"] == "T1"  # ran early, not waiting for a3
    [digest] = [m for m in _to(season.post.sent(), GM) if "issue 1" in str(m["Subject"])]
    assert "away until Tuesday 10 March 2026, 00:00 UTC" in body_of(digest)
    # back: the next stage waits for him again
    [back] = season.orders(A3, "BACK")
    assert "Welcome back" in _words(back)
    for address in (A1, A2, A4):
        season.orders(address, "Alpha 1 aggressive" if address == A1 else "toss: bat")
    season.clock.advance(timedelta(seconds=61))
    season.pump()
    assert season.show()["turn"]["key"] == "T1"  # waiting for a3 now


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("AWAY", "no date given"),
        ("AWAY until 4/5", "reads two ways"),
        ("AWAY until the cows come home", "is not a date pbm reads"),
        ("AWAY until 31 February 2026", "there is no such day"),
        ("AWAY until 2029-01-01", "more than a year away"),
    ],
)
def test_away_without_a_date_it_reads_is_answered(
    make_season: SeasonMaker, text: str, says: str
) -> None:
    """AWAY with no date, an ambiguous one, or none pbm reads is answered with why and the
    forms it reads, and changes nothing."""
    season = make_season()
    [answer] = season.orders(A1, text)
    words = _words(answer)
    assert "Not understood" in words and says in words, words
    assert "12 April" in words and "Nothing has changed" in words


def test_report_sends_the_last_turn_report_again(make_season: SeasonMaker) -> None:
    """REPORT mails the team's last turn report again; REPORT with an issue number or a
    stage key, that stage's; a stage not played is answered with the list of those that
    were."""
    season = make_season()
    _draw(season)
    season.play_stage([A1, A2, A3, A4])  # the selection (issue 1)
    season.play_stage([A1, A2, A3, A4])  # turn 1 (issue 2)
    [copy] = season.orders(A1, "REPORT")
    assert "Turn 1 has been played (issue 2 of the zine)" in _words(copy), _words(copy)
    assert "A copy of the report of issue 2" in _words(copy)
    [first] = season.orders(A1, "REPORT 1")
    assert "Round 1: selection and toss has been played" in _words(first)
    assert "The toss and both XIs" in body_of(first)
    [by_key] = season.orders(A1, "REPORT R1-select")
    assert "Round 1: selection and toss has been played" in _words(by_key)
    [none] = season.orders(A1, "REPORT T7")
    words = _words(none)
    assert "No such stage" in words and "issue 2: Turn 1 (REPORT T1)" in words, words


def test_nmr_limit_alerts_the_gm_and_offers_the_team(make_season: SeasonMaker) -> None:
    """A team silent for nmr_limit stages in a row: the GM is alerted, its manager told, and
    the first on the standby list offered the team; his JOIN takes it, with a new secret,
    and the silent manager is told."""
    season = make_season(nmr_limit=2)
    season.gm(f"STANDBY MINI {NEWBIE}")
    _draw(season)
    for _ in range(2):
        for address in (A1, A2, A3):
            season.orders(address, "toss: bowl")
        season.clock.set(season.deadline())
        season.pump()
    mail = season.post.sent()
    [alert] = [m for m in _to(mail, GM) if "sent nothing for 2 stages" in str(m["Subject"])]
    words = _words(alert)
    assert "Delta Dogs (team 4" in words and f"offered to {NEWBIE}" in words, words
    [offer] = _to(mail, NEWBIE)
    assert "A team needs a manager: Delta Dogs" in str(offer["Subject"])
    assert "mail JOIN with [MINI] in the subject" in _words(offer)
    [warned] = [m for m in _to(mail, A4) if "no orders for 2 stages" in str(m["Subject"])]
    assert "send orders to keep it" in _words(warned)
    # the digest counts the silence
    [digest] = [m for m in _to(mail, GM) if "issue 2" in str(m["Subject"])]
    assert "nothing sent (2 stages in a row)" in body_of(digest)
    replies = season.mail(NEWBIE, "JOIN\n", subject="[MINI] join")
    [secret] = [m for m in replies if "new secret" in str(m["Subject"])]
    assert "You took Delta Dogs" in _words(secret)
    [gone] = [m for m in _to(season.post.sent(), A4) if "new manager" in str(m["Subject"])]
    assert "Your secret no longer works" in _words(gone)
    assert {t["seat"]: t for t in season.show()["teams"]}[4]["manager"] == NEWBIE


def test_orders_withdraw_the_offer(make_season: SeasonMaker) -> None:
    """A silent manager who sends orders after his team was offered keeps it: the offer is
    withdrawn at the next stage (the standby address is told), and a JOIN from it takes
    nothing."""
    season = make_season(nmr_limit=1)
    season.gm(f"STANDBY MINI {NEWBIE}")
    _draw(season)
    for address in (A1, A2, A3):
        season.orders(address, "toss: bowl")
    season.clock.set(season.deadline())
    season.pump()
    assert _to(season.post.sent(), NEWBIE)  # offered
    for address in (A1, A2, A3, A4):
        season.orders(address, "Alpha 1 aggressive" if address == A1 else "toss: bat")
    season.clock.advance(timedelta(seconds=61))
    season.pump()  # all in: the selection runs, and a4's orders withdraw the offer
    [withdrawn] = [m for m in _to(season.post.sent(), NEWBIE) if "withdrawn" in str(m["Subject"])]
    assert "stays with him" in _words(withdrawn)
    [answer] = season.mail(NEWBIE, "JOIN\n", subject="[MINI] join")
    assert "new secret" not in str(answer["Subject"])
    assert {t["seat"]: t for t in season.show()["teams"]}[4]["manager"] == A4


def test_a_rolled_back_stage_counts_a_silence_once(make_season: SeasonMaker) -> None:
    """A team silent in a stage the GM rolls back and plays again has missed one stage, not
    two: with nmr_limit 2 nothing is said until a second, different stage passes silent."""
    season = make_season(nmr_limit=2)
    _draw(season)
    for address in (A1, A2, A3):
        season.orders(address, "toss: bowl")
    season.clock.set(season.deadline())
    season.pump()
    assert "open again" in body_of(season.gm("ROLLBACK MINI"))
    season.clock.set(season.deadline())
    season.pump()  # the same stage, played again; Delta Dogs silent again
    silent = [m for m in season.post.sent() if "sent nothing for 2 stages" in str(m["Subject"])]
    assert silent == []
    for address in (A1, A2, A3):
        season.orders(address, "Alpha 1 aggressive" if address == A1 else "toss: bat")
    season.clock.set(season.deadline())
    season.pump()
    [alert] = [m for m in _to(season.post.sent(), GM) if "sent nothing for 2" in str(m["Subject"])]
    assert "Delta Dogs (team 4" in _words(alert)
