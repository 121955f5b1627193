"""Test by Post (laws 5 and 9): wire codes, sealed overs with receipts, and the replay code.

* **The wire code** (law 9.01) is six characters of :data:`WIRE_ALPHABET` (32 letters and
  digits, no ``I``, ``O``, ``0`` or ``1`` to misread). The match's seed is
  ``seed_from_text(f"test-by-post:{wire}")``, so the code alone fixes every deal of the match;
  over *n* is :func:`engine.hitforsix.testmatch.over_deal` of that seed, identical for every
  seat (law 5.02).
* **Sealed overs.** A seat's finished over gets a **receipt** at once: the SHA-256 commitment
  ``sha256("h6-receipt:{wire}:{over}:{seat}:{decisions}:{nonce}")`` in hex, where
  ``decisions`` is the canonical text and ``nonce`` 32 hex digits the server draws (the engine
  is given it). The receipt reveals nothing; once every seat has batted the reveal publishes
  each seat's decisions and nonce, and anyone recomputes every receipt with :func:`verify`.
* **Only decisions travel** (law 9.02). :func:`encode_match` writes the match as a **replay
  code**: the seed, deck, build and each over's decisions, never a score; :func:`replay_code`
  derives the whole match — grades, winners, wickets, runs, the champion — by replaying it.

Replay code, version 2 (base64url without padding)::

    byte  0       version (2)
    byte  1       deck number << 4 | seats (2–4)
    bytes 2–5     build tag (as in a challenge code)
    bytes 6–13    the match seed, unsigned 64-bit big-endian
    then          per over, per seat in order: 6 bytes of decisions (a challenge code's field)
    last 4 bytes  check: the first 4 bytes of SHA-256 of everything before

A seat that misses an over's deadline **names the XI it holds** (law 3.03, naming at any time):
the dealt XI unchanged if it had sent nothing, else the windows it had played stand.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import seed_from_text
from engine.errors import IllegalOrder
from engine.hitforsix.cards import Deck
from engine.hitforsix.code import (
    DECKS,
    CodeError,
    build_tag,
    pack_decisions,
    unpack_decisions,
)
from engine.hitforsix.over import Decisions
from engine.hitforsix.testmatch import TARGETS, MatchState, replay_match

__all__ = [
    "MATCH_CODE_VERSION",
    "WIRE_ALPHABET",
    "MatchCode",
    "decode_match",
    "encode_match",
    "is_match_code",
    "parse_wire",
    "receipt",
    "receipt_text",
    "replay_code",
    "verify",
    "wire_code",
    "wire_seed",
]

MATCH_CODE_VERSION = 2
WIRE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
WIRE_LENGTH = 6
_HEADER = 14


def wire_code(number: int) -> str:
    """The wire code of a 30-bit number (the server draws the number)."""
    if not 0 <= number < 1 << (5 * WIRE_LENGTH):
        raise ValueError(f"a wire code holds 30 bits, not {number}")
    return "".join(
        WIRE_ALPHABET[(number >> (5 * (WIRE_LENGTH - 1 - i))) & 31] for i in range(WIRE_LENGTH)
    )


def parse_wire(text: str) -> str:
    """A wire code as typed (case and spaces forgiven); ValueError says what is wrong."""
    wire = "".join(text.split()).upper()
    if len(wire) != WIRE_LENGTH:
        raise ValueError(f"a wire code is {WIRE_LENGTH} characters, {text.strip()!r} is not")
    bad = sorted({ch for ch in wire if ch not in WIRE_ALPHABET})
    if bad:
        raise ValueError(
            f"a wire code has no {', '.join(repr(b) for b in bad)}: it uses {WIRE_ALPHABET}"
        )
    return wire


def wire_seed(wire: str) -> int:
    """The match seed of a wire code: every deal of the match follows from it."""
    return seed_from_text(f"test-by-post:{parse_wire(wire)}")


def receipt_text(wire: str, over: int, seat: int, decisions: Decisions, nonce: str) -> str:
    """The exact text a receipt is the SHA-256 of (UTF-8, no newline): a mail prints it so a
    player can check the receipt with ``printf '%s' '<text>' | sha256sum``."""
    return f"h6-receipt:{wire}:{over}:{seat}:{decisions.to_text()}:{nonce}"


def _commitment(wire: str, over: int, seat: int, decisions: Decisions, nonce: str) -> str:
    text = receipt_text(wire, over, seat, decisions, nonce)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def receipt(wire: str, over: int, seat: int, decisions: Decisions, nonce: str) -> str:
    """The receipt of a seat's sealed over (seats and overs numbered from 1)."""
    if len(nonce) != 32 or any(c not in "0123456789abcdef" for c in nonce):
        raise ValueError("a receipt's nonce is 32 lower-case hex digits")
    return _commitment(parse_wire(wire), over, seat, decisions, nonce)


