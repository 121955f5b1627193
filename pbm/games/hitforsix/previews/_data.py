"""What the made-up Hit for Six mails share: a card and the examples of an answer."""

from __future__ import annotations

from typing import Any

H6CARD: dict[str, Any] = {
    "pos": 0, "name": "V Kohli", "initials": "VK", "country": "India", "matches": 100,
    "runs": 4000, "avg": "50.0", "bf": 2920, "sr": "137.0", "sixes": 120, "bb": 96,
    "wickets": 4, "econ": "8.00", "bavg": "32.0", "attack": True, "proper": False, "new": False,
}  # fmt: skip
H6_EXAMPLES = ["drop 0, 1, 2", "Kohli, VK", "drop 10; then drop the lowest average"]
