"""Order-language speed: an 18-line order mail, and how soon a new process can parse one.

Run from a checkout: .venv/bin/python bench/orders.py [--mails N]

Goals (issue 10): a fresh 18-line mail parses in at most 1 ms (median), a mail of lines seen
before too; the parser is ready in a new process in well under a second. Issue 24: the answer
with its three practice innings (read the fresh mail, play its orders in three practice
matches against an opponent, write the practice's lines) in at most 15 ms on one core.

"Fresh" mails are made from a template with other names, numbers, styles and overs each time,
and each is read with a new ``Reader`` (no remembered line, mask, name look-up or parse), so
nothing a previous mail taught helps. What stays is what a process learns once for its
grammar (the lexer's regexes for each state and first character). The other figures read
with one Reader kept throughout, as pbm's App keeps one.
"With a new squad" also gives every mail a squad of names never seen, as a turn's mails from
many teams do. "A turn's mails" are what the daemon reads at a deadline (bench/_services.py's
MATCH_ORDERS and naming mails): the same lines from every seat, each naming its own squad
("Celebrity 7-1" ...), read one after another as the daemon reads them, nothing forgotten in
between. Figures are medians; on a shared machine they vary from run to run (the CPU column
less so).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from engine.dice import Dice  # noqa: E402
from engine.flungo.formats import FORMATS, Format  # noqa: E402
from engine.flungo.language import OrderContext, Reader, canonical, parse_orders  # noqa: E402
from engine.flungo.squad import Team, generate_squad  # noqa: E402
from tests.engine.orders.squad import fixture_team  # noqa: E402
from tests.engine.orders.test_fuzz import SAMPLE  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from _match_orders import MATCH_ORDERS  # type: ignore[import-not-found]  # noqa: E402

STYLES = ("aggressive", "defensive", "normal", "wahoo", "attacking", "sensible")
SURNAMES = [
    "Abbott",
    "Barker",
    "Carver",
    "Dunmore",
    "Ellery",
    "Fanshawe",
    "Gower",
    "Hatherley",
    "Ingram",
    "Jessop",
    "Kirkby",
    "Lockwood",
    "Marsden",
    "Norcott",
    "Oakley",
    "Pemberton",
    "Quaife",
    "Radley",
    "Sandham",
    "Thornton",
    "Ulyett",
    "Verity",
    "Wardle",
    "Yardley",
    "Zouch",
    "Ashby",
    "Brearley",
    "Cowdrey",
    "Denness",
    "Edrich",
    "Fletcher",
    "Gatting",
    "Hutton",
    "Illingworth",
]
FIRSTS = [
    "Alf",
    "Bert",
    "Cyril",
    "Dennis",
    "Ernest",
    "Fred",
    "George",
    "Harold",
    "Ivor",
    "Jack",
    "Ken",
    "Len",
    "Maurice",
    "Norman",
]


def fresh_mail(rng: random.Random, team: Team) -> str:
    """An 18-line mail like the sample one, with other names, numbers and styles."""
    names = [p.name for p in team.players]
    xi = rng.sample(names, 11)
    pick = rng.choice
    o = sorted(rng.sample(range(3, 50), 4))
    return "\n".join(
        [
            pick(["Hi GM,", "Hello,", "Dear GM,"]),
            "xi: " + ", ".join(xi),
            f"captain: {pick(xi)}",
            "Batting order:",
            f"1. {xi[0]} ({pick(STYLES)})",
            f"2. {xi[1]}, {xi[2]}",
            f"{xi[3]} {pick(STYLES)}",
            "",
            "Bowling:",
            f"{xi[10]} and {xi[9]} open, {xi[10]} {o[0]},{o[1]},{o[2]}-{o[3]}",
            f"After {rng.randint(5, 40)} overs, if I have lost {rng.randint(1, 6)} wickets or "
            f"less all batsmen will be {pick(STYLES)}, but will reduce to {pick(STYLES)} when "
            f"the {rng.randint(4, 9)}th wicket is lost.",
            f"with {rng.randint(6, 30)} balls left if run rate < {rng.randint(3, 9)}."
            f"{rng.randint(0, 9)} and wickets <= {rng.randint(2, 8)}: remaining batsmen "
            f"{pick(STYLES)}",
            f"bowling reviews only for {pick(xi)}",
            f"after {rng.randint(1, 20)}.{rng.randint(1, 5)} overs: {xi[8]} "
            f"{rng.randint(2, 9)}-{rng.randint(1, 6)} and {xi[7]} {rng.randint(1, 9)}.5",
            f"treat {names[17]} {rng.randint(1, 2)}",  # the one injured (fixture squad)
            f"boost {pick(xi)} {pick(['batting', 'bowling', 'fielding'])}",
            f"name {names.index(pick([n for n in names if n not in xi])) + 1}: "
            f"{pick(FIRSTS)} {pick(SURNAMES)}",
            pick(["Thanks", "Cheers", "Regards"]),
        ]
    )


def new_squad(rng: random.Random, team: Team) -> Team:
    """``team`` with 18 names it never had (two-word names for some, as squads have)."""
    surnames = rng.sample(SURNAMES, 18)
    players = []
    for i, (p, surname) in enumerate(zip(team.players, surnames, strict=True)):
        tag = chr(ord("a") + rng.randint(0, 25)) + chr(ord("a") + rng.randint(0, 25))
        name = f"{surname}{tag}" if i % 3 else f"{rng.choice(FIRSTS)} {surname}{tag}"
        players.append(replace(p, name=name))
    return replace(team, players=tuple(players))


def _medians(wall: list[float], cpu: list[float]) -> tuple[float, float]:
    return statistics.median(wall) * 1e3, statistics.median(cpu) * 1e3


def median_ms(fn: Callable[[], object], n: int) -> tuple[float, float]:
    """The median milliseconds of ``n`` calls of ``fn``: wall clock, and this process's CPU
    time (which a loaded machine inflates less)."""
    wall, cpu = [], []
    for _ in range(n):
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return _medians(wall, cpu)


def fresh_ms(mails: list[tuple[str, Team]], kept: Reader | None = None) -> tuple[float, float]:
    """The median milliseconds (wall, CPU) of reading each mail, with a new Reader for each
    (nothing remembered), or with ``kept``, as pbm's App reads every mail with its own."""
    fmt = FORMATS[Format.FIFTY]
    wall, cpu = [], []
    for text, team in mails:
        reader = kept or Reader()
        w, c = time.perf_counter(), time.process_time()
        parse_orders(text, team, fmt, reader=reader)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return _medians(wall, cpu)


