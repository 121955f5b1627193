"""One reply's answer in a game by mail: this window's, or instructions for the rest of the over.

Issue 27: "a window's answer is a window's answer". The reading, shared by solo games and Test
by Post (documented in ``docs/rules/hitforsix.md``):

* ``name`` / ``name the XI`` / ``stand`` names the XI now (law 3.03);
* ``none``, ``keep``, ``pass``, ``drop none`` or a blank answer drops nobody this window;
* a list of men (``2, Kohli, AAPA``), with or without a leading ``drop``, is **this window's**
  answer, checked strictly (a man not held is an error, never skipped);
* a single ``drop the lowest average`` (a selector) is this window's too, picked from the men held;
* only the forms instructions alone have -- ``then``, ``if``, ``;`` or one step a line, so more
  than one step -- make **instructions for the rest of the over**, from the window in play.

Where an answer could be read either way (one ``drop …`` step), :attr:`Answer.read_as` says which
reading was taken, so the reply can tell the player.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.errors import IllegalOrder
from engine.hitforsix.choose import parse_window
from engine.hitforsix.deal import Deal
from engine.hitforsix.instructions import parse_instructions, run_instructions
from engine.hitforsix.over import CAPS, Hand

__all__ = ["NAME_WORDS", "NONE_WORDS", "Answer", "is_instructions", "read_answer"]

NAME_WORDS = frozenset({"name", "name the xi", "name xi", "name my xi", "stand"})
NONE_WORDS = frozenset({"", "none", "keep", "keep all", "pass", "drop none", "drop nobody"})
# "then" between steps (a leading "then" starts one step), "if", "else", ";".
_STEP_WORDS = re.compile(r"\S\s+then\b|\b(?:if|otherwise|else)\b|;", re.IGNORECASE)
_LEAD_DROP = re.compile(r"^\s*(?:then\s+)?drop\b\s*", re.IGNORECASE)
_SELECTOR = re.compile(r"(?:^|[\s,])the\s+(?:[1-3]\s+)?(?:lowest|highest|fewest|most|least|worst|"
                       r"best)\b", re.IGNORECASE)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Answer:
    """What an answer did: every window played after it, whether the over is over, and how."""

    windows: tuple[frozenset[int], ...]
    done: bool
    how: Literal["window", "instructions", "name"]
    notes: tuple[str, ...] = ()
    read_as: str = ""


def _steps(text: str) -> list[str]:
    return [ln.strip() for ln in text.replace("\r\n", "\n").split("\n") if ln.strip()]


def is_instructions(text: str) -> bool:
    """Whether ``text`` has a form only instructions have: then, if, ';' or a step a line."""
    lines = _steps(text)
    return len(lines) > 1 or bool(_STEP_WORDS.search(" ".join(lines)))


def read_answer(text: str, played: Sequence[frozenset[int]], the_deal: Deal) -> Answer:
    """Read ``text`` as the answer to the window after ``played``; OrderError says why not."""
    hand = Hand()
    for w in played:
        hand = hand.drop(w)
    if hand.window >= len(CAPS):
        raise IllegalOrder("the over is done: six deliveries, three windows")
    window = hand.window + 1
    flat = " ".join(text.split())
    low = flat.lower().rstrip(".")
    if low in NAME_WORDS:
        return Answer(tuple(played), True, "name")
    if low in NONE_WORDS:
        after = (*played, frozenset[int]())
        return Answer(after, len(after) == len(CAPS), "window")
    if is_instructions(text):
        program = parse_instructions("\n".join(_steps(text)), the_deal.deck, hand.window)
        out = run_instructions(program, the_deal, played)
        last = window + len(program.steps) - 1
        span = f"window {window}" if last == window else f"windows {window}–{last}"
        said = f"read as instructions for {span}"
        return Answer(out.decisions.windows, True, "instructions", out.notes, said)
    body = _LEAD_DROP.sub("", flat, count=1)
    said = ""
    if body != flat:  # "drop …", one step: could be either, so the reply says which it took
        said = (f"read as window {window}'s answer; to send the rest of the over at once, "
                "join a step for each window with 'then' (drop 2, 5; then drop 9)")  # fmt: skip
    if _SELECTOR.search(" " + body):
        program = parse_instructions("drop " + body, the_deal.deck, hand.window)
        out = run_instructions(program, the_deal, played)
        dropped = out.decisions.windows[hand.window] if len(out.decisions.windows) > hand.window \
            else frozenset[int]()  # fmt: skip
        notes = out.notes
    else:
        dropped = parse_window(body, hand, the_deal.cards)
        notes = ()
    after = (*played, dropped)
    return Answer(after, len(after) == len(CAPS), "window", notes, said)
