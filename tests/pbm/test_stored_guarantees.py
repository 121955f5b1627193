"""What a column's type promises, whichever statement writes it: a scrubbing column never
stores a secret (ORM flush, Core insert() and update() alike), and a datetime column takes
only aware datetimes and gives back aware UTC, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, insert, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import StatementError

import pbm.games.hitforsix.models  # noqa: F401 - its tables are part of Base.metadata
from pbm.app import App
from pbm.core.types import NaiveDatetimeError, UtcDateTime, parse_utc
from pbm.db.models import Base, Event, InboundMail, table_of
from pbm.db.session import transaction
from pbm.mail.parse import parse_message
from pbm.secrets import ScrubbedBytes, ScrubbedText, known_secrets
from tests.pbm.conftest import GM_SECRET


def _seat_secret(app: App) -> str:
    return app.box.derive(7, 1)


def _scrubbed_columns() -> list[tuple[str, str, ScrubbedText | ScrubbedBytes]]:
    """Every scrubbing column in the schema, found by its type (no list to forget)."""
    found = []
    for table in Base.metadata.sorted_tables:
        for column in table.columns:
            if isinstance(column.type, ScrubbedText | ScrubbedBytes):
                found.append((table.name, column.name, column.type))
    return found


def _raw_mail(secret: str) -> bytes:
    return (
        "From: p@players.test\r\nTo: pbm@pbm.test\r\nSubject: orders\r\n"
        "Message-ID: <m1@players.test>\r\n\r\n"
        f"my code is {secret} and the GM said {GM_SECRET}\r\nSECRET wrong-guess\r\n"
    ).encode()


def _bare(db_engine: Engine, sql: str) -> Any:
    """One value read with bare SQL, past every type's result processing."""
    with db_engine.connect() as conn:
        return conn.execute(text(sql)).scalar_one()


def test_the_schema_has_scrubbing_columns_where_mail_and_players_text_are_kept() -> None:
    """The walk finds the columns that keep mail or players' words (so the tests below that
    walk it test them all)."""
    names = {(t, c) for t, c, _ in _scrubbed_columns()}
    assert {("inbound_mail", "raw"), ("outbox", "raw"), ("flags", "text")} <= names
    assert ("inbound_mail", "sealed") not in names  # the sealed copy is encrypted, not text


def test_a_core_insert_of_a_raw_mail_stores_the_seat_secret_scrubbed(app: App) -> None:
    """A Core insert() of a raw mail holding a seat's secret (and, given as known, the GM's)
    stores neither: read back with bare SQL."""
    secret = _seat_secret(app)
    now = app.clock.now()
    with transaction(app.sessions) as s, known_secrets([GM_SECRET]):
        s.execute(
            insert(table_of(InboundMail)).values(
                key="k1", door="cli", raw=_raw_mail(secret), status="received", received_at=now
            )
        )
    stored = bytes(_bare(app.db_engine, "SELECT raw FROM inbound_mail WHERE key = 'k1'"))
    assert secret.encode() not in stored and secret.replace("-", "").encode() not in stored
    assert GM_SECRET.encode() not in stored and b"wrong-guess" not in stored
    assert b"my code is [redacted]" in stored


def test_a_core_update_of_a_raw_mail_stores_it_scrubbed(app: App) -> None:
    """A Core update() writing a seat's secret into a stored mail stores it scrubbed."""
    secret = _seat_secret(app)
    inbound = table_of(InboundMail)
    with transaction(app.sessions) as s:
        s.execute(
            insert(inbound).values(
                key="k2",
                door="cli",
                raw=b"Subject: x\r\n\r\nhello\r\n",
                status="received",
                received_at=app.clock.now(),
            )
        )
    with transaction(app.sessions) as s, known_secrets([GM_SECRET]):
        s.execute(
            update(inbound)
            .where(inbound.c.key == "k2")
            .values(raw=_raw_mail(secret), subject=f"re {secret}", note=f"gm {GM_SECRET}")
        )
    stored = bytes(_bare(app.db_engine, "SELECT raw FROM inbound_mail WHERE key = 'k2'"))
    assert secret.encode() not in stored and GM_SECRET.encode() not in stored
    assert secret not in _bare(app.db_engine, "SELECT subject FROM inbound_mail WHERE key = 'k2'")
    assert GM_SECRET not in _bare(app.db_engine, "SELECT note FROM inbound_mail WHERE key = 'k2'")


@pytest.fixture
def scratch(app: App) -> Iterator[tuple[Engine, MetaData]]:
    """A throwaway table space on the test's database, dropped after."""
    meta = MetaData()
    yield app.db_engine, meta
    meta.drop_all(app.db_engine)


