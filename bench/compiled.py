"""The engine's hot paths compiled, against the same tree pure (issue 28, the orders floor):
every reading and roll checked the same first, then the engine's floor rows alternated.

    .venv/bin/python bench/compiled.py [--set reader,ball] [--rounds 3] [--mails 80]
        [--dir DIR] [--cython PYTHON] [--corpus]

Two copies of the committed tree (``git archive HEAD``) are made under DIR (a new temporary
folder unless given; an existing copy is reused, so a second run skips the build). One stays
pure. In the other the chosen modules are compiled in place, with mypyc (it ships with the
mypy of the test extras) or, given ``--cython PYTHON`` (an interpreter that has Cython), with
Cython; the build's time is printed. mypyc needs the four edits of
``bench/compiled_mypyc.patch`` first, none of which changes a reading or a roll:

- a dataclass compiled by mypyc keeps its field types erased to their runtime classes
  (``tuple``, not ``tuple[str, ...]``), and the codec (``engine/flungo/codec.py``) reads a
  match state back from those hints: ``InningsState`` and ``Side`` move to a module left pure;
- the classes the order tables pickle (``_lalr``'s parser, its lexers, builders and
  ``Meta``) stay ordinary Python classes (``native_class=False``): a native class is made
  through its ``__init__`` when unpickled, and the parser's reads ``__dict__``;
- two ``reversed()`` over a ``list[Any]`` (an internal error of mypyc 2.4) and one
  chained assignment in a class body (not supported) are written another way.

The checks, before any timing: the compiled modules are the ones loaded; a digest of the
orders read from every fresh mail and of their practice lines is the same in both copies;
with ``--corpus``, the output of ``bench/orders_corpus.py --no-fire`` on each file of
``tests/corpus/orders`` is the same, byte for byte. Then, per round and per copy, in a
process of its own, CPU ms (``time.process_time``; the least of three passes of the median
over the mails): a fresh 18-line mail read with a new ``Reader`` (nothing remembered); the
same with one ``Reader`` kept, as pbm's App keeps one; the answer (a fresh read and the three
practice innings, T20, with their lines); the practice alone. The load average is printed
beside every row. Results: ``bench/RESULTS.md``, "The engine compiled".
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATCH = ROOT / "bench" / "compiled_mypyc.patch"
_L = "engine/flungo/language/"
SETS = {
    # the ball loop and what it calls per ball, with the practice that plays it
    "ball": [
        "engine/dice.py",
        "engine/flungo/ball.py",
        "engine/flungo/innings.py",
        "engine/flungo/match.py",
        "engine/flungo/practice.py",
    ],
    # the reader's hot modules, by a profile of bench/orders.py --mails-only
    "reader": [
        _L + m
        for m in (
            "_lalr.py",
            "_transform.py",
            "_lines.py",
            "_read.py",
            "_reader.py",
            "_canonical.py",
            "_lower.py",
            "_checks.py",
            "_expand.py",
            "_state.py",
        )
    ],
    # every module of the reader but the grammar's build and its tables' pickling: it compiles
    # to one C file of 40 MB, which gcc takes longer than a session to build (RESULTS.md)
    "language": [
        "engine/lookalike.py",
        *sorted(
            f"{_L}{p.name}"
            for p in (ROOT / _L).glob("_*.py")
            if p.name not in ("__init__.py", "_tables.py", "_grammar.py", "_build.py")
        ),
    ],
}

_CHILD = r"""
import hashlib, random, statistics, sys, time
from pathlib import Path
root, n = sys.argv[1], int(sys.argv[2])
sys.path[:0] = [root, root + "/bench"]
import orders as b
import engine.flungo.innings, engine.flungo.language._lalr
from engine.dice import Dice
from engine.flungo.formats import FORMATS, Format
from engine.flungo.ground import Conditions
from engine.flungo.language import Reader, canonical, parse_orders
from engine.flungo.practice import practice_lines, practice_seed, practise
from engine.flungo.squad import generate_squad
assert b.ROOT == Path(root).resolve(), (b.ROOT, root)  # this tree, not the checkout
compiled = sorted(
    name for name, m in sys.modules.items()
    if name.startswith("engine") and (getattr(m, "__file__", "") or "").endswith(".so")
)
rng = random.Random(7)
team = b.fixture_team()
mails = [(b.fresh_mail(rng, team), team) for _ in range(n)]
kept = Reader()
for text, tm in mails[:20]:
    parse_orders(text, tm, FORMATS[Format.FIFTY], reader=kept)
opponent = generate_squad(Dice(2), "Snodge Stars")
ground = Conditions("The Gunge Bowl", 3, 1)
digest = hashlib.sha256()
cases = []
for text, tm in mails:
    read = parse_orders(text, tm, FORMATS[Format.T20], reader=Reader())
    digest.update(repr(read).encode())
    cases.append((tm, read.orders.match, practice_seed(canonical(read.orders), "BENCH:1")))
