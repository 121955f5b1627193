"""Bench: grading all ten Rules for one deal, numpy against the pure-Python reference.

Run: ``python bench/grade.py [--deck t20i] [--deals 200] [--reference-deals 3]``. Prints the
milliseconds per deal for every XI under every Rule (The Toss judges by one of the other nine,
so nine score vectors cover all ten), and the ratio to the pure-Python reference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# One core, pinned before numpy loads so that no library starts threads for the other.
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

from engine.hitforsix.deal import deal
from engine.hitforsix.grading import Grader, _build_tables
from engine.hitforsix.reference import reference_keys
from engine.hitforsix.rules import HIDDEN_RULES, DeckRates
from pbm.games.hitforsix.decks.load import load_deck


def main() -> None:
    """Time both graders and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deck", default="t20i")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--reference-deals", type=int, default=3)
    args = parser.parse_args()
    deck = load_deck(args.deck)
    rates = DeckRates.of(deck)

    t0 = time.perf_counter()
    _build_tables()  # built once at import; timed here as a fresh build
    setup_ms = (time.perf_counter() - t0) * 1000

    fast = []
    for seed in range(args.deals):
        d = deal(deck, seed)
        cards, line = d.cards, d.line
        t = time.perf_counter()
        grader = Grader(cards, rates, line)
        for rule in HIDDEN_RULES:
            grader.keys(rule)
        grader.grade(range(11), d.real_rule(d.rule))
        fast.append((time.perf_counter() - t) * 1000)

    slow = []
    for seed in range(args.reference_deals):
        d = deal(deck, seed)
        cards, line = d.cards, d.line
        t = time.perf_counter()
        for rule in HIDDEN_RULES:
            reference_keys(cards, rates, line, rule)
        slow.append((time.perf_counter() - t) * 1000)

    med_fast, med_slow = statistics.median(fast), statistics.median(slow)
    print(f"deck {deck.name} ({len(deck.cards)} cards), one core, 12,376 XIs x 10 Rules per deal")
    print(f"one-off XI tables: {setup_ms:.1f} ms")
    print(
        f"numpy:       median {med_fast:.2f} ms/deal, "
        f"p95 {sorted(fast)[int(0.95 * len(fast))]:.2f} ms ({len(fast)} deals)"
    )
    print(f"pure Python: median {med_slow:.0f} ms/deal ({len(slow)} deals)")
    verdict = "met" if med_fast <= 10 else "MISSED"
    print(f"speed-up: {med_slow / med_fast:.0f}x; target <= 10 ms: {verdict}")


if __name__ == "__main__":
    main()
