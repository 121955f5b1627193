"""The over of changes (law 3): three windows, capped 3, 2 and 1, and reachability.

The reading (fixed by issue 5, and the one that gives the laws' 1,243 unreachable XIs):

* the hand starts as deal positions 0–10;
* window ``w`` (caps 3, 2, 1) drops up to its cap of the men held, all at once, then draws that
  many of the next replacements (positions 11–16) in order;
* a replacement drawn in an earlier window may be dropped in a later one;
* the XI may be named at any time, forfeiting the rest of the over (fewer windows).

Decisions travel as text ``"a,b,c/d,e/f"``: one drop set per window played, windows separated
by ``/``; an empty window is written empty (``"0,4//"``); ``""`` names the dealt XI at once.
Trailing empty windows are the same as naming the XI, so the canonical text leaves them off.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from engine.errors import IllegalOrder, InvalidOrder, Span
from engine.hitforsix.deal import DEAL_SIZE, FACE_UP

__all__ = [
    "CAPS",
    "Decisions",
    "Hand",
    "all_xis",
    "is_reachable",
    "play_over",
    "reachable_xis",
    "route_to",
]

CAPS = (3, 2, 1)
REPLACEMENTS = DEAL_SIZE - FACE_UP


@dataclass(frozen=True, slots=True)
class Decisions:
    """The drop sets of the windows played, in order (at most three)."""

    windows: tuple[frozenset[int], ...] = ()

    def __post_init__(self) -> None:
        # Trailing empty windows change nothing: "0,4//" and "0,4" are one decision, and the
        # canonical form is the short one.
        windows = self.windows
        while windows and not windows[-1]:
            windows = windows[:-1]
        object.__setattr__(self, "windows", windows)
        if len(self.windows) > len(CAPS):
            raise IllegalOrder(f"an over has {len(CAPS)} windows, not {len(self.windows)}")

    @classmethod
    def of(cls, *windows: Iterable[int]) -> Decisions:
        """Decisions from plain iterables: ``Decisions.of([0, 1, 2], [11], [])``."""
        return cls(tuple(frozenset(w) for w in windows))

    def to_text(self) -> str:
        """The canonical text form, e.g. ``"0,1,2/11/"``; round-trips through from_text."""
        return "/".join(",".join(str(p) for p in sorted(w)) for w in self.windows)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Decisions.from_text({self.to_text()!r})"

    @classmethod
    def from_text(cls, text: str) -> Decisions:
        """Parse ``"a,b,c/d,e/f"``; syntax errors are :class:`InvalidOrder` with a caret."""
        windows: list[frozenset[int]] = []
        column = 1
        if text.strip() == "":
            return cls()
        parts = text.split("/")
        if len(parts) > len(CAPS):
            col = len("/".join(parts[: len(CAPS)])) + 1
            raise InvalidOrder(
                f"an over has only {len(CAPS)} windows, this names {len(parts)}",
                source_line=text,
                span=Span(1, col, len(text) + 1),
                hint='write the drops as "a,b,c/d,e/f"',
            )
        for part in parts:
            seen: list[int] = []
            offset = column
            for item in part.split(",") if part.strip() else []:
                word = item.strip()
                start = offset + (len(item) - len(item.lstrip()))
                if not (word.isdecimal() and word.isascii()) or not 0 <= int(word) < DEAL_SIZE:
                    raise InvalidOrder(
                        f"{word!r} is not a deal position (0–{DEAL_SIZE - 1})",
                        source_line=text,
                        span=Span(1, start, start + max(1, len(word))),
                        hint="drops are deal positions, e.g. 0,4,7/11,2/12",
                    )
                if int(word) in seen:
                    raise IllegalOrder(
                        f"position {word} is dropped twice in window {len(windows) + 1}",
                        source_line=text,
                        span=Span(1, start, start + len(word)),
                    )
                seen.append(int(word))
                offset += len(item) + 1
            windows.append(frozenset(seen))
            column += len(part) + 1
        return cls(tuple(windows))


@dataclass(frozen=True, slots=True)
class Hand:
    """The men held (deal positions) after ``window`` windows, and the next replacement."""

    held: frozenset[int] = frozenset(range(FACE_UP))
    window: int = 0
    next_replacement: int = FACE_UP

    @property
    def xi(self) -> tuple[int, ...]:
        """The held positions in ascending order."""
        return tuple(sorted(self.held))

    def drop(self, drops: Iterable[int]) -> Hand:
        """Play the next window: drop ``drops`` at once, then draw as many replacements."""
        out = frozenset(drops)
        if self.window >= len(CAPS):
            raise IllegalOrder("the over is done: six deliveries, three windows")
        cap = CAPS[self.window]
        if len(out) > cap:
            raise IllegalOrder(
                f"window {self.window + 1} drops at most {cap}, not {len(out)}",
                hint=f"drop {cap} or fewer of the men held",
            )
        missing = sorted(out - self.held)
        if missing:
            held = ", ".join(str(p) for p in self.xi)
            raise IllegalOrder(
                f"window {self.window + 1} drops position {missing[0]}, which is not held",
                hint=f"the men held are {held}",
            )
        drawn = range(self.next_replacement, self.next_replacement + len(out))
        return Hand(
            held=(self.held - out) | frozenset(drawn),
            window=self.window + 1,
            next_replacement=self.next_replacement + len(out),
        )


def play_over(decisions: Decisions) -> Hand:
    """The hand after the windows in ``decisions`` (the XI is named after the last one)."""
    hand = Hand()
    for window in decisions.windows:
        hand = hand.drop(window)
    return hand


def is_reachable(xi: Iterable[int]) -> bool:
    """Whether some legal over of changes ends holding exactly ``xi`` (11 deal positions).

    Only the replacements kept matter, as any originals can be dropped. Try every count drawn
    per window ``(k1, k2, k3)``: batch ``b`` holds the replacements drawn in window ``b``. A
    replacement of batch 3 cannot be dropped, of batch 2 only in window 3, of batch 1 in windows
    2 or 3; and every kept one must have been drawn.
    """
    side = frozenset(xi)
    if len(side) != FACE_UP or not side <= frozenset(range(DEAL_SIZE)):
        raise ValueError("an XI is 11 distinct deal positions 0–16")
    kept = {p - FACE_UP for p in side if p >= FACE_UP}
    for k1 in range(CAPS[0] + 1):
        for k2 in range(CAPS[1] + 1):
            for k3 in range(CAPS[2] + 1):
                drawn = k1 + k2 + k3
                if any(r >= drawn for r in kept):
                    continue
                lost = [
                    sum(1 for r in range(lo, hi) if r not in kept)
                    for lo, hi in ((0, k1), (k1, k1 + k2), (k1 + k2, drawn))
                ]
                if lost[2] == 0 and lost[1] <= k3 and lost[0] + lost[1] <= k2 + k3:
                    return True
    return False


_ALL_XIS = tuple(combinations(range(DEAL_SIZE), FACE_UP))


def all_xis() -> tuple[tuple[int, ...], ...]:
    """The C(17, 11) = 12,376 XIs of a deal, as sorted position tuples in lexicographic order."""
    return _ALL_XIS


def reachable_xis() -> frozenset[tuple[int, ...]]:
    """The 11,133 XIs a legal over can reach (computed at each call: only tests ask)."""
    return frozenset(xi for xi in all_xis() if is_reachable(xi))


def route_to(xi: Iterable[int]) -> Decisions:
    """Decisions that reach ``xi``; :class:`IllegalOrder` if no legal over can."""
    target = frozenset(xi)
    if not is_reachable(target):
        raise IllegalOrder(f"no legal over of changes reaches {sorted(target)}")

    # Search the decisions that drop only what the target lacks, window by window; small.
    def search(hand: Hand) -> Decisions | None:
        if hand.held == target:
            return Decisions()
        if hand.window == len(CAPS):
            return None
        spare = sorted(hand.held - target)
        for k in range(min(CAPS[hand.window], len(spare)), -1, -1):
            for out in combinations(spare, k):
                rest = search(hand.drop(out))
                if rest is not None:
                    return Decisions((frozenset(out), *rest.windows))
        return None

    found = search(Hand())
    assert found is not None  # is_reachable promised a route
    return found
