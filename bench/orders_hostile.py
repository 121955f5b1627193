"""The orders reader's worst cases: hostile mails, CPU ms a mail and the work counted.

Run from a checkout: .venv/bin/python bench/orders_hostile.py [--lines N] [--only TEXT]

Each form is a mail of ``--lines`` different lines (default 10; a mail may have 400,
``pbm.mail.limits.MAX_LINES``), each line as long as the reader reads
(``MAX_LINE_LENGTH``) unless the form is about something else, read once with a new
``Reader`` against the fixture's squad (the Blobs as opponents). Printed: CPU ms for the
mail (``time.process_time``, one read: what a sender can make the daemon spend), ms a line,
and the Reader's ``Work`` (parses run, the most for one line, readings tried), where the
checkout's Reader counts it. The worst form is printed last. No timing is asserted
anywhere: ``tests/engine/orders/test_a_hostile_line_is_read_within_its_budget.py`` pins
the bound by counting.

Forms: long lines of unknown words, of names (one name again and again: its first word
starts an opponent's name too), of near misses, of clauses and commas, of
conditions ("if ... if ..."), "and then ... then", brackets, numbers, full stops and
semicolons between orders, asides; Unicode oddities (combining marks, right-to-left
overrides, zero-width spaces, fullwidth digits, emoji); a run of blanks; a mail of 5,000
short lines (the intake refuses any mail over 400 lines before the reader: this is the
reader alone); one line of a megabyte.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from engine.flungo.formats import FORMATS, Format  # noqa: E402
from engine.flungo.language import MAX_LINE_LENGTH, OrderContext, Reader, parse_orders  # noqa: E402
from tests.engine.orders.squad import fixture_team, opponent_team  # noqa: E402

_UNKNOWN = ["zorp", "blib", "quandle", "frim", "gonk", "wibble", "spanner", "flerb"]
_STYLES = ["aggressive", "defensive", "wahoo", "normal"]

Line = Callable[[random.Random, list[str]], str]


def _many(sep: str, piece: Callable[[random.Random, list[str], int], str]) -> Line:
    """A line of pieces joined by ``sep``, up to the longest line the reader reads."""

    def line(rng: random.Random, names: list[str]) -> str:
        out: list[str] = []
        size, i = 0, 0
        while size < MAX_LINE_LENGTH:
            p = piece(rng, names, i)
            out.append(p)
            size += len(p) + len(sep)
            i += 1
        return sep.join(out)[:MAX_LINE_LENGTH]

    return line


def _typo(rng: random.Random, name: str) -> str:
    i = rng.randrange(len(name))
    return name[:i] + rng.choice("aeioux") + name[i + 1 :]


def _word(rng: random.Random) -> str:
    return rng.choice(_UNKNOWN) + str(rng.randrange(1000))


FORMS: dict[str, Line] = {
    "unknown words": _many(" ", lambda r, n, i: _word(r)),
    "an order, then unknown words": lambda r, n: (
        f"{n[0]} bats aggressive " + _many(" ", lambda r, n, i: r.choice(_UNKNOWN))(r, n)
    )[:MAX_LINE_LENGTH],
    "names": _many(" ", lambda r, n, i: r.choice(n)),
    "near misses of names": _many(" ", lambda r, n, i: _typo(r, r.choice(n))),
    "Joe Root again and again, a word": lambda r, n: ("Joe Root " * 222)[:1980] + " " + _word(r),
    "name, unknown word": _many(" ", lambda r, n, i: f"{r.choice(n)} {_word(r)}"),
    "commas: name, unknown": _many(", ", lambda r, n, i: f"{r.choice(_UNKNOWN)} {r.choice(n)}"),
    "commas: orders": _many(", ", lambda r, n, i: f"{r.choice(n)} {r.choice(_STYLES)}"),
    "clauses: if N down, unknown": _many(
        ", ", lambda r, n, i: f"if {r.randrange(9)} down {r.choice(_UNKNOWN)}"
    ),
    "if ... if ... if": lambda r, n: (
        _many(" ", lambda r, n, i: f"if {r.randrange(9)} down")(r, n)[: MAX_LINE_LENGTH - 30]
        + f" {n[1]} aggressive"
    ),
    "if, unknown": _many(" ", lambda r, n, i: f"if {_word(r)}"),
    "and then ... then": lambda r, n: (
        f"{n[0]} bats "
        + _many(" and then ", lambda r, n, i: r.choice(_STYLES))(r, n)[: MAX_LINE_LENGTH - 30]
    ),
    "then, unknown": _many(" then ", lambda r, n, i: r.choice(_UNKNOWN)),
    "not, unknown": _many(" ", lambda r, n, i: f"not {_word(r)}"),
    "full stops between orders": _many(
        ". ", lambda r, n, i: f"{r.choice(n)} {r.choice(['aggressive', 'zorp'])}"
    ),
    "semicolons between orders": _many(
        "; ", lambda r, n, i: f"{r.choice(n)} {r.choice(['aggressive', 'zorp'])}"
    ),
    "conditional orders": _many(
        " ",
        lambda r, n, i: (
            f"if {r.randrange(9)} down after {r.randrange(40)} overs {r.choice(n)} "
            f"{r.choice(['aggressive', 'zorpy'])},"
        ),
    ),
    "asides": _many(
        ", ", lambda r, n, i: f"{r.choice(n)} must content himself with {r.choice(_UNKNOWN)}"
    ),
    "typos of order words": _many(
        " ", lambda r, n, i: r.choice(["agressive", "defensve", "bowsl", "overz", "captian"])
    ),
    "brackets": lambda r, n: "[{(" * 300 + n[0] + " aggressive" + ")}]" * 300,
    "numbers": lambda r, n: (
        f"{n[2]} bowls overs " + _many(", ", lambda r, n, i: str(r.randrange(60)))(r, n)
    )[:MAX_LINE_LENGTH],
    "combining marks": lambda r, n: f"{n[0]} a" + "\u0301" * 1980 + "ggressive",
    "right-to-left overrides": _many(" ", lambda r, n, i: f"\u202e{r.choice(n)} aggressive"),
    "zero-width spaces": lambda r, n: n[0] + "\u200b" * 1980 + " aggressive",
    "fullwidth digits": lambda r, n: (
        f"{n[2]} bowls overs " + _many(", ", lambda r, n, i: "１２")(r, n)
    )[:MAX_LINE_LENGTH],
    "emoji (10,000: too long)": lambda r, n: f"{n[0]} " + "😀" * 10_000 + " aggressive",
    "a run of blanks": lambda r, n: n[0] + " " * 1900 + "ag",
}


def mail(form: Line, lines: int, names: list[str]) -> str:
    """``lines`` different lines of ``form``."""
    return "\n".join(form(random.Random(k), names) for k in range(lines))


def read(text: str) -> tuple[float, str]:
    """CPU ms to read ``text`` with a new Reader, and its Work (if the checkout counts it)."""
    reader = Reader()
    c = time.process_time()
    parse_orders(
        text,
        fixture_team(),
        FORMATS[Format.FIFTY],
        context=OrderContext(opponent=opponent_team()),
        reader=reader,
    )
    ms = (time.process_time() - c) * 1e3
    work = getattr(reader, "work", None)
    if work is None:
        return ms, "-"
    return ms, f"{work.parses} parses (most {work.most_parses}), {work.readings} readings"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10, help="lines a mail (default 10)")
    ap.add_argument("--only", default="", help="only the forms whose name holds this")
    args = ap.parse_args()
    names = [p.name for p in fixture_team().players]
    read("BAT Zorp wahoo\nRoot aggressive")  # the process's one-time costs, paid once
    print(f"== CPU ms a mail of {args.lines} lines (one read each, a new Reader) ==")
    print(f"{'form':<34}{'ms a mail':>11}{'ms a line':>11}  work")
    worst = ("", 0.0)
    extra = {
        "5,000 short lines (reader alone)": "\n".join(
            f"{names[k % 11]} {random.Random(k).choice(_UNKNOWN)}{k}" for k in range(5000)
        ),
        "one line of a megabyte": "Root aggressive " * 65_536,
    }
    for name, form in FORMS.items():
        if args.only in name:
            ms, work = read(mail(form, args.lines, names))
            worst = max(worst, (name, ms), key=lambda w: w[1])
            print(f"{name:<34}{ms:>11.1f}{ms / args.lines:>11.2f}  {work}", flush=True)
    for name, text in extra.items():
        if args.only in name:
            ms, work = read(text)
            n = text.count("\n") + 1
            print(f"{name:<34}{ms:>11.1f}{ms / n:>11.2f}  {work}", flush=True)
    print(f"the worst form: {worst[0]}, {worst[1]:.0f} ms a mail of {args.lines} lines")


if __name__ == "__main__":
    main()
