"""A mail of a batch reads the seats as the batch's earlier mails left them, never as a
competition kept for the batch carried them (V4 finding 1): a SCOUT loads the competition's
seats, a RESIGN then retires a seat and issues a new secret, and a later mail with the old
secret is refused as it is when each mail has its own transaction."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import Config
from pbm.daemon import Daemon
from pbm.db.models import InboundMail
from pbm.db.session import transaction
from pbm.testing import RecordingSender, make_eml
from tests.pbm.season import MINI_TEAMS, START, Season, StoreDoor, new_competition

A3, A4 = MINI_TEAMS[2][0], MINI_TEAMS[3][0]


def _season(config: Config) -> Season:
    clock = FixedClock(START)
    sender = RecordingSender()
    daemon = Daemon(App.from_config(config, clock), sender)
    s = Season(daemon, StoreDoor(daemon, sender), clock, "MINI")
    settings = {"naming_after_full": 600, "early": 60, "reminders": [], "hold_share": 1.0}
    new_competition(daemon, clock, code="MINI", kind="mini", teams=4, settings=settings)
    for address, team, prefix in MINI_TEAMS:
        s.join(address, team, prefix)
    return s


@pytest.mark.parametrize("batch_mails", [1, 16])
def test_a_secret_revoked_earlier_in_the_batch_is_refused(config: Config, batch_mails: int) -> None:
    """SCOUT (loads the seats), RESIGN (retires the seat, a new secret), STATUS with the
    resigned seat's old secret: the third mail is refused for its wrong secret whether the
    three share one transaction or each has its own."""
    s = _season(config)
    app = s.daemon.app
    old = s.secrets[A3]

    def store(frm: str, body: str) -> int:
        return app.inbound.store(make_eml(body, sender=frm, subject="[MINI] orders"), "smtp").id

    ids = [
        store(A4, f"SECRET {s.secrets[A4]}\nSCOUT Alpha Apes\n"),
        store(A3, f"SECRET {old}\nRESIGN\n"),
        store(A3, f"SECRET {old}\nSTATUS\n"),
    ]
    after = ids[0] - 1
    while after < ids[-1]:
        done = app.inbound.process_pending(after, mails=batch_mails, seconds=60.0)
        assert done
        after = done[-1][0]
    with transaction(app.sessions) as ss:
        rows = ss.execute(
            select(InboundMail.status, InboundMail.note)
            .where(InboundMail.id.in_(ids))
            .order_by(InboundMail.id)
        ).all()
    assert [r.status for r in rows[:2]] == ["applied", "applied"], rows
    assert rows[2].status == "rejected", rows
    assert "wrong secret" in (rows[2].note or ""), rows
