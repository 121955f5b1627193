"""A mailbox's fetch is stored in one transaction, durably, before any of it is handled or
moved; redelivery (across batches or inside one) still does nothing twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbm.app import App
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, MailStatus
from pbm.db.session import transaction
from pbm.inbound import Inbound, Stored
from pbm.testing import FakeMailbox, RecordingSender, make_eml


def _joins(n: int) -> list[bytes]:
    return [
        make_eml("JOIN\n", sender=f"p{i}@example.test", subject="[DEMO] join") for i in range(n)
    ]


def _stored(app: App) -> dict[str, int]:
    with transaction(app.sessions) as s:
        rows = s.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status))
        return dict(rows.all())


def test_whole_fetch_is_committed_before_the_first_is_handled_or_moved(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """When the first message of a fetch is handled, every message of it is already committed
    (seen from another session) and none has been moved."""
    mb = FakeMailbox()
    for raw in _joins(3):
        mb.deliver(raw)
    daemon = Daemon(app, sender, [mb])
    real = app.inbound.process_many
    at_first: list[tuple[dict[str, int], int]] = []

    def process(ids: Sequence[int], **kw: Any) -> list[tuple[int, MailStatus] | None]:
        if not at_first:
            at_first.append((_stored(app), len(mb.processed)))
        return real(ids, **kw)

    # the fetch's mail is handled a few a commit: the first of them
    app.inbound.process_many = process  # type: ignore[method-assign]
    stats = daemon.run_once()
    assert at_first == [({"received": 3}, 0)]
    assert (stats.fetched, stats.processed) == (3, 3)
    assert _stored(app) == {"applied": 3} and mb.inbox == {} and len(sender.sent) == 3


def test_store_many_is_idempotent_within_and_across_batches(app: App, demo: str) -> None:
    """The same Message-ID twice in one batch is stored once; a later batch finds it stored."""
    a, b = _joins(2)
    first = app.inbound.store_many([a, b, a], "imap")
    assert [x.created for x in first] == [True, True, False]
    assert first[0].id == first[2].id != first[1].id
    again = app.inbound.store_many([b, a], "imap")
    assert [(x.id, x.created) for x in again] == [(first[1].id, False), (first[0].id, False)]
    assert app.inbound.store_many([], "imap") == []
    assert _stored(app) == {"received": 2}


def test_redelivered_batch_after_handling_changes_nothing(
    app: App, sender: RecordingSender, demo: str
) -> None:
    """A fetch whose messages were all handled before (say, the moves were lost) sends no
    second reply and leaves the statuses alone, but is moved this time."""
    raws = _joins(2)
    mb = FakeMailbox()
    for raw in raws:
        mb.deliver(raw)
    daemon = Daemon(app, sender, [mb])
    daemon.run_once()
    for raw in raws:
        mb.deliver(raw)
    stats = daemon.run_once()
    assert (stats.fetched, stats.processed) == (2, 0)
    assert len(sender.sent) == 2 and mb.inbox == {} and _stored(app) == {"applied": 2}


def test_a_batch_meeting_a_row_stored_meanwhile_falls_back_one_by_one(
    app: App, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If another door stores one of the batch after the batch looked (so the insert hits the
    unique key), the batch is stored message by message and every result is right."""
    a, b = _joins(2)
    other = app.inbound.store(a, "smtp")  # the other door's row
    real = Inbound._existing
    looks: list[int] = []

    def late(s: Session, keys: list[str]) -> dict[str, Stored]:
        looks.append(len(keys))
        return {} if len(looks) == 1 else real(s, keys)  # the first look misses it

    monkeypatch.setattr(Inbound, "_existing", staticmethod(late))
    out = app.inbound.store_many([a, b], "imap")
    assert looks == [2, 1, 1]
    assert (out[0].id, out[0].created, out[1].created) == (other.id, False, True)
    assert _stored(app) == {"received": 2}
