"""How long the SMTP door keeps a sender waiting while a pass handles a mail at the line limit.

On SQLite a pass holds the write lock for the whole of a long mail. With ``--wait-ms 60000``
the door waits for the lock as it did before the spool; with the default 250 it spools. Each
round: a player's 400-line orders mail is stored, a pass starts handling it in a thread, and
0.1 s later another sender delivers HELP through the real listener (aiosmtpd, smtplib); the
time to its 250 is recorded, and the pass's duration beside it. Rounds alternate the two
settings. Prints the load beside the figures.

    python bench/spool_door.py --rounds 5
"""

from __future__ import annotations

import argparse
import re
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbm.app import App  # noqa: E402
from pbm.core.clock import FixedClock  # noqa: E402
from pbm.core.config import parse_config  # noqa: E402
from pbm.daemon import Daemon  # noqa: E402
from pbm.db.session import transaction  # noqa: E402
from pbm.games.flungo.competitions import create_competition  # noqa: E402
from pbm.mail.listener import SmtpListener  # noqa: E402
from pbm.ops.logs import configure_logging  # noqa: E402
from pbm.testing import RecordingSender, body_of, make_eml  # noqa: E402
from tests.pbm.conftest import config_data  # noqa: E402

SECRET = re.compile(r"SECRET ([A-Z0-9-]{6,})")


def one_round(wait_ms: int, n: int) -> tuple[float, float]:
    """(seconds to the 250, seconds of the pass) for one long mail."""
    with tempfile.TemporaryDirectory() as tmp:
        data = config_data(f"sqlite:///{tmp}/pbm.sqlite3", Path(tmp))
        data["database"]["door_wait_ms"] = wait_ms
        config = parse_config(data, env={})
        clock = FixedClock(datetime(2026, 1, 1, 9, 0, tzinfo=UTC))
        app = App.from_config(config, clock, upgrade=True)
        sender = RecordingSender()
        daemon = Daemon(app, sender)
        with transaction(app.sessions) as s:
            create_competition(
                s,
                clock,
                code="DEMO",
                name="Demo Cup",
                fmt="t20",
                teams=4,
                naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
                seed="bench",
            )
        app.inbound.store(make_eml("JOIN\n", subject="[DEMO] join"), "smtp")
        daemon.run_once()
        secret = SECRET.search(body_of(sender.sent[-1]))
        assert secret, body_of(sender.sent[-1])
        body = f"SECRET {secret.group(1)}\n" + "BAT Root aggressive\n" * 399
        app.inbound.store(make_eml(body, subject="[DEMO] orders"), "smtp")
        listener = SmtpListener("127.0.0.1", 0, daemon.store, accept=[config.server.address])
        listener.start()
        spent: list[float] = []
        worker = threading.Thread(target=lambda: spent.append(_timed(daemon.run_once)))
        worker.start()
        time.sleep(0.1)
        started = time.monotonic()
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=60) as smtp:
            smtp.sendmail(
                "other@example.test",
                [config.server.address],
                make_eml("HELP\n", sender="other@example.test", message_id=f"<b{n}@x>"),
            )
        waited = time.monotonic() - started
        worker.join(120)
        listener.stop()
        app.close()
        return waited, spent[0]


def _timed(fn: object) -> float:
    started = time.monotonic()
    fn()  # type: ignore[operator]
    return time.monotonic() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    configure_logging("console", "warning")
    results: dict[int, list[tuple[float, float]]] = {250: [], 60_000: []}
    for n in range(args.rounds):
        for wait in (60_000, 250):
            results[wait].append(one_round(wait, n * 2 + (wait == 250)))
    print(f"load {Path('/proc/loadavg').read_text().split()[:3]}")
    for wait, rows in results.items():
        acks = [a for a, _ in rows]
        passes = [p for _, p in rows]
        print(
            f"door_wait_ms={wait:>6}: 250 after median {statistics.median(acks):.3f} s "
            f"(max {max(acks):.3f}); the pass took median {statistics.median(passes):.2f} s"
        )


if __name__ == "__main__":
    main()
