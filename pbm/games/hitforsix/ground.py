"""The one-file ground (law 7.02): a static HTML page that plays Hit for Six in a browser.

Everything is inline — the decks (as columns, the card fields only), the colours, the engine
in JavaScript (``templates/hitforsix/ground.html``) — so the page fetches nothing and calls
no third party; its Content-Security-Policy forbids it to. The JavaScript follows the Python
engine step for step: the same dice (``docs/rules/dice.md``), deal, Rules, grading (the same
floating-point operations in the same order, so the same keys), challenge codes and
resemblance (law 4.04: each deck's stat means and deviations are embedded, so the page need not
reproduce numpy's summation); the tests drive it in headless Chromium against the engine.
"""

from __future__ import annotations

import json

from engine.hitforsix.cards import CARD_FIELDS
from engine.hitforsix.colours import NEUTRAL, TEAM_COLOURS
from engine.hitforsix.resemblance import deck_moments
from pbm.games.hitforsix.decks.load import DECK_NAMES, deck_file, load_deck
from pbm.outbound.render.env import templates_dir

__all__ = ["FIELDS", "ground_data", "ground_html"]

FIELDS = CARD_FIELDS[1:]  # the registry id is not needed to play
_PLACEHOLDER = "__H6_DATA__"


def ground_data() -> dict[str, object]:
    """What the page embeds: each deck's build, title and card columns, and the colours."""
    decks: dict[str, object] = {}
    for name in DECK_NAMES:
        file, build = deck_file(name)
        decks[name] = {
            "build": build,
            "title": file.title,
            "columns": {f: [getattr(c, f) for c in file.cards] for f in FIELDS},
            "moments": [None if m is None else list(m) for m in deck_moments(load_deck(name))],
        }
    return {
        "fields": list(FIELDS),
        "decks": decks,
        "colours": {k: list(v) for k, v in TEAM_COLOURS.items()},
        "neutral": list(NEUTRAL),
    }


def ground_html() -> str:
    """The whole ground as one HTML document."""
    page = (templates_dir() / "hitforsix" / "ground.html").read_text("utf-8")
    data = json.dumps(ground_data(), ensure_ascii=False, separators=(",", ":"))
    # Inside <script> only "</" could end the element early; JSON allows "<\/" for it.
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")
    return page.replace(_PLACEHOLDER, data)
