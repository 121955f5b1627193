"""Bench the Flungo match engine: matches per second per format, a 1,000-match turn, and the
engine's cost against the bare cost of the dice it rolls.

Run: ``/work/venv/bin/python bench/sim.py [--matches N]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from engine.dice import Dice
from engine.flungo import (
    Format,
    MatchSetup,
    generate_squad,
    play_match,
    play_turn,
    start_match,
)
from engine.flungo.ground import Conditions


def setups(fmt: Format, n: int) -> list[MatchSetup]:
    """``n`` fixtures with generated squads and varied conditions."""
    out = []
    for seed in range(n):
        root = Dice(seed)
        out.append(
            MatchSetup(
                fmt,
                seed,
                Conditions("Bench Oval", 1 + seed % 6, 1 + seed // 6 % 6),
                generate_squad(root.derive("h"), "Home"),
                generate_squad(root.derive("a"), "Away"),
            )
        )
    return out


def count_rolls(setup: MatchSetup) -> int:
    """Dice rolled in a whole match (every ball's rolls, plus the toss)."""
    state = play_match(setup).state
    return 1 + sum(len(b.rolls) for inn in state.innings for b in inn.balls)


def best_of(n: int, fn: Callable[[], object]) -> float:
    """The fastest of ``n`` timed runs of ``fn`` (other load on the machine only slows runs)."""
    best = float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--turn", type=int, default=1000, help="matches in the turn bench")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    print(
        f"{'format':>8} {'matches/s':>10} {'ms/match':>9} {'rolls/match':>12} "
        f"{'dice ms':>8} {'engine/dice':>12}"
    )
    for fmt in Format:
        fixtures = setups(fmt, args.matches)
        per = best_of(args.repeat, lambda fx=fixtures: [play_match(s) for s in fx])
        per /= len(fixtures)
        rolls = sum(count_rolls(s) for s in fixtures[:20]) / min(20, len(fixtures))
        n = int(rolls) * len(fixtures)

        def draw(n: int = n) -> None:
            dice = Dice(1)
            for _ in range(n):
                dice.roll(6, "bench")

        bare = best_of(args.repeat, draw) / len(fixtures)
        print(
            f"{fmt.value:>8} {1 / per:>10.0f} {per * 1000:>9.2f} {rolls:>12.0f} "
            f"{bare * 1000:>8.2f} {per / bare:>12.1f}"
        )
    for fmt in (Format.T20, Format.FIFTY):
        states = [start_match(s).state for s in setups(fmt, args.turn)]
        dt = best_of(args.repeat, lambda st=states: [play_turn(x) for x in st])
        print(f"{args.turn}-match turn ({fmt.value}, first turn, to drinks): {dt:.2f} s")


if __name__ == "__main__":
    main()
