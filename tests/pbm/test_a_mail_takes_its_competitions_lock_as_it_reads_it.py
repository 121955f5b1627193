"""On PostgreSQL a mail reads the competition it names with its lock on the row, in one
statement: shared for a seat's own naming and orders (one competition's players are handled
in parallel; a turn step, which takes the row FOR UPDATE, waits or skips), exclusive for
anything else (a JOIN numbers seats). SQLite has one writer and takes no row lock."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from pbm.app import App
from pbm.db.models import MailStatus
from pbm.db.session import transaction
from pbm.inbound.pipeline import _by_code
from pbm.testing import make_eml

pytestmark = pytest.mark.parametrize("app_db_url", ["postgresql"], indirect=True)


def _can_take(app: App, code: str, mode: str) -> bool:
    """Whether another connection can take the competition's row lock ``mode`` now."""
    with app.db_engine.connect() as other:
        try:
            other.execute(
                text(f"SELECT id FROM competitions WHERE code = :c FOR {mode} NOWAIT"), {"c": code}
            )
        except OperationalError:
            return False
        finally:
            other.rollback()
    return True


@pytest.mark.parametrize(
    ("shared", "allowed", "refused"),
    [
        (True, ["SHARE", "KEY SHARE"], ["UPDATE", "NO KEY UPDATE"]),
        (False, ["KEY SHARE"], ["SHARE", "UPDATE", "NO KEY UPDATE"]),
    ],
)
def test_the_read_holds_the_lock_its_mail_needs(
    app: App, demo: str, shared: bool, allowed: list[str], refused: list[str]
) -> None:
    """The competition read for a seat's mail is held FOR SHARE (another seat's mail may
    share it, no step may take it FOR UPDATE); for any other mail FOR NO KEY UPDATE (only the
    foreign keys' KEY SHARE passes), until the mail's transaction ends."""
    with transaction(app.sessions) as s:
        comp = s.scalars(_by_code(True, shared=shared), {"code": demo}).one()
        assert comp.code == demo
        assert [m for m in allowed if _can_take(app, demo, m)] == allowed
        assert [m for m in refused if not _can_take(app, demo, m)] == refused
    assert _can_take(app, demo, "UPDATE")


def test_a_join_reads_its_competition_once_with_the_lock(app: App, demo: str) -> None:
    """A JOIN's pass reads the competition's row in one statement, which takes the lock: no
    second read of the row to lock it."""
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(" ".join(statement.split()))

    mail = app.inbound.store(make_eml("JOIN\n", subject=f"[{demo}] join"), "smtp")
    event.listen(app.db_engine, "before_cursor_execute", seen)
    try:
        assert app.inbound.process(mail.id) == MailStatus.APPLIED
    finally:
        event.remove(app.db_engine, "before_cursor_execute", seen)
    rows = [st for st in statements if "FROM competitions WHERE competitions.code" in st]
    assert len(rows) == 1 and rows[0].endswith("FOR NO KEY UPDATE")
