"""Naming the men to drop in one window: by deal position, by name, or by initials.

A window's answer is a comma-separated list (``"3, Kohli, JRH"``). Each item is

* a **deal position** (``3``);
* a **name**, matched case-insensitively without dots, first as the whole name ("Virat
  Kohli"), then as a word of it ("kohli"), then as the start of a word ("kohl");
* **initials** as the card shows them (``VK``).

Only the men held can be dropped, so a name is looked up among them first; a name that fits
two held men is :class:`AmbiguousOrder` (naming both), one that fits only a man already gone
is :class:`IllegalOrder`, and one that fits nobody in the deal is :class:`InvalidOrder`. Every
error quotes the answer with a caret under the item and a hint in *this window's* syntax only
(no ``/``: one window is answered at a time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError, Span
from engine.hitforsix.cards import Card
from engine.hitforsix.deal import DEAL_SIZE
from engine.hitforsix.over import CAPS, Hand

__all__ = ["Item", "find_card", "parse_window", "window_hint"]


def _norm(text: str) -> str:
    return " ".join(text.replace(".", " ").casefold().split())


def window_hint(hand: Hand, cards: Sequence[Card]) -> str:
    """How to answer the window in play: its cap, and an example from the men held."""
    cap = CAPS[hand.window]
    held = hand.xi
    example = ", ".join([str(held[0]), cards[held[1]].name.split()[-1], cards[held[2]].initials])
    example = ", ".join(example.split(", ")[:cap])
    return (
        f"window {hand.window + 1}: drop up to {cap} of the men held, by position, name or "
        f"initials, e.g. {example}"
    )


@dataclass(frozen=True, slots=True)
class Item:
    """One item of an answer and where it stands in the text (1-based, end exclusive)."""

    text: str
    column: int

    @property
    def end(self) -> int:
        """The column after the item."""
        return self.column + max(1, len(self.text))


def find_card(word: str, positions: Sequence[int], cards: Sequence[Card]) -> tuple[list[int], str]:
    """The positions among ``positions`` whose card ``word`` names, and how it matched."""
    key = _norm(word)
    if not key:
        return [], ""
    tests = (
        ("name", lambda c: _norm(c.name) == key),
        ("initials", lambda c: c.initials.casefold() == key.replace(" ", "")),
        ("surname", lambda c: key in _norm(c.name).split()),
        ("start", lambda c: any(w.startswith(key) for w in _norm(c.name).split())),
    )
    for how, test in tests:
        found = [p for p in positions if test(cards[p])]
        if found:
            return found, how
    return [], ""


def _items(text: str) -> list[Item]:
    items: list[Item] = []
    column = 1
    for part in text.split(","):
        lead = len(part) - len(part.lstrip())
        items.append(Item(part.strip(), column + lead))
        column += len(part) + 1
    return items


def parse_window(text: str, hand: Hand, cards: Sequence[Card], line: int = 1) -> frozenset[int]:
    """The positions the answer ``text`` drops in the window ``hand`` is at (checked legal)."""
    if hand.window >= len(CAPS):
        raise IllegalOrder("the over is done: six deliveries, three windows")
    hint = window_hint(hand, cards)
    if not text.strip():
        return frozenset()

    def fail(kind: type[OrderError], message: str, item: Item) -> OrderError:
        return kind(message, source_line=text, span=Span(line, item.column, item.end), hint=hint)

    if "/" in text:
        at = text.index("/")
        raise fail(InvalidOrder, "one window at a time: no '/' here", Item("/", at + 1))
    held = hand.xi
    chosen: list[int] = []
    for item in _items(text):
        if not item.text:
            raise fail(InvalidOrder, "an empty item between commas", item)
        if item.text.isdecimal() and item.text.isascii():
            pos = int(item.text)
            if not 0 <= pos < DEAL_SIZE:
                raise fail(InvalidOrder, f"{item.text!r} is not a deal position (0–16)", item)
            if pos not in hand.held:
                raise fail(IllegalOrder, f"position {pos} is not held", item)
        else:
            found, _ = find_card(item.text, held, cards)
            if len(found) > 1:
                names = ", ".join(f"{cards[p].name} ({p})" for p in found)
                raise fail(AmbiguousOrder, f"{item.text!r} could be {names}", item)
            if not found:
                gone, _ = find_card(item.text, range(len(cards)), cards)
                if gone:
                    who = cards[gone[0]].name
                    raise fail(IllegalOrder, f"{item.text!r} ({who}) is not held", item)
                raise fail(InvalidOrder, f"{item.text!r} is no card of the deal", item)
            pos = found[0]
        if pos in chosen:
            raise fail(IllegalOrder, f"{cards[pos].name} ({pos}) is named twice", item)
        chosen.append(pos)
    cap = CAPS[hand.window]
    if len(chosen) > cap:
        raise fail(
            IllegalOrder,
            f"window {hand.window + 1} drops at most {cap}, not {len(chosen)}",
            Item(text.strip(), 1 + len(text) - len(text.lstrip())),
        )
    return frozenset(chosen)
