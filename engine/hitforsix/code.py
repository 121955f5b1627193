"""Challenge codes (law 6.01): a finished solo game in 32 URL-safe characters, and ghosts.

Format, version 1 (24 bytes, then base64url without padding, so 32 characters)::

    byte  0       version (1)
    byte  1       deck number << 4 | Rule number      (DECKS and RULES orders below)
    bytes 2–5     build tag: the first 4 bytes of SHA-256(deck.build, UTF-8)
    bytes 6–13    the seed, unsigned 64-bit big-endian
    bytes 14–19   the decisions, 48 bits big-endian, most significant first:
                    2 bits  windows played (0–3)
                   11 bits  window 1's drops, bit p = deal position p (0–10)
                   14 bits  window 2's drops, positions 0–13
                   16 bits  window 3's drops, positions 0–15
                    5 bits  zero
    bytes 20–23   check: the first 4 bytes of SHA-256 of bytes 0–19

A window can only drop men it can hold, hence the masks' widths: window 2 sees at most three
replacements (11–13), window 3 at most five (11–15).

**One game, one code.** The decisions' canonical form leaves off trailing empty windows, and
the code counts only the windows of that form, so a game has exactly one code; :func:`decode`
refuses any other spelling of the same game (a windows-played count that covers empty windows
at the end). **The check carries no key, on purpose**: it catches typing, not forgery. A code
asserts nothing but a seed, a Rule and decisions — every grade is derived by replay — so a
forged code is merely some other game, which anyone may play honestly anyway. Where the Rule
matters (the Daily XI, law 7.01 and 8.01), :func:`check_daily` compares the code with what the
day derives: the day's seed and the day's Rule.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Literal

from engine.errors import EngineError, IllegalOrder
from engine.hitforsix.cards import Deck
from engine.hitforsix.deal import daily_seed, deal
from engine.hitforsix.game import SoloGame, play_solo
from engine.hitforsix.over import Decisions
from engine.hitforsix.rules import RULES, Rule

__all__ = [
    "CODE_VERSION",
    "DECKS",
    "Challenge",
    "CodeError",
    "GhostResult",
    "build_tag",
    "check_daily",
    "compare",
    "decode",
    "encode",
    "pack_decisions",
    "replay",
    "unpack_decisions",
]

CODE_VERSION = 1
DECKS = ("t20i", "odi", "test", "associates", "t20i-women", "odi-women")
_WIDTHS = (11, 14, 16)


class CodeError(EngineError, ValueError):
    """A challenge code that cannot be replayed: malformed, tampered or for another deck."""


def build_tag(build: str) -> bytes:
    """The 4 bytes a code keeps of a deck's build."""
    return hashlib.sha256(build.encode("utf-8")).digest()[:4]


@dataclass(frozen=True, slots=True)
class Challenge:
    """What a code holds."""

    deck: str
    build_tag: bytes
    seed: int
    rule: Rule
    decisions: Decisions
    version: int = CODE_VERSION


def pack_decisions(decisions: Decisions) -> int:
    """The decisions as the 48-bit field of a code (layout in the module docstring)."""
    bits = len(decisions.windows)
    for i, width in enumerate(_WIDTHS):
        window = decisions.windows[i] if i < len(decisions.windows) else frozenset()
        if any(p >= width for p in window):
            raise IllegalOrder(f"window {i + 1} cannot drop position {max(window)}")
        bits = (bits << width) | sum(1 << p for p in window)
    return bits << 5


def unpack_decisions(bits: int) -> Decisions:
    """Read a 48-bit decisions field; CodeError if it is not the canonical packing of any."""
    if bits & 0b11111:
        raise CodeError("this code has stray bits set: it was altered")
    bits >>= 5
    windows: list[frozenset[int]] = []
    for width in reversed(_WIDTHS):
        mask = bits & ((1 << width) - 1)
        windows.append(frozenset(p for p in range(width) if mask >> p & 1))
        bits >>= width
    played = bits
    windows.reverse()
    if any(windows[played:]):
        raise CodeError("this code drops men after the XI was named: it was altered")
    decisions = Decisions(tuple(windows[:played]))
    if len(decisions.windows) != played:
        # The same game has a shorter spelling; accepting both would give one game two codes.
        raise CodeError("this code counts empty windows after the last drop: it was altered")
    return decisions


