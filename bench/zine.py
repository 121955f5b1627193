"""Bench the zine: one 16-team league turn with 8 matches rendered to HTML, text and PDF, and
the whole archive of a 30-turn season rebuilt (issue 11's budgets: 100 ms, 50 ms, 0.5 s, 20 s).

Run: ``.venv/bin/python bench/zine.py [--repeat N]``. Prints figures; asserts nothing. The
season is played once up front (that is the engine's cost, not the zine's) and, like
``pbm zine build``, the archive is timed from the stored JSON of its reports.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from engine.flungo.turn import TurnReport
from pbm.games.flungo.zine.archive import build_archive
from pbm.games.flungo.zine.demo import demo_season
from pbm.games.flungo.zine.model import build_issue
from pbm.games.flungo.zine.render import issue_html, issue_pdf, issue_text


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``repeat`` calls (after one warm-up). CPU time is
    printed too because the 2-core machines are shared: under load wall time inflates."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def ms(figures: tuple[float, float]) -> str:
    """``12.3 ms (cpu 11.0 ms)``."""
    return f"{figures[0] * 1000:7.1f} ms (cpu {figures[1] * 1000:6.1f} ms)"


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    t = time.perf_counter()
    reports = demo_season(16, code="BENCH", stages=30)
    print(
        f"played a 16-team season's first {len(reports)} stages in {time.perf_counter() - t:.1f} s"
    )
    # the busiest turn: the one that finishes the most matches (all eight)
    k = max(range(len(reports)), key=lambda i: sum(m.seed is not None for m in reports[i].matches))
    rep = reports[k]
    print(f"turn: {rep.stage}, {len(rep.matches)} matches")
    model = timed(lambda: build_issue(rep, reports[:k], code="BENCH"), args.repeat)
    issue = build_issue(rep, reports[:k], code="BENCH")
    html = timed(lambda: issue_html(issue), args.repeat)
    text = timed(lambda: issue_text(issue), args.repeat)
    pdf = timed(lambda: issue_pdf(issue), args.repeat)
    size = len(issue_pdf(issue)) // 1024
    print(f"issue model:  {ms(model)}")
    print(f"HTML issue:   {ms(html)}  budget 100 ms")
    print(f"text issue:   {ms(text)}  budget 50 ms")
    print(f"PDF issue:    {ms(pdf)}  budget 500 ms; {size} KiB")
    stored = [json.dumps(r.to_json()) for r in reports]
    with tempfile.TemporaryDirectory() as out:
        t, c = time.perf_counter(), time.process_time()
        loaded = [TurnReport.from_json(json.loads(s)) for s in stored]
        load = time.perf_counter() - t
        result = build_archive([("BENCH", loaded)], Path(out))
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        (Path(out) / result.issues[-1].pdf_href).unlink()  # the newest turn's issue is new
        t, c = time.perf_counter(), time.process_time()
        build_archive([("BENCH", loaded)], Path(out))
        wall2, cpu2 = time.perf_counter() - t, time.process_time() - c
    print(
        f"archive:      {wall:7.2f} s  (cpu {cpu:.2f} s)  budget 20 s; {len(result.issues)} "
        f"issues, {len(result.files)} files (reading the reports {load:.2f} s)"
    )
    print(f"rebuild after one more turn (other PDFs kept): {wall2:.2f} s (cpu {cpu2:.2f} s)")
    print(
        f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
