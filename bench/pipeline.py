"""How fast the core pipeline handles mail, with no network: store + handle + queue + send.

    python bench/pipeline.py [N] [--pg]

N players each mail JOIN then a full naming (2N messages) through ``Inbound.store`` and
``Daemon.run_once`` with a ``RecordingSender``: the figure is the pipeline's own cost per
message (parse, route, argon2 at the default cost, squad generation, render, outbox), on
SQLite in WAL mode or (``--pg``) a throwaway PostgreSQL.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbm.app import App  # noqa: E402
from pbm.core.config import parse_config  # noqa: E402
from pbm.daemon import Daemon  # noqa: E402
from pbm.db.session import transaction  # noqa: E402
from pbm.games.flungo.competitions import create_competition  # noqa: E402
from pbm.ops.logs import configure_logging  # noqa: E402
from pbm.testing import RecordingSender, body_of, make_eml  # noqa: E402
from tests.services import start_postgres  # noqa: E402

SECRET = re.compile(r"YOUR SECRET: (\S+)")


def run(n: int, url: str, tmp: Path) -> None:
    config = parse_config(
        {
            "server": {"address": "pbm@example.test"},
            "database": {"url": url},
            "gm": {"address": "gm@example.test", "secret": "gm-secret-bench"},
            "security": {"secret_key": "bench-key-0123456789abcdef"},  # default argon2 cost
            "smtp_listener": {"port": 0},
            "maildir": {"path": str(tmp / "out")},
            "scheduler": {"daily_digest": False},
            "rate_limit": {"per_hour": 1000},
        },
        env={},
    )
    configure_logging("json", "warning")
    app = App.from_config(config, upgrade=True)
    with transaction(app.sessions) as s:
        create_competition(
            s,
            app.clock,
            code="DEMO",
            name="Bench",
            fmt="t20",
            teams=n,
            naming_deadline=datetime(2099, 1, 1, tzinfo=UTC),
            seed="bench",
        )
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    per_msg: list[float] = []

    def one(raw: bytes) -> None:
        t0 = time.perf_counter()
        daemon.app.inbound.store(raw, "smtp")
        daemon.run_once()
        per_msg.append(time.perf_counter() - t0)

    start = time.perf_counter()
    for i in range(n):
        frm = f"p{i}@example.test"
        one(make_eml("JOIN\n", sender=frm, subject="[DEMO] join"))
        m = SECRET.search(body_of(sender.sent[-1]))
        assert m
        lines = [f"SECRET {m.group(1)}", f"TEAM NAME Team of {i}"]
        lines += [f"NAME {k} P{i} Celeb {k}" for k in range(1, 19)]
        one(make_eml("\n".join(lines) + "\n", sender=frm, subject="[DEMO] names"))
    total = time.perf_counter() - start
    app.close()
    ms = sorted(x * 1000 for x in per_msg)
    print(
        f"{url.split(':')[0]}: {2 * n} messages in {total:.2f} s = {2 * n / total:.0f} msg/s; "
        f"per message p50 {statistics.median(ms):.1f} ms, p99 {ms[int(len(ms) * 0.99) - 1]:.1f} ms"
    )


def main() -> None:
    n = int(next((a for a in sys.argv[1:] if a.isdigit()), "100"))
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if "--pg" in sys.argv:
            (tmp / "pg").mkdir()
            gen = start_postgres(tmp / "pg", tmp)
            url = next(gen)
            try:
                run(n, url, tmp)
            finally:
                next(gen, None)
        else:
            run(n, f"sqlite:///{tmp}/bench.sqlite3", tmp)


if __name__ == "__main__":
    main()