def encode(game: SoloGame) -> str:
    """The challenge code of a finished solo game."""
    d = game.deal
    if d.deck.name not in DECKS:
        raise CodeError(f"deck {d.deck.name!r} has no code number; the decks are {DECKS}")
    body = (
        bytes([CODE_VERSION, DECKS.index(d.deck.name) << 4 | RULES.index(game.rule)])
        + build_tag(d.deck.build)
        + d.seed.to_bytes(8, "big")
        + pack_decisions(game.decisions).to_bytes(6, "big")
    )
    raw = body + hashlib.sha256(body).digest()[:4]
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode(code: str) -> Challenge:
    """Read a code; :class:`CodeError` says plainly what is wrong with a bad one."""
    text = code.strip()
    if len(text) != 32:
        raise CodeError(f"a challenge code is 32 characters, this one has {len(text)}")
    if any(ch not in _ALPHABET for ch in text):
        raise CodeError("a challenge code uses only letters, digits, '-' and '_'")
    raw = base64.urlsafe_b64decode(text)  # 32 characters of the alphabet: always 24 bytes
    body, check = raw[:20], raw[20:]
    if hashlib.sha256(body).digest()[:4] != check:
        raise CodeError("this code does not check out: it was mistyped or altered")
    if body[0] != CODE_VERSION:
        raise CodeError(f"this code is version {body[0]}; this pbm reads version {CODE_VERSION}")
    deck_no, rule_no = body[1] >> 4, body[1] & 0xF
    if deck_no >= len(DECKS) or rule_no >= len(RULES):
        raise CodeError("this code names no known deck or Rule: it was altered")
    return Challenge(
        deck=DECKS[deck_no],
        build_tag=body[2:6],
        seed=int.from_bytes(body[6:14], "big"),
        rule=RULES[rule_no],
        decisions=unpack_decisions(int.from_bytes(body[14:20], "big")),
    )


_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def check_daily(code: str | Challenge, deck: Deck, day: str) -> SoloGame:
    """Replay ``code`` if it is the Daily XI of ``day`` under the day's Rule; else CodeError.

    A daily is one deal shared by all (law 7.01): its seed and its Rule are the day's, nobody's
    choice, so a code naming another Rule for the day's deal is refused, as is another deal.
    """
    ch = decode(code) if isinstance(code, str) else code
    if ch.seed != daily_seed(ch.deck, day):
        raise CodeError(f"this code is not the {ch.deck} Daily XI of {day}")
    game = replay(ch, deck)
    if ch.rule is not game.deal.rule:
        raise CodeError(
            f"this code plays the {ch.deck} Daily XI of {day} under {ch.rule.title}, "
            f"but the day's Rule is {game.deal.rule.title}"
        )
    return game


def replay(code: str | Challenge, deck: Deck) -> SoloGame:
    """Replay a code with the engine: the same deal, decisions, XI and grade."""
    ch = decode(code) if isinstance(code, str) else code
    if deck.name != ch.deck:
        raise CodeError(f"this code is for the {ch.deck} deck, not {deck.name}")
    if build_tag(deck.build) != ch.build_tag:
        raise CodeError(
            f"this code was made with another build of the {ch.deck} deck "
            f"(this one is {deck.build}); it cannot be replayed here"
        )
    try:
        return play_solo(deal(deck, ch.seed), ch.rule, ch.decisions)
    except IllegalOrder as exc:
        raise CodeError(f"this code's decisions are not legal ({exc.message}): altered") from None


@dataclass(frozen=True, slots=True)
class GhostResult:
    """A rival's hand against a code's ghost, grade for grade."""

    ghost: SoloGame
    rival: SoloGame
    winner: Literal["ghost", "rival"] | None

    @property
    def margin(self) -> float:
        """The rival's grade less the ghost's, in grade points."""
        return (self.rival.grade.tenths - self.ghost.grade.tenths) / 10


def compare(code: str | Challenge, deck: Deck, rival: Decisions) -> GhostResult:
    """Play ``rival``'s decisions on the code's deal and Rule against its ghost."""
    ghost = replay(code, deck)
    theirs = play_solo(ghost.deal, ghost.rule, rival)
    a, b = ghost.grade.tenths, theirs.grade.tenths
    winner: Literal["ghost", "rival"] | None = None if a == b else ("rival" if b > a else "ghost")
    return GhostResult(ghost, theirs, winner)
