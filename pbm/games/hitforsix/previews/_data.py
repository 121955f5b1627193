"""What the made-up Hit for Six mails share: a card (its figures made up, its picture the
real card's) and the examples of an answer."""

from __future__ import annotations

from typing import Any

from pbm.games.hitforsix.card_images import card_cid
from pbm.games.hitforsix.decks.load import load_deck


def _kohli() -> int:
    return next(i for i, c in enumerate(load_deck("t20i").cards) if c.name == "V Kohli")


H6CARD: dict[str, Any] = {
    "pos": 0, "name": "V Kohli", "initials": "VK", "country": "India", "matches": 100,
    "runs": 4000, "avg": "50.0", "bf": 2920, "sr": "137.0", "sixes": 120, "bb": 96,
    "wickets": 4, "econ": "8.00", "bavg": "32.0", "attack": True, "proper": False, "new": False,
    "cid": card_cid("t20i", _kohli()),
}  # fmt: skip
H6_EXAMPLES = ["drop 0, 1, 2", "Kohli, VK", "drop 10; then drop the lowest average"]
