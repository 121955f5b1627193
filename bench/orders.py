"""Order-language speed: emails parsed per second, and the time for a 1,000-email turn.

Run from a checkout: .venv/bin/python bench/orders.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import canonical, clear_caches, parse_orders
from engine.flungo.language._grammar import build_parser
from tests.engine.orders.squad import fixture_team
from tests.engine.orders.test_fuzz import SAMPLE


def best_of(runs: int, fn: object, n: int) -> float:
    """The best mean seconds per call of ``fn`` over ``runs`` runs of ``n`` calls."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(n):
            fn()  # type: ignore[operator]
        best = min(best, (time.perf_counter() - start) / n)
    return best


def main() -> None:
    team = fixture_team()
    fmt = FORMATS[Format.FIFTY]
    parsed = parse_orders(SAMPLE, team, fmt)
    text = canonical(parsed.orders)
    lines = len(SAMPLE.splitlines())
    t = best_of(5, lambda: parse_orders(SAMPLE, team, fmt), 200)
    print(f"sample email ({lines} lines): {t * 1e3:.2f} ms, {1 / t:.0f} emails/s")

    def cold() -> None:
        clear_caches()
        parse_orders(SAMPLE, team, fmt)

    t_cold = best_of(3, cold, 20)
    print(f"the same, every line new to the parser: {t_cold * 1e3:.2f} ms")
    start = time.perf_counter()
    build_parser()
    print(f"grammar: {(time.perf_counter() - start) * 1e3:.0f} ms to build")
    with tempfile.TemporaryDirectory() as tmp:
        cache = str(Path(tmp) / "tables")
        build_parser(cache)  # the first start of a process writes the tables
        start = time.perf_counter()
        build_parser(cache)
        print(f"grammar: {(time.perf_counter() - start) * 1e3:.0f} ms to load from its cache")
    t2 = best_of(5, lambda: canonical(parsed.orders), 2000)
    print(f"canonical(): {t2 * 1e6:.1f} us ({len(text.splitlines())} lines)")
    print(f"a 1,000-email turn: {t * 1000:.2f} s of parsing")


if __name__ == "__main__":
    main()
