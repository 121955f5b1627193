"""The audit log's one writer: :func:`record` appends an event, for the machinery and every game.

A Core insert run at once, not an object for the unit of work: the mail path records an event
for most mails, and the ORM's bookkeeping of one new object costs several times the statement.
"""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import insert
from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.db.models import Event, table_of

__all__ = ["record"]


class _HasId(Protocol):
    @property
    def id(self) -> int: ...


def record(
    session: Session, clock: Clock, kind: str, competition: _HasId | None = None, /, **data: Any
) -> None:
    """Append ``kind`` with ``data`` to the audit log, for ``competition`` (None: of none).
    Positional only, so ``data`` may hold any key (a bounce's ``kind``)."""
    session.connection().execute(  # Core: neither the ORM's layer nor an autoflush
        _INSERT,
        {
            "at": clock.now(),
            "kind": kind,
            "competition_id": competition.id if competition is not None else None,
            "data": data,
        },
    )


#: On the table, not the class, and built once: the ORM's plugin for a DML statement and the
#: coercion of each value cost more than the insert itself.
_INSERT = insert(table_of(Event))
