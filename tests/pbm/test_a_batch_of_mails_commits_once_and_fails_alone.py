"""The pass's mails share a commit on SQLite (``Inbound.process_pending``): one that fails
rolls the batch back, and its mails are handled again one a transaction, so the failing one
becomes a dead letter alone beside the others' answers; a lost database anywhere in the
batch leaves every mail of it pending, with nothing queued. PostgreSQL keeps one commit a
mail (two workers' batches would hold competition locks in opposite orders)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, func, select

from pbm.app import App
from pbm.core.errors import DatabaseUnavailable
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, OutboxMessage, Seat
from pbm.db.session import transaction
from pbm.inbound import dispatch, pipeline
from pbm.inbound.context import Handled, MailContext
from pbm.inbound.dispatch import Run
from pbm.testing import RecordingSender, make_eml
from tests.pbm.conftest import GM


def _joins(app: App, n: int, first: int = 0) -> list[int]:
    return [
        app.inbound.store(
            make_eml("JOIN\n", sender=f"p{i}@example.test", subject="[DEMO] join"), "smtp"
        ).id
        for i in range(first, first + n)
    ]


def _commits(app: App) -> list[int]:
    commits = [0]

    def counted(*_: Any) -> None:
        commits[0] += 1

    event.listen(app.db_engine, "commit", counted)
    return commits


def _statuses(app: App) -> list[str]:
    with transaction(app.sessions) as s:
        return list(s.scalars(select(InboundMail.status).order_by(InboundMail.id)))


def _count(app: App, model: type) -> int:
    with transaction(app.sessions) as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def test_a_pass_commits_its_mails_once_on_sqlite_and_each_on_postgresql(
    app: App, demo: str
) -> None:
    """Three JOINs drained by one call: all applied, each answered once; one commit on SQLite,
    three on PostgreSQL."""
    ids = _joins(app, 3)
    app.inbound.batch_seconds = 60.0  # bounded by its mails alone here (a first mail is slow)
    commits = _commits(app)
    done = app.inbound.process_pending()
    while len(done) < 3 and (more := app.inbound.process_pending(done[-1][0])):
        done += more
    assert commits[0] == (3 if app.db_engine.dialect.name == "postgresql" else 1)
    assert [d[0] for d in done] == ids
    assert _statuses(app) == ["applied"] * 3
    assert _count(app, Seat) == 3 and _count(app, OutboxMessage) == 3


def test_a_failing_mail_in_a_batch_is_a_dead_letter_and_the_others_stand(
    app: App, sender: RecordingSender, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch's second mail raises in its handler: it alone is shunted (the GM alerted),
    the first and third are applied and answered, once each; nothing of the failed batch
    is left (one seat each)."""
    ids = _joins(app, 3)
    app.inbound.batch_seconds = 60.0
    real = dispatch.execute

    def second_fails(ctx: MailContext, decision: Run) -> Handled:
        if ctx.mail.id == ids[1]:
            raise RuntimeError("kaboom in the second mail")
        return real(ctx, decision)

    monkeypatch.setattr(pipeline, "execute", second_fails)
    d = Daemon(app, sender)
    stats = d.run_once()
    assert stats.processed == 3
    assert _statuses(app) == ["applied", "shunted", "applied"]
    assert _count(app, Seat) == 2
    assert [m["To"] for m in sender.sent if m["To"] != GM] == [
        "p0@example.test",
        "p2@example.test",
    ]
    assert len(sender.to(GM)) == 1


