"""Two workers counting the same sender at once (found by the fault harness, issue 13)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from pbm.db import migrate
from pbm.db.models import RateCounter
from pbm.db.session import make_db_engine
from pbm.inbound.ratelimit import count_mail
from tests.pbm.conftest import fresh_pg_database

NOW = datetime(2026, 12, 1, 13, 24, tzinfo=UTC)


def test_first_mails_of_the_hour_counted_by_two_workers_at_once(pg_url: str) -> None:
    """Two transactions count one sender's first mail of the hour together: the second waits
    for the first and counts 2 (before, it failed on the counter's key and the mail became a
    dead letter); a third counts 3, none lost."""
    db_engine = make_db_engine(fresh_pg_database(pg_url))
    migrate.upgrade(db_engine)
    sessions = sessionmaker(db_engine)
    got: list[int | BaseException] = []

    def second() -> None:
        try:
            with sessions.begin() as s:
                got.append(count_mail(s, "?h1@example.test", NOW))
        except BaseException as exc:  # reported by the assertion below
            got.append(exc)

    with sessions.begin() as first:
        assert count_mail(first, "?h1@example.test", NOW) == 1
        t = threading.Thread(target=second)
        t.start()
        t.join(1.0)  # it waits on the first one's uncommitted row
        assert t.is_alive()
    t.join(30)
    assert got == [2]
    with sessions.begin() as s:
        assert count_mail(s, "?h1@example.test", NOW) == 3
    with Session(db_engine) as s:
        assert s.scalars(select(RateCounter.count)).all() == [3]
    db_engine.dispose()


def test_counting_on_sqlite_too(tmp_path: object) -> None:
    """The same upsert counts on SQLite: 1, 2, then 1 in the next hour."""
    db_engine = make_db_engine(f"sqlite:///{tmp_path}/r.sqlite3")
    migrate.upgrade(db_engine)
    sessions = sessionmaker(db_engine)
    with sessions.begin() as s:
        assert count_mail(s, "a@example.test", NOW) == 1
    with sessions.begin() as s:
        assert count_mail(s, "a@example.test", NOW) == 2
        assert count_mail(s, "a@example.test", NOW.replace(hour=14)) == 1
    db_engine.dispose()