def stages_ms(mails: list[tuple[str, Team]]) -> tuple[float, float]:
    """Of a fresh mail's median milliseconds (CPU), how many went to reading its lines (the
    lexer, the LALR parse and the drafts, in one pass: ``read_line``) and how many to the
    rest (cleaning, masking names, looking them up, lowering, the checks, the echo)."""
    from engine.flungo.language import _tries

    fmt = FORMATS[Format.FIFTY]
    inner = _tries.read_line
    spent = [0.0]

    def timed(masked: str, start: str, found: dict[int, str]) -> object:
        c = time.process_time()
        try:
            return inner(masked, start, found)
        finally:
            spent[0] += time.process_time() - c

    reading, rest = [], []
    _tries.read_line = timed
    try:
        for text, team in mails:
            reader = Reader()
            spent[0] = 0.0
            c = time.process_time()
            parse_orders(text, team, fmt, reader=reader)
            total = time.process_time() - c
            reading.append(spent[0])
            rest.append(total - spent[0])
    finally:
        _tries.read_line = inner
    return statistics.median(reading) * 1e3, statistics.median(rest) * 1e3


def answer_ms(mails: list[tuple[str, Team]], fmt: Format) -> tuple[float, float]:
    """The median milliseconds (wall, CPU) of a fresh mail's answer with its practice: read
    it (nothing remembered), then play its orders in the three practice matches of
    :mod:`engine.flungo.practice` against a rolled opponent and write the lines."""
    from engine.flungo.ground import Conditions
    from engine.flungo.practice import practice_lines, practice_seed, practise

    opponent = generate_squad(Dice(2), "Snodge Stars")
    ground = Conditions("The Gunge Bowl", 3, 1)
    wall, cpu = [], []
    for text, team in mails:
        reader = Reader()
        w, c = time.perf_counter(), time.process_time()
        parsed = parse_orders(text, team, FORMATS[fmt], reader=reader)
        match = parsed.orders.match
        seed = practice_seed(canonical(parsed.orders), "BENCH:1")
        practice_lines(practise(team, match, opponent, fmt, ground, seed))
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return _medians(wall, cpu)


