"""The shipped deck file: gzip'd JSON with the cards as columns, and its build id.

Layout (``<deck>.json.gz``)::

    {"format": "pbm-hitforsix-deck", "version": 1, "deck": "t20i", "title": …,
     "credit": "Match data from Cricsheet, cricsheet.org", "licence": …,
     "min_matches": 10, "source": {"matches": 2761, "first": "2005-02-17", "last": …},
     "build": "3f9a0c1e", "fields": [CARD_FIELDS…], "columns": {"id": […], "name": […], …}}

The bytes are deterministic: keys sorted, no whitespace, cards in registry-id order, gzip with
no name and mtime 0. The **build id** is the first eight hex digits of the SHA-256 of the same
JSON without its ``build`` key, so it names the content, whatever the compression.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from engine.hitforsix.cards import CARD_FIELDS, Card
from pbm.core.errors import PbmError

__all__ = [
    "CREDIT",
    "FORMAT",
    "LICENCE",
    "DeckFile",
    "DeckFileError",
    "decode",
    "encode",
]

FORMAT = "pbm-hitforsix-deck"
CREDIT = "Match data from Cricsheet, cricsheet.org"
LICENCE = "Open Data Commons Attribution License (ODC-By) v1.0, as Cricsheet's data is cited"
_INT_FIELDS = CARD_FIELDS[4:]


class DeckFileError(PbmError):
    """A deck file is damaged, or not a deck file of this version."""


@dataclass(frozen=True, slots=True)
class DeckFile:
    """A deck as stored: its cards and what the card text and the build need to say."""

    deck: str
    title: str
    min_matches: int
    source_matches: int
    first_date: str
    last_date: str
    cards: tuple[Card, ...]
    credit: str = CREDIT
    licence: str = LICENCE

    def payload(self) -> dict[str, Any]:
        """The JSON object, without its build id."""
        cards = sorted(self.cards, key=lambda c: c.id)
        return {
            "format": FORMAT,
            "version": 1,
            "deck": self.deck,
            "title": self.title,
            "credit": self.credit,
            "licence": self.licence,
            "min_matches": self.min_matches,
            "source": {
                "matches": self.source_matches,
                "first": self.first_date,
                "last": self.last_date,
            },
            "fields": list(CARD_FIELDS),
            "columns": {f: [getattr(c, f) for c in cards] for f in CARD_FIELDS},
        }

    @property
    def build(self) -> str:
        """Eight hex digits naming the content."""
        return _build_id(self.payload())


def _canonical(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _build_id(payload: dict[str, Any]) -> str:
    return hashlib.sha256(_canonical(payload)).hexdigest()[:8]


def encode(deck: DeckFile) -> bytes:
    """The file's bytes (deterministic)."""
    payload = deck.payload()
    payload["build"] = _build_id(payload)
    return gzip.compress(_canonical(payload), compresslevel=9, mtime=0)


def decode(data: bytes) -> tuple[DeckFile, str]:
    """The deck and its build id, checked against the content."""
    try:
        obj = json.loads(gzip.decompress(data))
    except (OSError, EOFError, ValueError) as exc:
        raise DeckFileError(f"not a gzip'd JSON deck file ({exc})") from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT or obj.get("version") != 1:
        raise DeckFileError("not a version 1 Hit for Six deck file")
    build = obj.pop("build", None)
    if build != _build_id(obj):
        raise DeckFileError(f"deck {obj.get('deck')!r}: content does not match build {build!r}")
    if obj["fields"] != list(CARD_FIELDS):
        raise DeckFileError(f"deck {obj['deck']!r}: unexpected fields {obj['fields']}")
    cols = obj["columns"]
    n = len(cols["id"])
    if any(len(cols[f]) != n for f in CARD_FIELDS):
        raise DeckFileError(f"deck {obj['deck']!r}: columns of unequal length")
    cards = tuple(
        Card(
            id=cols["id"][i],
            name=cols["name"][i],
            initials=cols["initials"][i],
            country=cols["country"][i],
            **{f: cols[f][i] for f in _INT_FIELDS},
        )
        for i in range(n)
    )
    src = obj["source"]
    deck = DeckFile(
        deck=obj["deck"],
        title=obj["title"],
        min_matches=obj["min_matches"],
        source_matches=src["matches"],
        first_date=src["first"],
        last_date=src["last"],
        cards=cards,
        credit=obj["credit"],
        licence=obj["licence"],
    )
    return deck, build
