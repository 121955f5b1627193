"""Check labelled corpus lines: every canonical text (and every reading of an "ask") must read
with no errors and round-trip through canonical().

Run from a checkout:
  .venv/bin/python tests/corpus/orders/how/fresh/verify_labels.py LABELS.jsonl
  .venv/bin/python tests/corpus/orders/how/fresh/verify_labels.py --text "after 20 overs, ..."
  (add --format 20 for a twenty-over line)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[5]))  # run from a checkout

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, canonical, parse_orders
from tests.engine.orders.squad import fixture_team, opponent_team


def check(text: str, overs: int) -> list[str]:
    """Problems with ``text`` as a canonical text (empty: it reads and round-trips)."""
    fmt = Format.T20 if overs == 20 else Format.FIFTY
    got = parse_orders(
        text, fixture_team(), FORMATS[fmt], context=OrderContext(opponent=opponent_team())
    )
    problems = [f"error: {e.message}" for e in got.errors]
    problems += [f"not understood: {n.reason} {list(n.readings)}" for n in got.not_understood]
    back = canonical(got.orders)
    if back.strip() != text.strip():
        problems.append(f"round trip differs: {back!r}")
    return problems


KEYS = {"writer", "n", "kind", "format", "text", "meaning", "expect"}
EXPECTS = {"orders", "chatter", "ask", "refuse"}


def check_row(row: dict[str, object]) -> list[str]:
    problems = [f"missing key {k}" for k in KEYS if k not in row]
    expect = row.get("expect")
    overs = int(str(row.get("format", 50)))
    if expect not in EXPECTS:
        return [*problems, f"bad expect {expect!r}"]
    if expect == "orders":
        canon = str(row.get("canonical", ""))
        if "canonical" not in row:
            problems.append("orders with no canonical key")
        elif not canon and not row.get("note"):
            problems.append("empty orders canonical needs a note saying why")
        else:
            problems += check(canon, overs)  # "" must read to nothing as well
    elif expect == "chatter":
        if row.get("canonical", "") != "":
            problems.append("chatter with a canonical")
    elif expect == "ask":
        readings = row.get("readings") or []
        if not isinstance(readings, list) or len(readings) != 2:
            problems.append("ask needs two readings")
        for r in readings:
            problems += [f"reading {r!r}: {p}" for p in check(str(r), overs)]
        if len(set(map(str, readings))) != len(readings):
            problems.append("readings are the same")
        if not row.get("why"):
            problems.append("ask with no why")
    elif expect == "refuse":
        if not row.get("why") or not row.get("word"):
            problems.append("refuse needs why and word")
        elif str(row["word"]).lower() not in str(row["text"]).lower():
            parts = [w.strip() for w in str(row["word"]).split(";")]
            missing = [w for w in parts if w.lower() not in str(row["text"]).lower()]
            if missing:
                problems.append(f"word not in text: {missing}")
    return problems


def main(argv: list[str]) -> int:
    if "--text" in argv:
        text = argv[argv.index("--text") + 1]
        overs = int(argv[argv.index("--format") + 1]) if "--format" in argv else 50
        fmt = Format.T20 if overs == 20 else Format.FIFTY
        got = parse_orders(
            text, fixture_team(), FORMATS[fmt], context=OrderContext(opponent=opponent_team())
        )
        print(canonical(got.orders))
        for e in got.errors:
            print("ERROR", e.message)
        for n in got.not_understood:
            print("NOT UNDERSTOOD", n.reason, list(n.readings))
        return 0
    bad = 0
    total = 0
    for path in argv:
        for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            total += 1
            row = json.loads(line)
            problems = check_row(row)
            if problems:
                bad += 1
                print(f"{path}:{i} {row.get('writer')} #{row.get('n')}:")
                for p in problems:
                    print("   ", p)
    print(f"{total} lines, {bad} with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
