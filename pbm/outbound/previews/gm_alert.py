"""The GM's alert that a mail could not be handled."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context."""
    return {
        "mail_id": 42,
        "sender": "bob@players.test",
        "subject": "[DEMO] my orders",
        "error": "OperationalError: database is locked",
        "notes": [],
    }
