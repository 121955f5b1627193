"""How long a full deck build takes, and how big the decks are.

python bench/decks_build.py [CRICSHEET_DIR]      (default ../shared/cricsheet)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pbm.games.hitforsix.decks.build import build_decks


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/cricsheet")
    started = time.perf_counter()
    report = build_decks(root)
    elapsed = time.perf_counter() - started
    print(f"{report.matches_read} matches read in {elapsed:.1f} s")
    total = 0
    for name, built in report.decks.items():
        total += len(built.data)
        print(f"{name:12} {len(built.file.cards):5} cards {len(built.data):7} bytes  {built.build}")
    print(f"{'total':12} {total:19} bytes")


if __name__ == "__main__":
    main()
