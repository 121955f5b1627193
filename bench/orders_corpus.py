"""The reader measured on fans' lines: how many it reads exactly, asks, refuses, or misreads.

Run from a checkout: .venv/bin/python bench/orders_corpus.py [PATH ...] (default:
tests/corpus/orders/train.jsonl); ``--kind=bowling`` keeps only the lines of that kind
(repeatable), ``--no-fire`` skips the fixed match, ``--in-mail`` reads each line (and its
label) after the fixture's batting order in one mail, as a line that leans on the mail's
other lines is read (a style after a place, "everyone"): a diagnostic to read by eye, as the
labels of such lines assume the writer's own batting order, not the fixture's. ``--nearest``
measures the nearest reading a refusal shows (never acted on): of the refused lines, by
label, how many show one, and of the order lines among them how many equal the label
(the suggestion would be right) and how many differ, with each line's suggestion listed.
Each PATH is a JSON-lines file of labelled lines (the writers' rows merged with their labels, see
bench/orders_corpus_merge.py and /work/wt/corpus/LABELLER.md for the keys). Each line is
read on its own, as one mail, against the Gungers (with the Blobs as opponents), in its
format.

A line is, by what the reader did and what its label expects:

- **exact**: the label is orders and the reading's Orders equal the label's canonical text's;
- **chatter right**: the label is chatter and nothing was read and nothing was an error;
- **asked**: the reader showed two readings and acted on neither;
- **refused**: the reader acted on nothing and named a word (an error quoting it), or said
  which rule the order breaks (an illegal order: "'all batsmen' needs the batting order");
- **misread silently**: anything else with no error and no question: orders acted on that
  the label does not have, or a line with meaning let pass as if it were chatter;
- **misread, noted**: the same, but the answer says on the line what pbm read past ("read
  without 'fireworks'", "passed over: '...'"), so the player sees it before the deadline; a
  noted reading that equals the label is exact (and counted in "noted" beside the figure);
- **refused, no word**: an error that quotes no word of the line.

For a conditional the label reads exactly, the rules also play a fixed match (seed 2026, the
Gungers v the Blobs on the cracked pitch), once with the line's reading and once with the
label's, and the balls on which each rule fires are compared ("fires alike").
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from engine.flungo.formats import FORMATS, Format  # noqa: E402
from engine.flungo.ground import Conditions  # noqa: E402
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders  # noqa: E402
from engine.flungo.match import MatchSetup, play_match  # noqa: E402
from engine.flungo.orders import MatchOrders, Orders  # noqa: E402
from tests.engine.orders.squad import XI, fixture_team, opponent_team  # noqa: E402

DEFAULT = ROOT / "tests" / "corpus" / "orders" / "train.jsonl"
OUTCOMES = (
    "exact",
    "chatter right",
    "asked",
    "refused",
    "misread silently",
    "misread, noted",
    "refused, no word",
    "context held out",
)
_CONTEXT = re.compile(r"(?:^|;\s*)context:")  # the label's note: it leans on other lines
_HELD_OUT = re.compile(r"\bheld-out\b")
_QUOTED = re.compile(r"(?<![\w'])'((?:[^']|'(?=\w))+)'(?!\w)")  # 'they're' too


@dataclass
class Tally:
    """Counts of outcomes, and the lines that missed (not exact or chatter right)."""

    counts: Counter[str] = field(default_factory=Counter)
    orders: int = 0  # lines labelled orders
    misses: list[tuple[str, dict[str, object], str]] = field(default_factory=list)
    fired: Counter[str] = field(default_factory=Counter)  # conditionals: alike / differ
    noted: int = 0  # exact lines read with a note (a word or a remark read past)

    def add(self, outcome: str, row: dict[str, object], said: str) -> None:
        self.counts[outcome] += 1
        if row.get("expect") == "orders":
            self.orders += 1
        if outcome == "exact" and "[" in said:
            self.noted += 1
        if outcome not in ("exact", "chatter right"):
            self.misses.append((outcome, row, said))

    @property
    def total(self) -> int:
        return sum(self.counts.values())


IN_MAIL: list[str] = []  # the lines read before each line (``--in-mail``)


def read(text: str, overs: int) -> ParsedOrders:
    """``text`` read as a whole mail in the fixture context (a fresh read every time)."""
    fmt = Format.T20 if overs == 20 else Format.FIFTY
    text = "\n".join([*IN_MAIL, text])
    return parse_orders(
        text, fixture_team(), FORMATS[fmt], context=OrderContext(opponent=opponent_team())
    )


def _names_a_word(result: ParsedOrders, text: str) -> bool:
    low = text.lower()
    for err in result.errors:
        if any(q.lower() in low for q in _QUOTED.findall(err.message)):
            return True
    return any(_QUOTED.search(n.reason) for n in result.not_understood)


def classify(row: dict[str, object], before: tuple[str, ...] = ()) -> tuple[str, str]:
    """The outcome for one labelled line, and what the reader said (echo or first error).

    ``before``: canonical lines read ahead of the line and of its label, in one mail, for a
    line whose label leans on the writer's other lines (see :func:`context_lines`).
    """
    text = str(row["text"])
    overs = int(str(row.get("format", 50)))
    head = "".join(b + "\n" for b in before)
    got = read(head + text, overs)
    expect = row.get("expect")
    if before:
        # what the reader says of the context lines is not this line's
        mine = len(before) + 1
        got = replace(
            got,
            errors=tuple(e for e in got.errors if e.span is None or e.span.line >= mine),
            not_understood=tuple(n for n in got.not_understood if n.line >= mine),
        )
    flagged = bool(got.errors or got.not_understood)
    said = got.echo_text().replace("\n", " / ")
    if got.errors:
        said = (
            "ERROR "
            + got.errors[0].message
            + (f" ({got.errors[0].hint})" if got.errors[0].hint else "")
        )
    elif got.not_understood:
        n = got.not_understood[0]
        said = "ASK " + n.reason + "".join(f" [{r}]" for r in n.readings)
    if not flagged:
        mine = len(before) + 1
        noted = [n.text for n in got.notes if n.line >= mine]
        wrong = "misread, noted" if noted else "misread silently"
        said += "".join(f" [{n}]" for n in noted)
        if expect == "orders":
            want = read(head + str(row.get("canonical", "")), overs)
            return ("exact" if got.orders == want.orders else wrong), said
        if expect == "chatter":
            alone = read("", overs).orders if IN_MAIL else Orders()
            return ("chatter right" if got.orders == alone else wrong), said
        return wrong, said
    if any(len(n.readings) >= 2 for n in got.not_understood) and not got.errors:
        return "asked", said
    if _names_a_word(got, text) or any(e.kind == "illegal" for e in got.errors):
        return "refused", said  # a word named, or a rule the order breaks, located
    return "refused, no word", said


def _setup() -> MatchSetup:
    return MatchSetup(
        Format.FIFTY, 2026, Conditions("Cracked", 5, 1), fixture_team(), opponent_team()
    )


def firing(orders: Orders, overs: int) -> tuple[tuple[int, int, str], ...]:
    """(innings, ball, rule) for every rule of ``orders`` that fires in the fixed match."""
    match = orders.match or MatchOrders()
    rules = match.rules if hasattr(match, "rules") else ()
    if not rules:
        return ()
    fmt = Format.T20 if overs == 20 else Format.FIFTY
    s = _setup()
    s = MatchSetup(fmt, s.seed, s.conditions, s.home, s.away)

    home = replace(match, xi=match.xi or XI)
    res = play_match(s, home, None)
    return tuple(
        (e.innings, e.at_ball, str(getattr(e, "rule", "")))
        for e in res.events
        if type(e).__name__ == "RuleFired" and e.team == s.home.name
    )


def context_lines(row: dict[str, object], rows: list[dict[str, object]]) -> tuple[str, ...]:
    """For a bowling line whose label leans on the writer's other lines (its note says
    "context:", e.g. "the rest"), the canonical labels of his earlier plan lines of the same
    match, which the label was computed with; ``()`` for any other line. A context line that
    is not among ``rows`` (a held-out line) is missing, and the line may then differ."""
    if row.get("kind") != "bowling" or not _CONTEXT.search(str(row.get("note", ""))):
        return ()
    return tuple(
        str(r["canonical"])
        for r in rows
        if r.get("writer") == row.get("writer")
        and r.get("kind") == "bowling"
        and r.get("expect") == "orders"
        and r.get("format") == row.get("format")
        and int(str(r["n"])) < int(str(row["n"]))
    )


def measure(
    rows: list[dict[str, object]], fire: bool = False, every: list[dict[str, object]] | None = None
) -> dict[str, Tally]:
    """Tallies per writer and ``"all"``; ``every``: the rows a line's context is taken from
    (default ``rows``)."""
    out: dict[str, Tally] = {"all": Tally()}
    for row in rows:
        before = context_lines(row, rows if every is None else every)
        outcome, said = classify(row, before)
        note = str(row.get("note", ""))
        if (
            outcome in ("misread silently", "misread, noted")
            and row.get("kind") == "bowling"
            and _CONTEXT.search(note)
            and _HELD_OUT.search(note)
        ):
            # a plan whose label was computed with held-out lines of the writer's mail ("the
            # rest" of them), which the files read do not hold: it cannot be measured here
            outcome = "context held out"
        for key in (str(row["writer"]), "all"):
            out.setdefault(key, Tally()).add(outcome, row, said)
        if fire and outcome == "exact" and row.get("kind") == "conditional":
            overs = int(str(row.get("format", 50)))
            mine = firing(read(str(row["text"]), overs).orders, overs)
            theirs = firing(read(str(row.get("canonical", "")), overs).orders, overs)
            for key in (str(row["writer"]), "all"):
                out[key].fired["alike" if mine == theirs else "differ"] += 1
    return out


def load(paths: list[Path]) -> list[dict[str, object]]:
    """Every labelled line of the files."""
    rows = []
    for p in paths:
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def report(tallies: dict[str, Tally]) -> str:
    """Per writer and overall: the outcomes, then the misses."""
    lines = []
    head = f"{'writer':<14}{'lines':>6}{'orders':>7}" + "".join(f"{o:>18}" for o in OUTCOMES)
    lines.append(head)
    for key in sorted(tallies, key=lambda k: (k == "all", k)):
        t = tallies[key]
        exact = t.counts["exact"]
        share = f"{exact}/{t.orders} = {exact / t.orders:.0%}" if t.orders else "-"
        cells = "".join(f"{t.counts[o]:>18}" for o in OUTCOMES)
        fired = f"  fires alike {t.fired['alike']}/{sum(t.fired.values())}" if t.fired else ""
        noted = f" ({t.noted} noted)" if t.noted else ""
        lines.append(f"{key:<14}{t.total:>6}{t.orders:>7}{cells}   exact {share}{noted}{fired}")
    lines.append("")
    lines.append("misses:")
    for outcome, row, said in tallies["all"].misses:
        lines.append(
            f"- [{outcome}] {row['writer']} #{row['n']} ({row.get('expect')}): {row['text']}"
        )
        want = (
            row.get("canonical")
            or " // ".join(map(str, row.get("readings", []) or []))
            or row.get("word", "")
        )  # type: ignore[call-overload]
        lines.append(f"    label: {str(want).replace(chr(10), ' / ')}")
        lines.append(f"    read:  {said}")
    return "\n".join(lines)


def nearest_report(rows: list[dict[str, object]]) -> str:
    """Of the refused lines, by label: how many show a nearest reading, and of the order
    lines, how many of those equal the label's orders ("right") or differ ("wrong")."""
    counts: Counter[str] = Counter()
    lines = []
    for row in rows:
        before = context_lines(row, rows)
        outcome, _ = classify(row, before)
        if outcome not in ("refused", "refused, no word"):
            continue
        expect = str(row.get("expect"))
        overs = int(str(row.get("format", 50)))
        head = "".join(b + "\n" for b in before)
        got = read(head + str(row["text"]), overs)
        mine = len(before) + 1
        near = next((n for n in got.nearest if n.line == mine), None)
        counts[f"{expect} refused"] += 1
        if near is None:
            continue
        counts[f"{expect} shown"] += 1
        verdict = ""
        if expect == "orders":
            shown = read(head + near.reading, overs).orders
            right = shown == read(head + str(row.get("canonical", "")), overs).orders
            verdict = "right" if right else "wrong"
            counts[f"orders {verdict}"] += 1
        lines.append(f"- [{expect} {verdict}] {row['writer']} #{row['n']}: {row['text']}")
        lines.append(f"    shown: {near.said()}")
        lines.append(f"    reads: {near.reading.replace(chr(10), ' / ')}")
        if expect == "orders":
            lines.append(f"    label: {str(row.get('canonical', '')).replace(chr(10), ' / ')}")
    head = (
        f"nearest: order lines refused {counts['orders refused']}, shown "
        f"{counts['orders shown']} (right {counts['orders right']}, wrong "
        f"{counts['orders wrong']}); lines to refuse refused {counts['refuse refused']}, "
        f"shown {counts['refuse shown']}; chatter refused {counts['chatter refused']}, shown "
        f"{counts['chatter shown']}"
    )
    return "\n".join([head, *lines])


def main(argv: list[str]) -> int:
    kinds = {a.split("=", 1)[1] for a in argv if a.startswith("--kind=")}
    paths = [Path(a) for a in argv if not a.startswith("-")] or [DEFAULT]
    rows = [r for r in load(paths) if not kinds or r.get("kind") in kinds]
    if "--in-mail" in argv:
        IN_MAIL.append("batting order: " + ", ".join(XI))
    if "--nearest" in argv:
        print(nearest_report(rows))
        return 0
    tallies = measure(rows, fire="--no-fire" not in argv)
    print(report(tallies))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