def seat_squad(seat: int) -> tuple[Team, Team]:
    """A seat's squad as generated (placeholder names) and as its naming mail named it."""
    base = generate_squad(Dice(seat), f"Team {seat}")
    players = tuple(replace(p, name=f"Celebrity {seat}-{k}") for k, p in enumerate(base.players, 1))
    return base, replace(base, name=f"Team {seat}", players=players)


def turn_ms(seats: range, reader: Reader) -> tuple[float, float]:
    """The median milliseconds (wall, CPU) of each seat's match orders, read against its own
    squad as ``pbm.games.flungo.standing.read_mail_orders`` reads a first mail of orders."""
    fmt = Format.T20
    mails = []
    for seat in seats:
        base, team = seat_squad(seat)
        text = re.sub(r"\{(\d+)\}", rf"Celebrity {seat}-\1", MATCH_ORDERS)
        context = OrderContext(standing=None, former_names=tuple(p.name for p in base.players))
        mails.append((text, team, context))
    wall, cpu = [], []
    for text, team, context in mails:
        w, c = time.perf_counter(), time.process_time()
        parse_orders(text, team, fmt, context=context, reader=reader)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return _medians(wall, cpu)


def naming_ms(seats: range, reader: Reader) -> tuple[float, float]:
    """The median milliseconds (wall, CPU) of each seat's naming mail (its SECRET line
    aside), read against the squad as generated, as ``pbm.games.flungo.naming.read_naming`` does."""
    mails = []
    for seat in seats:
        base, _ = seat_squad(seat)
        lines = [f"TEAM NAME Team {seat}"] + [
            f"NAME {k} Celebrity {seat}-{k}" for k in range(1, 19)
        ]
        mails.append(("\n".join(lines) + "\n", base))
    wall, cpu = [], []
    for text, base in mails:
        w, c = time.perf_counter(), time.process_time()
        parse_orders(text, base, Format.T20, reader=reader)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return _medians(wall, cpu)


def in_new_process(code: str) -> str:
    """What ``code`` prints, run by a new Python in the checkout."""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


_READY = """
import time
t0 = time.perf_counter()
from engine.flungo.language import _grammar
t1 = time.perf_counter()
tables = _grammar.shipped_parser()
assert tables is not None, "orders.tables is stale: run scripts/build-order-tables"
t2 = time.perf_counter()
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import parse_orders
from tests.engine.orders.squad import fixture_team
from tests.engine.orders.test_fuzz import SAMPLE
team = fixture_team()
t3 = time.perf_counter()
parse_orders(SAMPLE, team, FORMATS[Format.FIFTY])
t4 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.0f} {(t2 - t1) * 1e3:.0f} {(t4 - t3) * 1e3:.0f}")
"""

_COLD = """
import time
from engine.flungo.language import _grammar
t0 = time.perf_counter()
_grammar.make_tables(_grammar.build_parser())
print(f"{(time.perf_counter() - t0) * 1e3:.0f}")
"""

