"""The conventions of bulk and automatic mail, through the doors (a mini-tournament by mail):
``Auto-Submitted`` says auto-replied only on answers and auto-generated on everything pbm
sends of its own accord (RFC 3834); a competition's bulk mail carries ``List-Id`` (RFC 2919)
and a ``List-Unsubscribe`` mailto: (RFC 2369) that pbm answers itself: ZINE OFF stops the
zine, never the turn reports, and says so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import OutboxMessage
from pbm.db.session import transaction
from pbm.testing import RecordingSender, body_of, make_eml
from tests.pbm.conftest import make_config
from tests.pbm.season import (
    GM,
    GM_SECRET,
    MINI_TEAMS,
    START,
    Season,
    StoreDoor,
    is_zine,
    new_competition,
)

CODE = "CONV"
#: The kinds pbm sends of its own accord in a season (a digest even when the GM asked for
#: it), and which of them are list mail.
GENERATED = {"fixtures", "reminder", "turn-report", "zine", "turn-digest", "digest"}
LISTED = {"fixtures", "reminder", "turn-report", "zine"}


@pytest.fixture
def season(tmp_path: Path) -> Iterator[Season]:
    """A mini-tournament of four named teams, drawn, with reminders before each deadline."""
    clock = FixedClock(START)
    config = make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path)
    app = App.from_config(config, clock, upgrade=True)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, CODE)
    settings = {"naming_after_full": 600, "reminders": ["30m"], "hold_share": 1.0}
    new_competition(daemon, clock, code=CODE, kind="mini", teams=4, settings=settings)
    for address, team, prefix in MINI_TEAMS:
        s.join(address, team, prefix)
    clock.advance(timedelta(minutes=10))
    s.pump()
    try:
        yield s
    finally:
        app.close()


def kinds_by_id(season: Season) -> dict[str, str]:
    """Each sent mail's kind, by Message-ID, as the outbox recorded it."""
    with transaction(season.daemon.app.sessions) as s:
        rows = s.execute(select(OutboxMessage.message_id, OutboxMessage.kind)).all()
        return {str(mid): str(kind) for mid, kind in rows}


def stage(season: Season) -> list[EmailMessage]:
    """Every mail of one stage: the reminder half an hour before, then the deadline's."""
    season.clock.set(season.deadline() - timedelta(minutes=29))
    mail = season.pump()
    season.clock.set(season.deadline())
    return mail + season.pump()


def test_every_mail_kind_says_what_it_is(season: Season) -> None:
    """Answers say auto-replied and carry no list headers; fixtures, reminders, turn reports,
    digests and the zine say auto-generated; the competition's bulk mail is list mail."""
    a1, _, p1 = MINI_TEAMS[0]
    season.orders(a1, f"captain: {p1} 2")
    season.mail(a1, "HELP\n", subject=f"[{CODE}] help")
    season.mail(GM, f"SECRET {GM_SECRET}\nDIGEST\n", subject="digest now")
    stage(season)
    stage(season)
    sent = season.post.sent()
    kinds = kinds_by_id(season)
    seen: set[str] = set()
    for m in sent:
        kind = kinds[str(m["Message-ID"])]
        seen.add(kind)
        auto = str(m["Auto-Submitted"])
        if m["In-Reply-To"] is not None and kind not in GENERATED:  # an answer
            assert auto == "auto-replied", (kind, auto)
            assert m["List-Id"] is None and m["List-Unsubscribe"] is None, kind
            continue
        assert auto == "auto-generated", (kind, auto, str(m["Subject"]))
        if kind in LISTED:
            assert str(m["List-Id"]) == f'"{CODE} Cup" <{CODE.lower()}.example.test>', kind
            assert str(m["List-Unsubscribe"]) == (
                f"<mailto:pbm+{CODE}@example.test?subject=ZINE%20OFF>"
            ), kind
        else:
            assert m["List-Id"] is None and m["List-Unsubscribe"] is None, kind
    assert seen >= GENERATED, seen
    assert seen >= {"join", "naming", "help"}, seen


