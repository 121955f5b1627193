"""Hit for Six's cards as pictures a mail client shows: each card's stat fingerprint (twelve
rays round the initials, in the colours of the country the man played for most: law 2.02) as
a small PNG that Typst makes from the card's SVG, with no browser. Gmail and Outlook drop
inline SVG and ``data:`` URLs, so the HTML mail carries the pictures as parts of their own,
shown by Content-ID (each a :class:`pbm.mail.compose.Attachment` with its ``cid``); the
card's figures stay text beside the picture, and its ``alt``.

A picture is a pure function of the card, its deck's scale, the template and Typst: the same
bytes every time, so it is memoised per card for the process's life (as a deck is), which
pays when one deal is mailed to every seat of a Test by Post, over after over.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import typst

from engine.hitforsix.scale import DeckScale
from engine.hitforsix.svg import fingerprint_svg
from pbm.games.hitforsix.decks.load import load_deck
from pbm.mail.compose import Attachment
from pbm.outbound.render import has_html, templates_dir

__all__ = ["CARD_PX", "HAND_KEYS", "card_cid", "card_png", "hand_images"]

#: The picture's side in pixels: 44 pt at 144 ppi, shown at 44 CSS pixels (sharp on a phone).
CARD_PX = 88
_PPI = 144
#: The context keys whose rows are cards shown as pictures (``solo.card_rows``).
HAND_KEYS = ("hand", "xi")

_LOCAL = threading.local()


def _compiler() -> Any:
    """One Typst compiler per thread (it keeps its fonts and parsed template between runs)."""
    compiler = getattr(_LOCAL, "compiler", None)
    if compiler is None:
        compiler = _LOCAL.compiler = typst.Compiler(str(templates_dir() / "hitforsix" / "card.typ"))
    return compiler


@cache
def _scale(deck: str) -> DeckScale:
    return DeckScale.of(load_deck(deck).cards)


def card_cid(deck: str, index: int) -> str:
    """The Content-ID of card ``index`` of ``deck``: one picture a card, whatever hand it is
    in (a token: letters, digits, dots and dashes)."""
    return f"h6.{deck}.{index}"


@lru_cache(maxsize=2048)
def card_png(deck: str, index: int) -> bytes:
    """Card ``index`` of ``deck``'s fingerprint as a PNG, :data:`CARD_PX` pixels square, its
    corners transparent (a dark page shows round it). ``IndexError`` for no such card."""
    card = load_deck(deck).cards[index]
    svg = fingerprint_svg(card, _scale(deck), size=CARD_PX, guides=False)
    png: bytes = _compiler().compile(format="png", ppi=_PPI, sys_inputs={"svg": svg})
    return png


def _cids(rows: Iterable[Any]) -> Iterable[str]:
    for row in rows:
        if isinstance(row, Mapping) and isinstance(row.get("cid"), str):
            yield row["cid"]


def hand_images(kind: str, ctx: Mapping[str, Any]) -> tuple[Attachment, ...]:
    """The pictures of every card a mail of ``kind`` shows (its context's rows under
    :data:`HAND_KEYS` that carry a ``cid``), each once, in the order shown; none, and no
    picture made, for a kind without an HTML twin (its text shows no picture)."""
    if not has_html(kind):
        return ()
    wanted: dict[str, None] = {}
    for key in HAND_KEYS:
        rows = ctx.get(key)
        if isinstance(rows, Sequence) and not isinstance(rows, str):
            wanted.update(dict.fromkeys(_cids(rows)))
    images = []
    for cid in wanted:
        _, deck, index = cid.split(".")
        images.append(Attachment(f"{cid}.png", "image", "png", card_png(deck, int(index)), cid=cid))
    return tuple(images)
