"""Whether a database is ready for pbm's commands: there, migrated, and at this pbm's head.

The CLI asks before any command that reads or writes the database (:mod:`pbm.cli._edge`), so
an operator meets one line naming the fix ("run `pbm db upgrade`") instead of SQLAlchemy's
traceback about a missing table. Asking never creates anything: a SQLite file that is not
there is reported, not made empty by the connect.
"""

from __future__ import annotations

import logging
from enum import StrEnum

from sqlalchemy.exc import OperationalError, SQLAlchemyError

from pbm.core.errors import DatabaseNotReady, DatabaseUnavailable
from pbm.db import migrate
from pbm.db.session import READ_ONLY, make_db_engine

__all__ = ["Readiness", "ensure_ready", "readiness"]

_UPGRADE = "run `pbm db upgrade`"


class Readiness(StrEnum):
    """What :func:`readiness` found."""

    READY = "ready"
    NO_DIRECTORY = "no directory"  # SQLite: the file's folder is not there
    NO_FILE = "no file"  # SQLite: the folder is there, the file is not
    EMPTY = "empty"  # no migration applied
    BEHIND = "behind"  # migrated, but not to this pbm's head
    AHEAD = "ahead"  # migrated by a newer pbm: a revision this one does not know


def _where(url: str) -> str:
    from pbm.ops.status import sqlite_path

    path = sqlite_path(url)
    if path is not None:
        return str(path)
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return f"{u.host or 'localhost'}/{u.database or ''}"


def readiness(url: str) -> tuple[Readiness, str]:
    """The state of the database at ``url`` and the current revision ("" if none).

    Raises :class:`DatabaseUnavailable` when the server does not answer."""
    from pbm.ops.status import sqlite_path

    path = sqlite_path(url)
    if path is not None:
        if not path.parent.is_dir():
            return Readiness.NO_DIRECTORY, ""
        if not path.exists():
            return Readiness.NO_FILE, ""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    db_engine = make_db_engine(url)
    quiet = logging.getLogger("alembic.runtime.migration")
    level = quiet.level
    quiet.setLevel(logging.WARNING)  # its "Context impl" lines are noise here
    try:
        script = ScriptDirectory.from_config(migrate.alembic_config(db_engine))
        heads = set(script.get_heads())
        known = {rev.revision for rev in script.walk_revisions()}
        try:
            with db_engine.execution_options(**{READ_ONLY: True}).connect() as conn:
                current = set(MigrationContext.configure(conn).get_current_heads())
        except OperationalError as exc:
            first = (str(exc.orig or exc).strip().splitlines() or ["no answer"])[0]
            raise DatabaseUnavailable(
                f"the database at {_where(url)} does not answer: {first}"
            ) from exc
    finally:
        quiet.setLevel(level)
        db_engine.dispose()
    revision = ",".join(sorted(current))
    if not current:
        return Readiness.EMPTY, ""
    if current - known:
        return Readiness.AHEAD, revision
    if current != heads:
        return Readiness.BEHIND, revision
    return Readiness.READY, revision


def ensure_ready(url: str) -> None:
    """Raise :class:`DatabaseNotReady` (its message names the fix) unless the database at
    ``url`` is ready; :class:`DatabaseUnavailable` if it does not answer."""
    try:
        state, revision = readiness(url)
    except SQLAlchemyError as exc:  # a URL the driver refuses, a file that is not a database
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise DatabaseNotReady(
            Readiness.EMPTY, f"cannot read the database at {_where(url)}: {first}"
        ) from exc
    where = _where(url)
    if state is Readiness.READY:
        return
    if state is Readiness.NO_DIRECTORY:
        from pbm.ops.status import sqlite_path

        path = sqlite_path(url)
        assert path is not None
        message = (
            f"no database at {where}: its directory {path.parent} does not exist; "
            f"{_UPGRADE} to create it (or fix database.url)"
        )
    elif state is Readiness.NO_FILE:
        message = f"no database at {where}: {_UPGRADE} to create it (or fix database.url)"
    elif state is Readiness.EMPTY:
        message = f"the database at {where} is empty (not migrated): {_UPGRADE}"
    elif state is Readiness.BEHIND:
        message = (
            f"the database at {where} is at revision {revision}, older than this pbm's: "
            f"{_UPGRADE} (back it up first: `pbm db backup FILE`)"
        )
    else:
        message = (
            f"the database at {where} is at revision {revision}, which this pbm does not "
            "know (a newer pbm migrated it): upgrade pbm, or restore a backup"
        )
    raise DatabaseNotReady(state, message)