for tm, match, seed in cases:
    digest.update(repr(practise(tm, match, opponent, Format.T20, ground, seed)).encode())
def practice_ms():
    cpu = []
    for tm, match, seed in cases:
        c = time.process_time()
        practice_lines(practise(tm, match, opponent, Format.T20, ground, seed))
        cpu.append(time.process_time() - c)
    return statistics.median(cpu) * 1e3
rows = {
    "fresh": lambda: b.fresh_ms(mails)[1],
    "kept": lambda: b.fresh_ms(mails, kept)[1],
    "answer-T20": lambda: b.answer_ms(mails, Format.T20)[1],
    "practice-T20": practice_ms,
}
if n == 0 or "--check" in sys.argv:
    print("digest=" + digest.hexdigest()[:16], "compiled=" + ",".join(compiled))
else:
    print(" ".join(f"{k}={min(f() for _ in range(3)):.3f}" for k, f in rows.items()))
"""


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _copy(into: Path) -> None:
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "HEAD"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def build(tree: Path, modules: list[str], cython: str | None) -> float:
    """Compile ``modules`` in place in ``tree``; the seconds it took."""
    t0 = time.perf_counter()
    if cython:
        script = (
            "import sys\nfrom setuptools import Extension, setup\n"
            "from Cython.Build import cythonize\n"
            "mods = sys.argv[1].split(',')\nsys.argv[1:] = ['build_ext', '--inplace']\n"
            "setup(name='c', py_modules=[], ext_modules=cythonize([Extension(m[:-3]"
            ".replace('/', '.'), [m]) for m in mods], language_level=3, quiet=True))\n"
        )
        # setup() would read the project's pyproject.toml: this is no build of pbm
        for name in ("pyproject.toml", "setup.py"):
            (tree / name).rename(tree / (name + ".off"))
        python = cython
    else:
        subprocess.run(["git", "apply", str(PATCH)], cwd=tree, check=True)
        script = (
            "import sys\nfrom setuptools import setup\nfrom mypyc.build import mypycify\n"
            "mods = sys.argv[1].split(',')\nsys.argv[1:] = ['build_ext', '--inplace']\n"
            "setup(name='c', py_modules=[], ext_modules=mypycify(mods, opt_level='3'))\n"
        )
        python = sys.executable
    done = subprocess.run(
        [python, "-c", script, ",".join(modules)], cwd=tree, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"the build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return time.perf_counter() - t0


def child(tree: Path, mails: int, *flags: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tree), str(mails), *flags],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.exit(f"{tree}: {done.stderr[-3000:]}")
    return done.stdout.strip()


def corpus(tree: Path) -> dict[str, str]:
    """Each corpus file's ``orders_corpus.py --no-fire`` output, read in ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = {}
    for path in sorted((tree / "tests/corpus/orders").glob("*.jsonl")):
        out[path.name] = subprocess.run(
            [sys.executable, "bench/orders_corpus.py", "--no-fire", str(path.relative_to(tree))],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="reader,ball", help=f"modules: {', '.join(SETS)}")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mails", type=int, default=80)
    ap.add_argument("--dir", type=Path, help="where the two copies go (reused if there)")
    ap.add_argument("--cython", metavar="PYTHON", help="compile with Cython, run by PYTHON")
    ap.add_argument("--corpus", action="store_true", help="compare the corpus outputs too")
    args = ap.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="pbm-compiled-"))
    pure, fast = base / "pure", base / ("cython" if args.cython else "mypyc")
    if not pure.exists():
        _copy(pure)
    if not fast.exists():
        _copy(fast)
        modules = [m for name in args.set.split(",") for m in SETS[name]]
        seconds = build(fast, sorted(set(modules)), args.cython)
        print(f"built {len(set(modules))} modules in {seconds:.0f} s (load {_load()})")
    a, b = child(pure, args.mails, "--check"), child(fast, args.mails, "--check")
    print(f"pure:     {a}\ncompiled: {b}")
    if a.split()[0] != b.split()[0] or b.endswith("compiled="):
        sys.exit("the readings or rolls differ, or nothing compiled was loaded")
    if args.corpus:
        same = corpus(pure) == corpus(fast)
        print("corpus outputs:", "identical" if same else "DIFFERENT")
        if not same:
            sys.exit(1)
    print("CPU ms, least of three passes of the median over the mails")
    for r in range(1, args.rounds + 1):
        for name, tree in (("pure", pure), ("compiled", fast)):
            load = _load()
            print(f"round {r} {name:9} {child(tree, args.mails)}  load {load}", flush=True)


if __name__ == "__main__":
    main()
