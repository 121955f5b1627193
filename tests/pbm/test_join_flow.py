"""JOIN and naming by mail, through the inbound pipeline and the outbox."""

from __future__ import annotations

from pbm.daemon import Daemon
from pbm.testing import RecordingSender, body_of, make_eml


def test_join_reply_gives_secret_team_and_squad(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A JOIN gets one reply with a secret, the team and 18 squad rows with stats and style."""
    daemon.app.inbound.store(make_eml("JOIN\n", subject="[DEMO] join"), "smtp")
    stats = daemon.run_once()
    assert stats.processed == 1
    [reply] = sender.to("player1@example.test")
    body = body_of(reply)
    print(body)
    assert "YOUR SECRET:" in body
    assert body.count("Star Batsman") >= 2
    assert reply["Auto-Submitted"] == "auto-replied"
