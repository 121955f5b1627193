""":class:`pbm.db.wakes.Wakes` learns an answer's tables from the SELECTs of the thread that
reads it: another thread's statements meanwhile (the SMTP door's store, the heartbeat) are
not taken for the answer's, nor can they find its bookkeeping half done."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, text

from pbm.db.wakes import Wakes

NOW = datetime(2026, 1, 1, 9, tzinfo=UTC)


def test_another_threads_select_is_not_the_answers_table(tmp_path: Path) -> None:
    """While the scheduler's answer is read (from ``mine``), another thread reads ``theirs``:
    a later write to ``theirs`` keeps the answer, a write to ``mine`` drops it."""
    db_engine = create_engine(f"sqlite:///{tmp_path}/w.sqlite3")
    with db_engine.begin() as c:
        c.execute(text("CREATE TABLE mine (x INT)"))
        c.execute(text("CREATE TABLE theirs (x INT)"))
    wakes = Wakes(db_engine, max_age=60)
    reads = 0

    def other_thread() -> None:
        with db_engine.connect() as c:
            c.execute(text("SELECT x FROM theirs"))

    def read() -> None:
        nonlocal reads
        reads += 1
        with db_engine.connect() as c:
            c.execute(text("SELECT x FROM mine"))
        if reads == 1:
            worker = threading.Thread(target=other_thread)
            worker.start()
            worker.join()

    try:
        wakes.scheduler(NOW, read)
        with db_engine.begin() as c:
            c.execute(text("INSERT INTO theirs VALUES (1)"))
        wakes.scheduler(NOW, read)
        assert reads == 1
        with db_engine.begin() as c:
            c.execute(text("INSERT INTO mine VALUES (1)"))
        wakes.scheduler(NOW, read)
        assert reads == 2
    finally:
        wakes.close()
        db_engine.dispose()
