"""Merge the corpus writers' training lines with their labels into one file.

Run from a checkout: .venv/bin/python bench/orders_corpus_merge.py RAW_DIR LABEL_DIR OUT
(RAW_DIR holds the writers' ``*.jsonl``; LABEL_DIR the labellers' ``train-*.jsonl``). A line
with no label yet is left out, so the measure is only ever on labelled lines.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def merge(raw_dir: Path, label_dir: Path) -> list[dict[str, object]]:
    """Each labelled line: the writer's row (text, kind, meaning) with its label's keys."""
    labels: dict[tuple[str, int], dict[str, object]] = {}
    for f in sorted(label_dir.glob("train-*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                labels[(row["writer"], int(row["n"]))] = row
    out = []
    for f in sorted(raw_dir.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            label = labels.get((row["writer"], int(row["n"])))
            if label is None:
                continue
            merged = dict(row)
            for key in ("expect", "canonical", "readings", "why", "word", "note"):
                if key in label:
                    merged[key] = label[key]
            out.append(merged)
    return out


def main(argv: list[str]) -> int:
    rows = merge(Path(argv[0]), Path(argv[1]))
    Path(argv[2]).write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    print(f"{len(rows)} labelled lines -> {argv[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
