"""What the spool's import costs after a long pass let many large mails pile up (review
finding 4): ``--count`` spooled mails of ``--size`` bytes each are imported until the spool
is empty, in a fresh process (its peak RSS is the import's). Prints the wall and CPU time
of the whole drain, the longest single import call (how long a pass's import held the
write lock at most, once a batch is bounded), the calls it took, the peak RSS and the load.

    python bench/spool_import.py --count 500 --size 1048576
    PYTHONPATH=/path/to/an/older/tree python bench/spool_import.py  # the same, before

The filling runs in its own process, so that its memory does not count.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("PYTHONPATH") or str(ROOT))
sys.path.insert(1, str(ROOT))  # tests.pbm.conftest's config_data

from pbm.app import App  # noqa: E402
from pbm.core.config import parse_config  # noqa: E402
from pbm.inbound.pipeline import Arrival  # noqa: E402
from pbm.inbound.spool import import_spool  # noqa: E402
from pbm.ops.logs import configure_logging  # noqa: E402
from tests.pbm.conftest import config_data  # noqa: E402


def _app(tmp: Path, upgrade: bool = False) -> App:
    data = config_data(f"sqlite:///{tmp}/pbm.sqlite3", tmp)
    return App.from_config(parse_config(data, env={}), upgrade=upgrade)


def fill(tmp: Path, count: int, size: int) -> None:
    """Spool ``count`` mails of ``size`` bytes (the listener's largest, by default)."""
    app = _app(tmp, upgrade=True)
    assert app.spool is not None
    line = b"orders line that is long enough to fill the mail, as a long one would " * 10
    for i in range(count):
        head = f"From: p{i}@x.test\nTo: pbm@example.test\nMessage-ID: <m{i}@x>\nSubject: x\n\n"
        body = (line + b"\n") * (size // (len(line) + 1) + 1)
        raw = (head.encode() + body)[:size]
        at = datetime.now(UTC)
        app.spool.put(Arrival(raw, "smtp", f"p{i}@x.test", ("pbm@example.test",), at))
    app.close()


def drain(tmp: Path) -> dict[str, float]:
    """Import until the spool is empty: the figures (see the module doc)."""
    app = _app(tmp)
    assert app.spool is not None
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    wall, cpu = time.monotonic(), time.process_time()
    longest, calls, stored = 0.0, 0, 0
    while app.spool.files():
        t = time.monotonic()
        stored += import_spool(app.spool, app.inbound).stored
        longest = max(longest, time.monotonic() - t)
        calls += 1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    app.close()
    return {
        "stored": stored,
        "calls": calls,
        "wall_s": round(time.monotonic() - wall, 1),
        "cpu_s": round(time.process_time() - cpu, 1),
        "longest_call_s": round(longest, 1),
        "rss_before_mib": before // 1024,
        "rss_peak_mib": peak // 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--size", type=int, default=1_048_576)
    parser.add_argument("--step", choices=["fill", "drain"])
    parser.add_argument("--dir", type=Path)
    args = parser.parse_args()
    configure_logging("console", "WARNING", ())
    if args.step == "fill":
        fill(args.dir, args.count, args.size)
        return
    if args.step == "drain":
        print(json.dumps(drain(args.dir)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        me = [sys.executable, __file__, "--dir", tmp]
        sizes = ["--count", str(args.count), "--size", str(args.size)]
        subprocess.run([*me, "--step", "fill", *sizes], check=True)
        load = Path("/proc/loadavg").read_text().split()[:3]
        out = subprocess.run([*me, "--step", "drain"], check=True, capture_output=True)
        figures = json.loads(out.stdout.decode().strip().splitlines()[-1])
        print(json.dumps({**figures, "load_before": " ".join(load)}))


if __name__ == "__main__":
    main()