@pytest.mark.parametrize(
    ("table", "column"), [(t, c) for t, c, _ in _scrubbed_columns()], ids=lambda v: str(v)
)
def test_every_scrubbing_column_scrubs_core_inserts_and_updates(
    app: App, scratch: tuple[Engine, MetaData], table: str, column: str
) -> None:
    """Each column typed to scrub, found by walking the schema, stores a seat's secret as
    ``[redacted]`` through a Core insert() and a Core update() alike (its own type, on a
    table of its own, read back with bare SQL)."""
    db_engine, meta = scratch
    kind = Base.metadata.tables[table].columns[column].type
    t = Table(f"scratch_{table}_{column}", meta, Column("id", Integer, primary_key=True))
    t.append_column(Column("v", kind))
    meta.create_all(db_engine)
    secret = _seat_secret(app)
    value: str | bytes = f"Subject: x\n\nthe secret {secret} again\n"
    if isinstance(kind, ScrubbedBytes):
        value = value.encode()
    with db_engine.begin() as conn:
        conn.execute(insert(t).values(id=1, v=value))
        conn.execute(insert(t).values(id=2, v=value[:1]))
        conn.execute(update(t).where(t.c.id == 2).values(v=value))
    for row_id in (1, 2):
        stored = _bare(db_engine, f"SELECT v FROM {t.name} WHERE id = {row_id}")
        if isinstance(kind, ScrubbedBytes):  # the text as a reader of the mail finds it
            stored = parse_message(bytes(stored)).full_text
        assert secret not in stored and "[redacted]" in stored


def test_the_orm_writes_through_the_same_scrub(app: App) -> None:
    """An object added through the ORM is scrubbed by the same type (no validator needed)."""
    secret = _seat_secret(app)
    with transaction(app.sessions) as s:
        s.add(
            InboundMail(
                key="k3",
                door="cli",
                raw=_raw_mail(secret),
                status="received",
                received_at=app.clock.now(),
                subject=f"about {secret}",
            )
        )
    stored = bytes(_bare(app.db_engine, "SELECT raw FROM inbound_mail WHERE key = 'k3'"))
    assert secret.encode() not in stored
    assert secret not in _bare(app.db_engine, "SELECT subject FROM inbound_mail WHERE key = 'k3'")


def test_a_known_secret_is_hidden_only_within_its_block(app: App) -> None:
    """The known secrets are the block's: a write after it no longer hides them (so one
    mail's secret never blanks words in another's)."""
    inbound = table_of(InboundMail)
    body = f"Subject: x\r\n\r\nsaid {GM_SECRET}\r\n".encode()
    with transaction(app.sessions) as s:
        with known_secrets([GM_SECRET]):
            s.execute(
                insert(inbound).values(
                    key="in", door="cli", raw=body, status="r", received_at=app.clock.now()
                )
            )
        s.execute(
            insert(inbound).values(
                key="out", door="cli", raw=body, status="r", received_at=app.clock.now()
            )
        )
    assert GM_SECRET.encode() not in bytes(
        _bare(app.db_engine, "SELECT raw FROM inbound_mail WHERE key = 'in'")
    )
    assert GM_SECRET.encode() in bytes(
        _bare(app.db_engine, "SELECT raw FROM inbound_mail WHERE key = 'out'")
    )


# -- typed time ------------------------------------------------------------------------------


def test_a_naive_datetime_is_refused(app: App) -> None:
    """A naive datetime names no instant: writing one is refused, not guessed."""
    with pytest.raises(StatementError) as err, transaction(app.sessions) as s:
        s.add(Event(at=datetime(2026, 3, 1, 12, 0), kind="x", data={}))
        s.flush()
    assert isinstance(err.value.orig, NaiveDatetimeError)


@pytest.mark.parametrize("hours", [-8, 0, 5.5, 13])
def test_an_aware_datetime_from_any_zone_reads_back_aware_utc(app: App, hours: float) -> None:
    """An instant written in any zone reads back as the same instant, aware, in UTC, through
    the ORM and through a Core select alike; and a query comparing it works."""
    zone = timezone(timedelta(hours=hours))
    when = datetime(2026, 3, 1, 12, 30, 15, tzinfo=zone)
    with transaction(app.sessions) as s:
        s.add(Event(at=when, kind="zoned", data={}))
    with transaction(app.sessions) as s:
        got = s.scalars(select(Event.at).where(Event.kind == "zoned")).one()
        assert got == when and got.tzinfo is UTC
        later = when + timedelta(minutes=1)
        assert s.scalar(select(Event.id).where(Event.at < later)) is not None
        assert s.scalar(select(Event.id).where(Event.at > later)) is None


def test_every_datetime_column_is_typed_aware_utc() -> None:
    """Every datetime column in the schema has the aware-UTC type (so no read needs a patch)."""
    for table in Base.metadata.sorted_tables:
        for column in table.columns:
            try:
                python_type = column.type.python_type
            except NotImplementedError:
                continue
            if python_type is datetime:
                assert isinstance(column.type, UtcDateTime), f"{table.name}.{column.name}"


def test_a_time_typed_without_a_zone_is_utc() -> None:
    """The GM's ``YYYY-MM-DDTHH:MM`` is UTC; one with an offset is that instant, in UTC."""
    assert parse_utc("2026-03-01T12:00") == datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    assert parse_utc("2026-03-01T12:00+02:00") == datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    assert parse_utc("2026-03-01") == datetime(2026, 3, 1, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_utc("next tuesday")