def verify(
    receipt_hex: str, wire: str, over: int, seat: int, decisions: Decisions, nonce: str
) -> bool:
    """Whether the revealed ``decisions`` and ``nonce`` open ``receipt_hex``."""
    # Receipts are public, so a plain comparison leaks nothing worth a constant-time one.
    return receipt(wire, over, seat, decisions, nonce) == receipt_hex.strip().lower()


@dataclass(frozen=True, slots=True)
class MatchCode:
    """What a replay code holds: decisions only."""

    deck: str
    build_tag: bytes
    seed: int
    seats: int
    overs: tuple[tuple[Decisions, ...], ...]


def encode_match(state: MatchState, deck: Deck) -> str:
    """The replay code of a match (played or in progress) on ``deck``."""
    if deck.name != state.deck or state.deck not in DECKS:
        raise CodeError(f"this match is played with the {state.deck} deck, not {deck.name}")
    body = bytearray([MATCH_CODE_VERSION, DECKS.index(state.deck) << 4 | state.seats])
    body += build_tag(deck.build) + state.seed.to_bytes(8, "big")
    for over in state.overs:
        for d in over.decisions:
            body += pack_decisions(d).to_bytes(6, "big")
    raw = bytes(body) + hashlib.sha256(bytes(body)).digest()[:4]
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def is_match_code(text: str) -> bool:
    """Whether ``text`` looks like a replay code rather than a 32-character challenge code."""
    t = "".join(text.split())
    # Byte 0 is 2 and byte 1's high nibble the deck (0–5): base64 starts 'Ag' to 'Al'. A
    # challenge code's byte 0 is 1, so it starts 'AQ' to 'Af': the two never meet.
    return len(t) >= 24 and t[:1] == "A" and t[1:2] in "ghijkl"


def decode_match(code: str) -> MatchCode:
    """Read a replay code; CodeError says plainly what is wrong."""
    text = "".join(code.split())
    if any(ch not in _ALPHABET for ch in text):
        raise CodeError("a replay code uses only letters, digits, '-' and '_'")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        raise CodeError("this replay code is cut short or mistyped") from None
    if len(raw) < _HEADER + 4:
        raise CodeError("this replay code is too short to be one")
    body, check = raw[:-4], raw[-4:]
    if hashlib.sha256(body).digest()[:4] != check:
        raise CodeError("this replay code does not check out: it was mistyped or altered")
    if body[0] != MATCH_CODE_VERSION:
        raise CodeError(f"this is not a replay code (version {body[0]})")
    deck_no, seats = body[1] >> 4, body[1] & 0xF
    if deck_no >= len(DECKS) or seats not in TARGETS:
        raise CodeError("this replay code names no known deck or seat count: it was altered")
    rest = body[_HEADER:]
    if len(rest) % (6 * seats):
        raise CodeError("this replay code has a part-over: it was cut short or altered")
    decisions = [
        unpack_decisions(int.from_bytes(rest[i : i + 6], "big")) for i in range(0, len(rest), 6)
    ]
    overs = tuple(tuple(decisions[i : i + seats]) for i in range(0, len(decisions), seats))
    return MatchCode(
        deck=DECKS[deck_no],
        build_tag=bytes(body[2:6]),
        seed=int.from_bytes(body[6:14], "big"),
        seats=seats,
        overs=overs,
    )


def replay_code(
    code: str | MatchCode, deck: Deck, players: Sequence[str] | None = None
) -> MatchState:
    """The match a replay code describes, every figure derived by replaying its decisions."""
    mc = decode_match(code) if isinstance(code, str) else code
    if deck.name != mc.deck:
        raise CodeError(f"this replay code is for the {mc.deck} deck, not {deck.name}")
    if build_tag(deck.build) != mc.build_tag:
        raise CodeError(
            f"this replay code was made with another build of the {mc.deck} deck "
            f"(this one is {deck.build}); it cannot be replayed here"
        )
    names = (
        tuple(players) if players is not None else tuple(f"Seat {i + 1}" for i in range(mc.seats))
    )
    try:
        return replay_match(deck, mc.seed, names, mc.overs)
    except IllegalOrder as exc:
        raise CodeError(f"this replay code does not replay ({exc.message}): altered") from None
