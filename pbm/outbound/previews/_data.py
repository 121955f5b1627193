"""What pbm's own made-up mails share: a competition taking teams."""

from __future__ import annotations

from typing import Any

#: A competition as the mails that list competitions show it.
COMP: dict[str, Any] = {
    "code": "DEMO",
    "name": "Demo League",
    "format": "Twenty20",
    "teams": 4,
    "naming_deadline": "2027-01-15 18:00 UTC",
}