def unsubscribe(m: EmailMessage) -> tuple[str, str]:
    """The address and subject a client's unsubscribe button mails (RFC 2369's mailto)."""
    found = re.fullmatch(r"<mailto:([^?>]+)\?([^>]*)>", str(m["List-Unsubscribe"]))
    assert found, str(m["List-Unsubscribe"])
    query = parse_qs(found.group(2))
    return unquote(found.group(1)), query["subject"][0]


def test_the_unsubscribe_link_stops_the_zine_but_never_the_turn_reports(season: Season) -> None:
    """A manager's client follows List-Unsubscribe (no secret, its own words in the body):
    the answer says the zine stops and the turn reports do not; the next stage brings that
    team its report and no zine, the others both; ZINE ON brings the zine back."""
    first = stage(season)
    a1, _, _ = MINI_TEAMS[0]
    [report] = [
        m for m in first if str(m["To"]) == a1 and not is_zine(m) and "(issue" in str(m["Subject"])
    ]
    to, subject = unsubscribe(report)
    assert urlsplit(f"mailto:{to}").path == f"pbm+{CODE}@example.test"
    season.post.send(
        make_eml(
            "This message was automatically generated by Gmail.\n",
            sender=a1,
            to=to,
            subject=subject,
        )
    )
    [answer] = [m for m in season.pump() if str(m["To"]) == a1]
    words = " ".join(body_of(answer).split())
    assert "no more issues of the zine" in words
    assert "turn reports, fixtures and reminders still come" in words
    assert str(answer["Auto-Submitted"]) == "auto-replied"

    second = stage(season)
    to_a1 = [m for m in second if str(m["To"]) == a1]
    assert any("(issue" in str(m["Subject"]) for m in to_a1 if not is_zine(m))
    assert not any(is_zine(m) for m in to_a1)
    others = {str(m["To"]) for m in second if is_zine(m)}
    assert others == {a for a, _, _ in MINI_TEAMS[1:]}

    [back] = season.mail(a1, "ZINE ON\n")
    assert "comes again" in body_of(back)
    third = stage(season)
    assert any(is_zine(m) and str(m["To"]) == a1 for m in third)


def test_zine_off_from_an_address_without_a_team_changes_nothing(season: Season) -> None:
    """A stranger's ZINE OFF is answered (no team of theirs there) and stops nobody's zine."""
    [answer] = season.mail("stranger@example.test", "ZINE OFF\n")
    assert "has no team in" in body_of(answer)
    mail = stage(season)
    assert {str(m["To"]) for m in mail if is_zine(m)} == {a for a, _, _ in MINI_TEAMS}
    assert all(str(m["To"]) != GM or not is_zine(m) for m in mail)


def test_hit_for_six_mail_to_the_other_seat_is_pbm_s_own(
    daemon: Daemon, sender: RecordingSender, clock: FixedClock
) -> None:
    """In a Test by Post, the answer to the joining player is auto-replied; the over mailed
    to the other seat because of that mail, and the over's reminders, are auto-generated;
    none is list mail (a Test has no zine to leave)."""
    from pbm.testing import Conversation

    ann, bob = "ann@example.test", "bob@example.test"
    [opened] = Conversation(daemon, sender, ann).say("TEST NEW 2\n", subject="a Test")
    found = re.search(r"\[H6 ([A-Z0-9]{6})\]", str(opened["Subject"]))
    assert found
    before = len(sender.sent)
    Conversation(daemon, sender, bob).say(
        "TEST JOIN\n", subject="me too", to=f"pbm+h6-{found.group(1).lower()}@example.test"
    )
    joined = sender.sent[before:]
    to_bob = [m for m in joined if str(m["To"]) == bob]
    to_ann = [m for m in joined if str(m["To"]) == ann]
    assert to_bob and to_ann
    assert all(str(m["Auto-Submitted"]) == "auto-replied" for m in to_bob if m["In-Reply-To"])
    assert [str(m["Auto-Submitted"]) for m in to_ann] == ["auto-generated"] * len(to_ann)
    clock.advance(timedelta(hours=37))
    before = len(sender.sent)
    daemon.run_once()
    reminders = sender.sent[before:]
    assert sorted(str(m["To"]) for m in reminders) == [ann, bob]
    assert {str(m["Auto-Submitted"]) for m in reminders} == {"auto-generated"}
    assert all(m["List-Id"] is None for m in [opened, *joined, *reminders])
