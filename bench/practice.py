"""The practice alone: CPU per practice (three matches and their lines) for a seat's match
orders, in T20 and 50 overs, and the same in another tree, run alternately.

    .venv/bin/python bench/practice.py [--mails 30] [--rounds 4] [--against DIR]

Each seat's match orders (``bench/_match_orders.py``, the orders ``bench/intake.py`` sends)
are read once against its own squad; then, per format, each seat's practice is played (engine
``practise`` and ``practice_lines``, as ``pbm.games.flungo.practice`` calls them) and its
CPU time (``time.process_time``) taken; the figure is the median over the seats, the best of
three passes. ``--against DIR`` measures a copy of another tree too (``git -C /work/main
archive main | tar -x -C DIR``), each in its own process with that tree first on the path,
alternating ``--rounds`` times, so both see the same load; the load average is printed
beside each round. The practices of the two trees are checked to be the same, value for
value, before anything is timed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# run in a child process with the tree to measure first on sys.path
_CHILD = r"""
import hashlib, re, statistics, sys, time
from dataclasses import replace
root, mails = sys.argv[1], int(sys.argv[2])
sys.path[:0] = [root, root + "/bench"]
from engine.dice import Dice
from engine.flungo.formats import FORMATS, Format
from engine.flungo.ground import Conditions
from engine.flungo.language import canonical, parse_orders
from engine.flungo.practice import practice_lines, practice_seed, practise
from engine.flungo.squad import generate_squad
from _match_orders import MATCH_ORDERS
assert sys.modules["engine"].__file__.startswith(root), sys.modules["engine"].__file__
opponent = generate_squad(Dice(2), "Snodge Stars")
ground = Conditions("The Gunge Bowl", 3, 1)
digest = hashlib.sha256()
out = []
for fmt in (Format.T20, Format.FIFTY):
    cases = []
    for seat in range(1, mails + 1):
        base = generate_squad(Dice(seat), f"Team {seat}")
        players = tuple(
            replace(p, name=f"Celebrity {seat}-{k}") for k, p in enumerate(base.players, 1)
        )
        team = replace(base, name=f"Team {seat}", players=players)
        text = re.sub(r"\{(\d+)\}", rf"Celebrity {seat}-\1", MATCH_ORDERS)
        orders = parse_orders(text, team, FORMATS[fmt]).orders
        cases.append((team, orders.match, practice_seed(canonical(orders), f"BENCH:{seat}")))
    for team, match, seed in cases:
        lines = practice_lines(practise(team, match, opponent, fmt, ground, seed))
        digest.update("\n".join(lines).encode())
    best = []
    for _ in range(3):
        cpu = []
        for team, match, seed in cases:
            c = time.process_time()
            practice_lines(practise(team, match, opponent, fmt, ground, seed))
            cpu.append(time.process_time() - c)
        best.append(statistics.median(cpu) * 1e3)
    out.append(f"{fmt.value}={min(best):.3f}")
print(" ".join(out), "digest=" + digest.hexdigest()[:16])
"""


def measure(root: Path, mails: int) -> dict[str, str]:
    """One child process's figures for the tree at ``root``: ms per practice by format."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root), str(mails)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    return dict(part.split("=") for part in done.stdout.split())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mails", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--against", type=Path, default=None, help="another tree to measure")
    args = ap.parse_args()
    trees = [("this tree", ROOT)]
    if args.against is not None:
        trees.insert(0, ("against", args.against.resolve()))
    seen: dict[str, list[dict[str, str]]] = {name: [] for name, _ in trees}
    print(f"CPU ms per practice (3 matches and their lines), median of {args.mails} seats")
    for r in range(args.rounds):
        for name, root in trees:
            got = measure(root, args.mails)
            seen[name].append(got)
            load = Path("/proc/loadavg").read_text().split()[:3]
            print(
                f"round {r + 1} {name:10} T20 {float(got['t20']):6.2f} ms   "
                f"50 overs {float(got['50']):6.2f} ms   load {' '.join(load)}"
            )
    digests = {got["digest"] for runs in seen.values() for got in runs}
    assert len(digests) == 1, f"the trees' practices differ: {digests}"
    for name, runs in seen.items():
        t20 = statistics.median(float(g["t20"]) for g in runs)
        fifty = statistics.median(float(g["50"]) for g in runs)
        print(f"median {name:10} T20 {t20:6.2f} ms   50 overs {fifty:6.2f} ms")


if __name__ == "__main__":
    main()
