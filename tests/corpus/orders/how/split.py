"""Set a fifth of each writer's lines aside, by a seeded shuffle, before any work on the reader."""
import json, random, pathlib
root = pathlib.Path("/work/wt/corpus")
train = root / "train"; train.mkdir(exist_ok=True)
held = pathlib.Path("/work/wt/heldout"); held.mkdir(exist_ok=True)
all_held = []
for f in sorted((root / "raw").glob("*.jsonl")):
    rows = [json.loads(l) for l in f.read_text().splitlines() if l.strip()]
    idx = list(range(len(rows)))
    random.Random(f"heldout:{f.stem}").shuffle(idx)
    k = len(rows) // 5
    out = set(idx[:k])
    (train / f.name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for i, r in enumerate(rows) if i not in out))
    (held / f.name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for i, r in enumerate(rows) if i in out))
    print(f.stem, len(rows), "held out", k)