_LARK_CACHE = """
import time
from engine.flungo.language import _grammar
t0 = time.perf_counter()
_grammar.build_parser(CACHE)
print(f"{(time.perf_counter() - t0) * 1e3:.0f}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mails", type=int, default=200, help="fresh mails to read (default 200)")
    ap.add_argument("--mails-only", action="store_true", help="skip the new-process figures")
    args = ap.parse_args()
    team = fixture_team()
    fmt = FORMATS[Format.FIFTY]
    rng = random.Random(10)
    lines = len(SAMPLE.splitlines())
    print(f"== one mail of {lines} lines (goal: at most 1 ms, median) ==")
    kept = Reader()  # the App's: kept throughout
    parse_orders(SAMPLE, team, fmt, reader=kept)
    for _ in range(20):  # a process's first mails teach the lexer its regexes
        parse_orders(fresh_mail(rng, team), team, fmt, reader=kept)
    print(f"{'':40} {'wall':>8} {'cpu':>8}")
    seen = median_ms(lambda: parse_orders(SAMPLE, team, fmt, reader=kept), 500)
    print(f"{'lines seen before (the sample mail)':40} {seen[0]:5.2f} ms {seen[1]:5.2f} ms")
    mails = [(fresh_mail(rng, team), team) for _ in range(args.mails)]
    fresh = fresh_ms(mails)
    print(f"{'fresh lines, nothing remembered':40} {fresh[0]:5.2f} ms {fresh[1]:5.2f} ms")
    app = fresh_ms([(fresh_mail(rng, team), team) for _ in range(args.mails)], kept)
    print(f"{'fresh lines, the Reader kept (as pbm)':40} {app[0]:5.2f} ms {app[1]:5.2f} ms")
    squads = [new_squad(rng, team) for _ in range(args.mails)]
    other = fresh_ms([(fresh_mail(rng, s), s) for s in squads])
    print(f"{'fresh lines, a squad never seen':40} {other[0]:5.2f} ms {other[1]:5.2f} ms")
    print(f"{'a 1,000-mail turn of fresh mails':40} {other[0]:5.2f} s  {other[1]:5.2f} s")
    reading, rest = stages_ms(mails)
    print(f"{'  of a fresh mail, reading its lines':40} {'':8} {reading:5.2f} ms")
    print(f"{'  the rest (names, lowering, checks)':40} {'':8} {rest:5.2f} ms")
    turn = turn_ms(range(1000, 1000 + args.mails), kept)
    label = "a turn's mails: same lines, own squads"
    print(f"{label:40} {turn[0]:5.2f} ms {turn[1]:5.2f} ms")
    names = naming_ms(range(3000, 3000 + args.mails), kept)
    print(f"{'  naming mails (TEAM NAME, 18 NAME)':40} {names[0]:5.2f} ms {names[1]:5.2f} ms")
    parsed = parse_orders(SAMPLE, team, fmt, reader=kept)
    lines_out = len(canonical(parsed.orders).splitlines())
    t2 = median_ms(lambda: canonical(parsed.orders), 2000)
    print(f"{f'canonical() of {lines_out} lines':40} {t2[0] * 1e3:5.1f} us {t2[1] * 1e3:5.1f} us")

    print("== the answer with its three practice innings (goal: at most 15 ms) ==")
    few = mails[: max(20, args.mails // 4)]
    for fmt in (Format.T20, Format.HUNDRED, Format.FORTY, Format.FIFTY):
        ans = answer_ms(few, fmt)
        label = f"answer + 3 practice matches, {FORMATS[fmt].title}"
        print(f"{label:40} {ans[0]:5.2f} ms {ans[1]:5.2f} ms")

    if args.mails_only:
        return
    print("== the parser in a new process (goal: ready in well under 1 s) ==")
    runs = [in_new_process(_READY).split() for _ in range(3)]
    imp, load, first = (statistics.median(float(r[i]) for r in runs) for i in range(3))
    print(f"import engine.flungo.language:         {imp:6.0f} ms")
    print(f"load the shipped tables:               {load:6.0f} ms")
    print(f"first mail read (lexer learning):      {first:6.0f} ms")
    cold = float(in_new_process(_COLD))
    print(f"no tables: build them (cold):          {cold:6.0f} ms")
    cache = Path(ROOT / ".bench-lark-cache")
    try:
        code = _LARK_CACHE.replace("CACHE", repr(str(cache)))
        in_new_process(code)  # writes it
        lark_cache = float(in_new_process(code))
    finally:
        cache.unlink(missing_ok=True)
    print(f"lark's own cache (as before):          {lark_cache:6.0f} ms")


if __name__ == "__main__":
    main()
