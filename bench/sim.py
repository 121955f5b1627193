"""Bench the Flungo match engine: matches per second per format, a 1,000-match turn, and the
engine's cost against the bare cost of the dice it rolls.

Run: ``/work/venv/bin/python bench/sim.py [--matches N]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--turn", type=int, default=1000, help="matches in the turn bench")
    args = parser.parse_args()
    print(
        f"{'format':>8} {'matches/s':>10} {'ms/match':>9} {'rolls/match':>12} "
        f"{'dice ms':>8} {'engine/dice':>12}"
    )
    for fmt in Format:
        fixtures = setups(fmt, args.matches)
        t0 = time.perf_counter()
        for s in fixtures:
            play_match(s)
        dt = time.perf_counter() - t0
        per = dt / len(fixtures)
        rolls = sum(count_rolls(s) for s in fixtures[:20]) / min(20, len(fixtures))
        dice = Dice(1)
        n = int(rolls) * len(fixtures)
        t0 = time.perf_counter()
        for _ in range(n):
            dice.roll(6, "bench")
        bare = (time.perf_counter() - t0) / len(fixtures)
        print(
            f"{fmt.value:>8} {1 / per:>10.0f} {per * 1000:>9.2f} {rolls:>12.0f} "
            f"{bare * 1000:>8.2f} {per / bare:>12.1f}"
        )
    for fmt in (Format.T20, Format.FIFTY):
        states = [start_match(s).state for s in setups(fmt, args.turn)]
        t0 = time.perf_counter()
        for st in states:
            play_turn(st)
        dt = time.perf_counter() - t0
        print(f"{args.turn}-match turn ({fmt.value}, first turn: to drinks): {dt:.2f} s")


if __name__ == "__main__":
    main()
