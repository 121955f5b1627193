"""The scrubbing column types: a column that keeps mail or player text is scrubbed on every
write, by its type, so no statement can forget.

SQLAlchemy runs a type's ``process_bind_param`` for every value bound to the column: the
ORM's flush, and Core ``insert()``/``update()`` statements alike. So a column typed
:class:`ScrubbedText` or :class:`ScrubbedBytes` never receives a secret shape, whichever
path wrote it; there is no validator to bypass and no fast path deciding whether the scrub
applies.

The secrets pbm *knows* (the one a mail carried, a seat's, the GM's) are not in the value:
they are given by the code that learnt them, for as long as it writes, with
:func:`known_secrets`::

    with known_secrets(handled.secrets):
        session.execute(update(inbound).values(raw=raw))

The choice of a context variable over ``Session.info``: a bind processor sees the value and
the dialect, never the session or the statement, and a context variable is what reaches it
from the caller's frame on the same thread (or task), for Core statements and the ORM's
flush alike. Scopes nest: an inner one adds to the outer one's secrets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from sqlalchemy import LargeBinary, Text
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from pbm.secrets.scrub import scrub_message, scrub_text

__all__ = ["ScrubbedBytes", "ScrubbedText", "known_secrets"]

_KNOWN: ContextVar[tuple[str, ...]] = ContextVar("pbm_known_secrets", default=())


@contextmanager
def known_secrets(values: Iterable[str | None]) -> Iterator[None]:
    """Within the block, every scrubbing column also hides ``values`` (with the secrets of
    any enclosing block)."""
    found = tuple(v for v in values if v and v.strip())
    token = _KNOWN.set((*_KNOWN.get(), *found))
    try:
        yield
    finally:
        _KNOWN.reset(token)


def current_known() -> tuple[str, ...]:
    """The secrets the enclosing :func:`known_secrets` blocks gave."""
    return _KNOWN.get()


class ScrubbedText(TypeDecorator[str]):
    """Text stored scrubbed (:func:`pbm.secrets.scrub.scrub_text`). ``lines``: also the
    word after a SECRET/PASSWORD line start (text from outside; pbm's own texts carry
    placeholders, not SECRET lines)."""

    impl = Text
    cache_ok = True

    def __init__(self, *, lines: bool = True) -> None:
        super().__init__()
        self.lines = lines

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        """The value as stored: scrubbed."""
        if value is None:
            return None
        return scrub_text(value, _KNOWN.get(), lines=self.lines)

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        """Read back as stored."""
        return value


class ScrubbedBytes(TypeDecorator[bytes]):
    """A raw mail stored scrubbed (:func:`pbm.secrets.scrub.scrub_message`). ``lines`` as
    :class:`ScrubbedText`; ``deep=False`` (pbm's own mail, sent as stored) searches the text
    parts only, never its attachments' bytes."""

    impl = LargeBinary
    cache_ok = True

    def __init__(self, *, lines: bool = True, deep: bool = True) -> None:
        super().__init__()
        self.lines = lines
        self.deep = deep

    def process_bind_param(self, value: bytes | None, dialect: Dialect) -> bytes | None:
        """The value as stored: scrubbed."""
        if value is None:
            return None
        return scrub_message(bytes(value), _KNOWN.get(), lines=self.lines, deep=self.deep)

    def process_result_value(self, value: bytes | None, dialect: Dialect) -> bytes | None:
        """Read back as stored (``bytes``, whatever the driver hands back)."""
        return None if value is None else bytes(value)
