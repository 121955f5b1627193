"""Order-reader speed in the worst case: hostile mails at the line limit, in ms a line.

Run from a checkout: .venv/bin/python bench/orders_worst.py [--lines N] [--profile FORM]

Issue 24 asks that no line cost more than about half a millisecond, whatever a sender
writes. Each form below is a mail of ``--lines`` lines (default 399, the most a mail may
have: ``pbm.mail.limits.MAX_LINES``) read once with a new ``Reader`` (nothing remembered
from another mail), against two squads: the fixture's named one, and a squad as generated
(placeholder names, "Star Batsman 1", which the reader only takes when written exactly, so
a broken line is searched for near misses of them). The figure is CPU time
(``time.process_time``) a line, the best of ``--repeat`` reads (the least disturbed by
others' work on a shared machine). The process has read one mail before, so the one-time
costs of a process (loading the parser tables, lark's own parser for an error's
expectations) are not counted: the daemon pays them once.

A mail reads at most 100,000 characters of lines (``_bounds.MAIL_TEXT``): a long form's
lines past the fiftieth are refused unread, so its figure a line is the first fifty lines'
work over all of them (``bench/orders_hostile.py`` measures the hostile forms a mail).

Forms: the same refused line many times; many different refused lines (no memo helps);
long lines (unknown words, names, near misses of names, numbers) up to the reader's
``MAX_LINE_LENGTH``; lines of chatter; the sample mail's own lines.

``--profile FORM`` prints cProfile's top functions for that form instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from engine.dice import Dice  # noqa: E402
from engine.flungo.formats import FORMATS, Format  # noqa: E402
from engine.flungo.language import MAX_LINE_LENGTH, Reader, parse_orders  # noqa: E402
from engine.flungo.squad import Team, generate_squad  # noqa: E402
from tests.engine.orders.squad import fixture_team  # noqa: E402
from tests.engine.orders.test_fuzz import SAMPLE  # noqa: E402

_WORDS = [
    "zorp",
    "blib",
    "quandle",
    "frim",
    "the",
    "gonk",
    "and",
    "wibble",
    "to",
    "spanner",
    "of",
    "flerb",
]


def _long(rng: random.Random, pick: Callable[[random.Random], str]) -> str:
    """A line of words from ``pick`` up to the reader's longest line."""
    words: list[str] = []
    size = 0
    while size < MAX_LINE_LENGTH - 40:
        w = pick(rng)
        words.append(w)
        size += len(w) + 1
    return " ".join(words)


def _typo(rng: random.Random, name: str) -> str:
    """``name`` with one letter changed (a near miss)."""
    i = rng.randrange(len(name))
    return name[:i] + rng.choice("aeioux") + name[i + 1 :]


def forms(team: Team, lines: int) -> dict[str, list[str]]:
    """Each hostile form as its mail's lines, for ``team``'s names."""
    rng = random.Random(24)
    names = [p.name for p in team.players]
    first = names[0].split()[-1]
    out: dict[str, list[str]] = {
        "same refused line": [f"BAT {first} aggressive"] * lines,
        "refused lines, each new": [
            f"BAT {first} {rng.choice(_WORDS)}{i} aggressive after {i} overs" for i in range(lines)
        ],
        "near misses, each new": [
            f"{_typo(rng, rng.choice(names))} bats {rng.choice(['aggressive', 'wahoo'])} "
            f"and {_typo(rng, rng.choice(names))} bowls overs {i % 40 + 1}, {i % 40 + 3}"
            for i in range(lines)
        ],
        "unknown words, long": [
            _long(rng, lambda r: r.choice(_WORDS) + str(r.randrange(100))) for _ in range(lines)
        ],
        "names, long": [_long(rng, lambda r: r.choice(names)) for _ in range(lines)],
        "near misses, long": [
            _long(rng, lambda r: _typo(r, r.choice(names))) for _ in range(lines)
        ],
        "numbers and styles, long": [
            _long(rng, lambda r: r.choice([str(r.randrange(50)), "aggressive", "overs", "if"]))
            for _ in range(lines)
        ],
        "orders, long": [
            _long(
                rng,
                lambda r: (
                    f"after {r.randrange(50)} overs {r.choice(names)} "
                    f"{r.choice(['aggressive', 'defensive'])},"
                ),
            )
            for _ in range(lines)
        ],
        "chatter": [f"Come on you Chutneys!! Great win everyone {i}!" for i in range(lines)],
    }
    sample = [line for line in SAMPLE.splitlines() if line.strip()]
    out["the sample mail's lines"] = (sample * lines)[:lines]
    return out


def squads() -> dict[str, Team]:
    """The squads each form is read against."""
    return {"named": fixture_team(), "as generated": generate_squad(Dice(2), "Snodge Stars")}


def per_line_ms(text: str, team: Team, lines: int, repeat: int) -> float:
    """The least CPU milliseconds a line over ``repeat`` reads, each with a new Reader."""
    fmt = FORMATS[Format.FIFTY]
    best = float("inf")
    for _ in range(repeat):
        c = time.process_time()
        parse_orders(text, team, fmt, reader=Reader())
        best = min(best, time.process_time() - c)
    return best * 1e3 / lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=399, help="lines a mail (default 399)")
    ap.add_argument("--repeat", type=int, default=3, help="reads of each mail (default 3)")
    ap.add_argument("--profile", metavar="FORM", help="profile this form (a name's start)")
    args = ap.parse_args()
    teams = squads()
    for team in teams.values():  # the process's one-time costs, as the daemon pays them once
        parse_orders(SAMPLE + "\nBAT Zorp wahoo\nStar Batsmen 1 bats", team, FORMATS[Format.T20])
    if args.profile:
        for squad, team in teams.items():
            for name, lines in forms(team, args.lines).items():
                if name.startswith(args.profile):
                    text = "\n".join(lines)
                    print(f"== {name}, squad {squad} ==")
                    prof = cProfile.Profile()
                    prof.runcall(parse_orders, text, team, FORMATS[Format.FIFTY], reader=Reader())
                    pstats.Stats(prof).sort_stats("cumtime").print_stats(30)
        return
    print(f"== ms a line (CPU, best of {args.repeat}), mails of {args.lines} lines ==")
    print(f"{'form':<28}" + "".join(f"{s:>14}" for s in teams))
    worst = 0.0
    by_team = {s: forms(t, args.lines) for s, t in teams.items()}
    for name in by_team["named"]:
        row = []
        for squad, team in teams.items():
            ms = per_line_ms("\n".join(by_team[squad][name]), team, args.lines, args.repeat)
            worst = max(worst, ms)
            row.append(ms)
        print(f"{name:<28}" + "".join(f"{ms:>11.3f} ms" for ms in row))
    print(f"{'the worst':<28}{worst:>11.3f} ms  (goal: about 0.5 ms)")


if __name__ == "__main__":
    main()
