"""Competitions end to end through Dovecot (LMTP in, IMAP fetched by the daemon) and an
aiosmtpd sink (SMTP out), on a controlled clock: the 4-team mini-tournament and a 6-team
league from JOIN to champion, every stage's mail checked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.daemon import Daemon
from pbm.mail.imap import ImapMailbox
from pbm.mail.smtp import SmtpSender
from tests.pbm.season import (
    GM,
    GM_SECRET,
    START,
    DovecotPost,
    Season,
    league_scenario,
    mini_scenario,
    new_competition,
)
from tests.services import DovecotInstance, SmtpSink, own_dovecot, post_office_config

pytestmark = [pytest.mark.services, pytest.mark.slow]


@pytest.fixture(scope="module")
def server() -> Iterator[DovecotInstance]:
    """A Dovecot of this module's own."""
    with own_dovecot("dovecot-season") as inst:
        yield inst


def _season(server: DovecotInstance, sink: SmtpSink, tmp_path: Path, code: str) -> Season:
    config = parse_config(
        post_office_config(
            f"sqlite:///{tmp_path}/pbm.sqlite3",
            sink.port,
            server,
            gm=(GM, GM_SECRET),
            imap={"idle": False},
            rate_limit={"per_hour": 500},
        ),
        env={},
    )
    clock = FixedClock(START)
    app = App.from_config(config, clock, upgrade=True)
    mailbox = ImapMailbox(
        server.host, server.imap, username="pbm", password="secret", security="plain"
    )
    daemon = Daemon(app, SmtpSender("127.0.0.1", sink.port, security="plain"), [mailbox])
    return Season(daemon, DovecotPost(server.host, server.lmtp, sink), clock, code)


def _close(season: Season) -> None:
    for mb in season.daemon.mailboxes:
        mb.close()
    season.daemon.app.close()


def test_mini_tournament_through_dovecot(
    server: DovecotInstance, smtp_sink: SmtpSink, tmp_path: Path
) -> None:
    """The mini-tournament by real mail, JOIN to champion: defaults, a drinks amendment, a
    bounce, an extension, a rerun and a rollback, every stage's mail checked."""
    season = _season(server, smtp_sink, tmp_path, "MINI")
    try:
        new_competition(
            season.daemon,
            season.clock,
            code="MINI",
            kind="mini",
            teams=4,
            settings={
                "naming_after_full": 600,
                "early": 300,
                "reminders": [1800],
                "hold_share": 1.0,
            },
        )
        final = mini_scenario(season)
        assert final["champion"] in {t["team"] for t in final["teams"]}
    finally:
        _close(season)


def test_league_of_six_through_dovecot(
    server: DovecotInstance, smtp_sink: SmtpSink, tmp_path: Path
) -> None:
    """A 6-team league by real mail from JOIN to champion."""
    season = _season(server, smtp_sink, tmp_path, "LEAGUE")
    try:
        new_competition(
            season.daemon,
            season.clock,
            code="LEAGUE",
            kind="league",
            teams=6,
            settings={"naming_after_full": 600, "early": 300, "reminders": [], "hold_share": 1.0},
        )
        league_scenario(season)
    finally:
        _close(season)
