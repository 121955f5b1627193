"""Bench: the one-file ground dealing and grading in headless Chromium, and Python beside it.

Run: ``python bench/ground.py [--deck t20i] [--deals 200]``. Prints the median and worst
milliseconds for one deal in the page (deal 17 cards, score all 12,376 XIs under the deal's
Rule, grade one XI: what a player waits for) and the same in Python for one Rule and for a
full grade (target: ≤ 50 ms in the browser, ≤ 10 ms in Python).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.hitforsix.deal import deal
from engine.hitforsix.game import grader_for
from engine.hitforsix.rules import Rule
from pbm.games.hitforsix.decks.load import load_deck
from pbm.games.hitforsix.ground import ground_html
from tests.pbm.h6.browser import run_page


def main() -> None:
    """Time the page and the engine and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deck", default="t20i")
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "ground.html"
        page.write_text(ground_html(), "utf-8")
        out = run_page(page, {"bench": {"deck": args.deck, "deals": args.deals}})
    t = out["timing"]
    print(
        f"browser ({args.deck}, {t['deals']} deals): deal + grade median {t['median_ms']:.2f} ms,"
        f" worst {t['max_ms']:.2f} ms (target ≤ 50 ms)"
    )
    deck = load_deck(args.deck)
    grader_for(deal(deck, 0)).grade(range(11), Rule.MAXIMUMS)  # build the XI tables once
    times = []
    for i in range(args.deals):
        t0 = time.perf_counter()
        d = deal(deck, i + 1)
        grader_for(d).grade(range(11), d.real_rule(d.rule))
        times.append((time.perf_counter() - t0) * 1000)
    print(
        f"python  ({args.deck}, {args.deals} deals): deal + grade median "
        f"{statistics.median(times):.2f} ms, worst {max(times):.2f} ms (target ≤ 10 ms)"
    )


if __name__ == "__main__":
    main()
