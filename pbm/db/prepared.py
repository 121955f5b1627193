"""A Core statement of the mail's hot path, compiled once per dialect and set of values, run
through the session's connection as the driver's SQL.

SQLAlchemy's ``Session.execute`` of a cached Core statement costs two to five times what the
driver spends running it (the session's bookkeeping, the execution context, the result's
metadata), and a mail runs a dozen. :class:`Prepared` keeps what execution would derive
again each time: the SQL text, the order of its parameters, the bind processors and the
result processors of the compiled statement, and hands the driver's SQL to
``Connection.exec_driver_sql``. What a statement's columns guarantee is kept, because the
processors ARE the columns' types: a :class:`~pbm.secrets.columns.ScrubbedText` or
``ScrubbedBytes`` value is scrubbed (with the block's known secrets), a
:class:`~pbm.core.types.UtcDateTime` refuses a naive time and is read back aware, JSON is
encoded and decoded, exactly as SQLAlchemy would (``tests/pbm/test_stored_guarantees.py``
runs its statements through here too). What the connection does for any statement is kept
as well: the engine's ``before_cursor_execute`` listeners see the SQL (the daemon's
:class:`~pbm.db.wakes.Wakes`), a lost database is a ``DBAPIError`` with its invalidation,
and SQLite's ``BEGIN IMMEDIATE`` comes with the transaction's first statement.

As ``Session.execute`` does, the session's pending ORM changes are flushed first, so a
statement never reads around what a handler changed on a loaded object.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import StatementError
from sqlalchemy.orm import Session
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

__all__ = ["Prepared"]

_Processor = Callable[[Any], Any] | None


class _Compiled:
    """One compiled form: the SQL, how its parameters are ordered and processed, and how
    each result column is processed."""

    __slots__ = ("binds", "compiled", "defaults", "positional", "results", "sql")

    def __init__(self, compiled: SQLCompiler, dialect: Dialect) -> None:
        self.compiled = compiled
        # The columns a write leaves out take their Python-side default, as the execution
        # context would give them (a constant: a callable default would need the context).
        self.defaults: dict[str, Any] = {}
        for col in (*compiled.insert_prefetch, *compiled.update_prefetch):
            default = col.default if col in compiled.insert_prefetch else col.onupdate
            if default is None or not default.is_scalar:
                raise NotImplementedError(f"{col} has a default a prepared write cannot give")
            self.defaults[col.key] = default.arg  # type: ignore[attr-defined]
        self.sql = compiled.string
        self.positional = compiled.positional
        processors: Mapping[str, Any] = compiled._bind_processors  # no tuple binds here
        names: Sequence[str] = (
            compiled.positiontup or []
            if compiled.positional
            else list(compiled.construct_params({}, _check=False))
        )
        self.binds: tuple[tuple[str, _Processor], ...] = tuple(
            (name, processors.get(name)) for name in names
        )
        self.results: tuple[_Processor, ...] = tuple(
            col.type._cached_result_processor(dialect, None) for col in compiled._result_columns
        )


class Prepared:
    """A Core statement run by the driver, compiled once per dialect and set of value keys
    (an insert or update writes the columns its values name, as with ``Session.execute``)."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._forms: dict[tuple[str, frozenset[str]], _Compiled] = {}

    def _form(self, dialect: Dialect, keys: frozenset[str]) -> _Compiled:
        form = self._forms.get((dialect.name, keys))
        if form is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=sorted(keys))
            assert isinstance(compiled, SQLCompiler)
            form = self._forms[(dialect.name, keys)] = _Compiled(compiled, dialect)
        return form

    def _execute(self, session: Session, params: Mapping[str, Any]) -> tuple[Any, _Compiled]:
        session.flush()  # as Session.execute's autoflush: pending ORM changes go first
        conn = session.connection()
        form = self._form(conn.dialect, frozenset(params))
        if form.defaults:
            params = {**form.defaults, **params}
        values = form.compiled.construct_params(params, _check=False)
        try:
            bound = [(n, proc(values[n]) if proc else values[n]) for n, proc in form.binds]
        except Exception as exc:  # a type refused a value: said as SQLAlchemy says it
            raise StatementError(
                f"({type(exc).__module__}.{type(exc).__name__}) {exc}", form.sql, None, exc
            ) from exc
        args: Any = tuple(v for _, v in bound) if form.positional else dict(bound)
        return conn.exec_driver_sql(form.sql, args), form

    def rows(self, session: Session, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Run the statement in the session's transaction; its rows (none for a write
        without RETURNING), each column as its type reads it."""
        result, form = self._execute(session, params)
        if not result.returns_rows:
            result.close()
            return []
        results = form.results
        return [
            tuple(proc(v) if proc else v for proc, v in zip(results, row, strict=True))
            for row in result.fetchall()
        ]

    def first(self, session: Session, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first row, or None."""
        found = self.rows(session, params)
        return found[0] if found else None

    def scalar(self, session: Session, params: Mapping[str, Any]) -> Any:
        """The first column of the one row the statement returns (an error if none)."""
        found = self.rows(session, params)
        if not found:
            raise LookupError("the statement returned no row")
        return found[0][0]

    def run(self, session: Session, params: Mapping[str, Any]) -> int:
        """Run a write; how many rows it matched."""
        result, _ = self._execute(session, params)
        count = int(result.rowcount)
        result.close()
        return count
