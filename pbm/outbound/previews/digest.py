"""The GM's daily digest."""

from __future__ import annotations

from typing import Any

from pbm.outbound.previews._data import COMP


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "headline": "",
        "now": "2027-01-06 09:00 UTC",
        "since": "2027-01-05 09:00 UTC",
        "competitions": [
            {
                **COMP,
                "status": "running",
                "joined": 4,
                "recent_joins": [
                    {"seat": 4, "address": "dan@players.test", "at": "2027-01-05 14:12 UTC"}
                ],
                "unnamed": [{"seat": 2, "team": "Team 2", "address": "bob@players.test"}],
            }
        ],
        "flags": [
            {
                "id": 4,
                "code": "DEMO",
                "seat": 1,
                "team": "Gunge Giants",
                "line": 6,
                "text": "if Warne gets hammered take him off",
            }
        ],
        "not_understood": [
            {"id": 12, "from": "eve@players.test", "subject": "hello?", "note": "no code"}
        ],
        "too_big": [
            {
                "id": 14,
                "from": "cam@players.test",
                "subject": "orders and a video of the last over",
                "note": "too big (31457280 bytes, the limit is 1048576; kept: on the IMAP "
                "server, in the folder Processed)",
                "answered": True,
            }
        ],
        "dead_letters": [
            {"id": 17, "from": "bob@players.test", "subject": "[DEMO] orders", "error": "timeout"}
        ],
        "bounces": [
            {
                "address": "bob@players.test",
                "at": "2027-01-05 20:01 UTC",
                "reason": "550 5.1.1 mailbox unknown",
            }
        ],
        "outages_since": "2027-01-05 09:00 UTC",
        "outages": [
            {
                "door": "smtp",
                "kind": "refused",
                "first_seen": "2027-01-05 10:00:00",
                "until": "2027-01-05 10:05:00",
                "open": False,
                "duration": "5 min",
                "count": 4,
                "error": "connection refused",
            }
        ],
        "outage_losses": {
            "dead_letters": 0,
            "replies_given_up": 0,
            "replies_pending": 1,
            "mail_waiting": 0,
        },
        "notes": [],
    }
