"""Print how long parse_message takes per golden-corpus message (the daemon's intake cost).

Run from the repository root: PYTHONPATH=. python bench/parse_mail.py [ROUNDS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pbm.mail.parse import parse_message

CORPUS = Path(__file__).parents[1] / "tests" / "data" / "eml"


def main(rounds: int) -> None:
    mails = [(p.stem, p.read_bytes()) for p in sorted(CORPUS.glob("*.eml"))]
    total = 0.0
    for name, raw in mails:
        start = time.perf_counter()
        for _ in range(rounds):
            parse_message(raw, own_addresses=("pbm@example.org",))
        elapsed = (time.perf_counter() - start) / rounds
        total += elapsed
        print(f"{name:24s} {elapsed * 1e3:7.3f} ms")
    print(f"{'mean':24s} {total / len(mails) * 1e3:7.3f} ms  ({len(mails) / total:,.0f} mails/s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
