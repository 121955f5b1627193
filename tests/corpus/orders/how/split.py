"""Set a fifth of each writer's lines aside, by a seeded shuffle, before any work on the reader.

As it was run: the writers' files in /work/wt/corpus/raw, the training lines to
/work/wt/corpus/train and the held-out fifth to /work/wt/heldout.
"""

from __future__ import annotations

import json
import pathlib
import random

ROOT = pathlib.Path("/work/wt/corpus")
HELD = pathlib.Path("/work/wt/heldout")


def main() -> None:
    """Split every writer's file: 18 of 90 held out, chosen by a shuffle seeded by the writer."""
    train = ROOT / "train"
    train.mkdir(exist_ok=True)
    HELD.mkdir(exist_ok=True)
    for f in sorted((ROOT / "raw").glob("*.jsonl")):
        rows = [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
        idx = list(range(len(rows)))
        random.Random(f"heldout:{f.stem}").shuffle(idx)
        out = set(idx[: len(rows) // 5])
        kept = (
            json.dumps(r, ensure_ascii=False) + "\n" for i, r in enumerate(rows) if i not in out
        )
        held = (json.dumps(r, ensure_ascii=False) + "\n" for i, r in enumerate(rows) if i in out)
        (train / f.name).write_text("".join(kept))
        (HELD / f.name).write_text("".join(held))
        print(f.stem, len(rows), "held out", len(out))


if __name__ == "__main__":
    main()