def test_a_lost_database_mid_batch_leaves_every_mail_of_it_pending(
    app: App, sender: RecordingSender, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database goes away at the batch's third mail: the two handled before it are rolled
    back with it (still ``received``, no seat, no answer queued or sent), no dead letter;
    the next pass handles all three once. (On PostgreSQL the two were committed alone.)"""
    _joins(app, 3)
    app.inbound.batch_seconds = 60.0
    real = dispatch.execute
    calls = [0]

    def third_loses_the_database(ctx: MailContext, decision: Run) -> Handled:
        calls[0] += 1
        if calls[0] == 3:
            raise DatabaseUnavailable("the server closed the connection")
        return real(ctx, decision)

    monkeypatch.setattr(pipeline, "execute", third_loses_the_database)
    d = Daemon(app, sender)
    with pytest.raises(DatabaseUnavailable):
        d.run_once()
    before = 2 if app.db_engine.dialect.name == "postgresql" else 0
    assert _statuses(app) == ["applied"] * before + ["received"] * (3 - before)
    assert _count(app, Seat) == before and _count(app, OutboxMessage) == before
    assert len(sender.sent) == before
    monkeypatch.setattr(pipeline, "execute", real)
    assert d.run_once().processed == 3 - before
    assert _statuses(app) == ["applied"] * 3
    assert sorted(m["To"] for m in sender.sent) == [f"p{i}@example.test" for i in range(3)]


def test_a_batch_is_bounded_by_its_mails_and_its_time(app: App, demo: str) -> None:
    """No batch takes more than ``batch_mails`` mails: five pending with a bound of two are
    handled two, two and one a commit (one a commit on PostgreSQL); with no time, one each."""
    _joins(app, 5)
    app.inbound.batch_mails, app.inbound.batch_seconds = 2, 60.0
    sizes = []
    after = 0
    while done := app.inbound.process_pending(after):
        sizes.append(len(done))
        after = done[-1][0]
    assert sizes == ([1] * 5 if app.db_engine.dialect.name == "postgresql" else [2, 2, 1])
    _joins(app, 2, first=5)
    app.inbound.batch_mails, app.inbound.batch_seconds = 16, 0.0
    assert len(app.inbound.process_pending(after)) == 1


def _reads_of_competitions(app: App) -> list[str]:
    reads: list[str] = []

    def seen(_c: Any, _cur: Any, statement: str, *_a: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM competitions" in statement:
            reads.append(statement)

    event.listen(app.db_engine, "before_cursor_execute", seen)
    return reads


def test_a_batch_reads_its_competition_once(app: App, demo: str) -> None:
    """Three JOINs to one competition in one batch read its row once (SQLite; on PostgreSQL
    each mail reads it with its own lock); each JOIN still takes its own seat."""
    _joins(app, 3)
    app.inbound.batch_seconds = 60.0
    reads = _reads_of_competitions(app)
    done = app.inbound.process_pending()
    while len(done) < 3 and (more := app.inbound.process_pending(done[-1][0])):
        done += more
    by_code = [r for r in reads if "competitions.code =" in r]
    assert len(by_code) == (3 if app.db_engine.dialect.name == "postgresql" else 1)
    with transaction(app.sessions) as s:
        assert sorted(s.scalars(select(Seat.number))) == [1, 2, 3]


def test_a_write_to_the_competitions_drops_what_the_batch_kept(app: App, demo: str) -> None:
    """What a batch keeps of a competition is dropped by any statement of its transaction
    that writes the competitions table (or whose table cannot be told), and kept through
    writes to other tables; the next mail then reads the row as written."""
    from pbm.db.models import Competition
    from pbm.db.session import batch
    from pbm.inbound.pipeline import _KeptCompetitions

    with batch(app.sessions) as conn, _KeptCompetitions(conn) as kept:
        with transaction(app.sessions, conn) as s:
            comp = s.scalars(select(Competition).where(Competition.code == demo)).one()
            kept.put(demo, comp)
            s.connection().exec_driver_sql("UPDATE inbound_mail SET note = note WHERE 1 = 0")
        assert kept.get(demo) is comp
        with transaction(app.sessions, conn) as s:
            merged = s.merge(comp, load=False)
            merged.name = "Renamed Cup"  # flushed at the unit's end: UPDATE competitions
        assert kept.get(demo) is None
        kept.put(demo, comp)
        conn.exec_driver_sql("ANALYZE inbound_mail")  # a statement whose table is not told
        assert kept.get(demo) is None
