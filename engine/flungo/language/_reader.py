"""What the orders reader remembers between lines and mails, owned by a :class:`Reader`.

A turn reads many lines alike (a squad's names masked the same way, "toss: bat", a canonical
echo sent back), so the reader remembers what it worked out: a line's parse, its reading, a
name's regex. The package keeps none of that itself (issue 25: the engine holds no global
state). Every memo lives in the :class:`Reader` active for the current read, which its caller
owns: pbm keeps one per App, a test or a bench makes its own, and a read given none uses a
fresh one for that read alone. What is remembered only saves time: a read with a fresh
Reader equals a read with a warm one.

The package's functions stay where they are and take their memo from the active Reader:
``@kept(maxsize=N)`` in place of ``@functools.lru_cache(maxsize=N)`` (one bounded LRU per
function and Reader, the same sizes as before), and :class:`KeptTable` in place of a module
dict filled as lines are read. Outside a read (no Reader active) nothing is remembered.
The module holds only an immutable handle: the :class:`~contextvars.ContextVar` that says
which Reader is active, so two threads (pbm's SMTP listener and its daemon) each read with
their own, or share one that their App owns.

What is built once from the package's shipped files and never changes is not kept here but
built at import, being cheap (milliseconds): the lexicon, its patterns and words
(``_meaning``), the shipped parser tables (``_grammar``; a Reader may be given other tables,
e.g. built when the shipped file is stale) and the transformer's method tables
(``_transform``). What is derived from the grammar alone is kept with the tables that hold
it, whichever Reader asks: the lexer's regexes for each state (``_lalr``) and the grammar's
word lists (``_grammar.by_grammar``); a fresh Reader for every mail would otherwise make
them again for every mail.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, TypeVar, cast

if TYPE_CHECKING:
    from engine.flungo.language._tables import Tables

__all__ = [
    "LINE_PARSES",
    "LINE_READINGS",
    "MAIL_PARSED",
    "KeptTable",
    "Overspent",
    "Reader",
    "Work",
    "active",
    "kept",
    "one_line",
    "reading",
    "spend",
]

P = ParamSpec("P")
R = TypeVar("R")
K = TypeVar("K")
V = TypeVar("V")


class Reader:
    """Everything the orders reader remembers, for as long as its owner keeps it.

    ``tables``: the parser tables to read with (``None``: the package's shipped tables, or
    tables built once for this Reader if the shipped file was made from another grammar).
    A Reader reads with the same tables all its life, so what it remembers is never of other
    tables: to read with others, make another Reader. Safe to share between threads: each
    memo is a ``functools.lru_cache`` (thread-safe), and a table's worst race is a line read
    twice.
    """

    __slots__ = ("_memos", "_tables", "tables", "work")

    def __init__(self, tables: Tables | None = None) -> None:
        self.tables = tables
        self._memos: dict[object, Any] = {}
        self._tables: dict[str, dict[Any, Any]] = {}
        self.work = Work()

    def memo(self, key: object, fn: Callable[..., Any], maxsize: int | None) -> Any:
        """The LRU this Reader keeps for ``fn`` (made the first time it is asked for)."""
        found = self._memos.get(key)
        if found is None:
            found = self._memos.setdefault(key, _lru(fn, maxsize))
        return found

    def table(self, name: str) -> dict[Any, Any]:
        """The dict this Reader keeps under ``name`` (made the first time)."""
        found = self._tables.get(name)
        if found is None:
            found = self._tables.setdefault(name, {})
        return found

    def remembered(self) -> int:
        """How many results this Reader keeps, all memos and tables together."""
        memos = sum(int(m.cache_info().currsize) for m in list(self._memos.values()))
        return memos + sum(len(t) for t in list(self._tables.values()))

    def __repr__(self) -> str:
        return f"Reader({len(self._memos)} memos, {len(self._tables)} tables)"


#: The most LALR parses reading one line may run (its own, its typos put right, its words
#: left out, its clauses cut ...), and the most readings of other words it may try
#: (:func:`spend`); past either the line is refused, saying so. The corpus's costliest line
#: spends under half of each (``bench/orders_hostile.py``, figures in ``bench/RESULTS.md``).
LINE_PARSES = 800
LINE_READINGS = 400
#: The most characters the parses of one line may read in all: a long line's retries cost
#: as much as a short line's many more.
LINE_PARSED = 160_000
#: The most characters the parses of one mail may read in all: past it, the line being read
#: and the rest of the mail are not read, saying so. A mail of orders as people write them,
#: even 400 lines long, parses a small share of it (``bench/RESULTS.md``).
MAIL_PARSED = 1_000_000


class Work:
    """What the reader has done, counted as the work it stands for: the LALR parses run (a
    parse remembered from before is not run) and the readings tried (a line's words read
    another way: without an unknown word, without an aside, in parts), in all and the most
    for one line. What a test asserts the reader's bound with, without a clock."""

    __slots__ = (
        "lines",
        "most_parsed",
        "most_parses",
        "most_readings",
        "parsed",
        "parses",
        "readings",
    )

    def __init__(self) -> None:
        self.lines = self.parses = self.readings = self.parsed = 0
        self.most_parses = self.most_readings = self.most_parsed = 0

    def add(self, line: _Line) -> None:
        """Count one line's work (a race between two threads sharing a Reader loses a count,
        never a read)."""
        self.lines += 1
        self.parses += line.parses
        self.readings += line.readings
        self.parsed += line.parsed
        self.most_parsed = max(self.most_parsed, line.parsed)
        self.most_parses = max(self.most_parses, line.parses)
        self.most_readings = max(self.most_readings, line.readings)

    def __repr__(self) -> str:
        return (
            f"Work({self.lines} lines, {self.parses} parses (most {self.most_parses} a line), "
            f"{self.readings} readings (most {self.most_readings}))"
        )


class Overspent(Exception):
    """A line that has run :data:`LINE_PARSES` parses or tried :data:`LINE_READINGS`
    readings: what it still tries is given up, and the line is refused saying why."""

    def __init__(self, kind: str, count: int) -> None:
        super().__init__(f"{count} {kind}")
        self.kind, self.count = kind, count


class _Line:
    """The work of the line being read (one per line, in :data:`_LINE`: each thread its own),
    and the characters its mail may still parse (``left``)."""

    __slots__ = ("left", "parsed", "parses", "readings")

    def __init__(self, left: int) -> None:
        self.parses = self.readings = self.parsed = 0
        self.left = left


_LINE: ContextVar[_Line | None] = ContextVar("engine.flungo.language.line", default=None)


def spend(parsed: str = "", readings: int = 0) -> None:
    """Count work for the line being read (``parsed``: the text of one LALR parse; ``readings``:
    readings tried); raise :class:`Overspent` past its bound. Outside a line (a canonical
    text checked, a name) nothing is counted."""
    line = _LINE.get()
    if line is None:
        return
    if parsed:
        line.parses += 1
        line.parsed += len(parsed)
    line.readings += readings
    if line.parsed > line.left:  # first: a line over both leaves its mail nothing
        raise Overspent("mail", line.parses)
    if line.parses > LINE_PARSES:
        raise Overspent("parses", line.parses)
    if line.parsed > LINE_PARSED:
        raise Overspent("parses", line.parses)
    if line.readings > LINE_READINGS:
        raise Overspent("readings", line.readings)


@contextlib.contextmanager
def one_line(left: int = MAIL_PARSED) -> Iterator[_Line]:
    """Count the block's work as one line's, to the active Reader's :class:`Work`; ``left``:
    the characters its mail may still parse."""
    line = _Line(left)
    token = _LINE.set(line)
    try:
        yield line
    finally:
        _LINE.reset(token)
        reader = _ACTIVE.get()
        if reader is not None:
            reader.work.add(line)


def _lru(fn: Callable[..., Any], maxsize: int | None) -> Any:
    """``functools.lru_cache(maxsize)(fn)`` without copying ``fn``'s name and doc onto it
    (``update_wrapper``): nine tenths of making one, and a new Reader makes a score of them
    for each mail. The same C object, as ``lru_cache`` makes it."""
    if maxsize is not None and maxsize < 0:
        maxsize = 0  # as lru_cache takes it
    make: Any = functools._lru_cache_wrapper  # (typeshed gives it no constructor)
    return make(fn, maxsize, False, functools._CacheInfo)


_ACTIVE: ContextVar[Reader | None] = ContextVar("engine.flungo.language.reader", default=None)


def active() -> Reader | None:
    """The Reader of the read under way, if any."""
    return _ACTIVE.get()


@contextlib.contextmanager
def reading(reader: Reader | None) -> Iterator[Reader]:
    """Make ``reader`` the active one for the block. ``None``: the one already active (a read
    inside a read), else a fresh one that lives for the block alone."""
    if reader is None:
        current = _ACTIVE.get()
        if current is not None:
            yield current
            return
        reader = Reader()
    token = _ACTIVE.set(reader)
    try:
        yield reader
    finally:
        _ACTIVE.reset(token)


def kept(maxsize: int | None = 128) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """``functools.lru_cache(maxsize)``, the LRU kept by the active :class:`Reader` (one per
    function and Reader); with none active, the function is called as it is. The function is
    called with positional arguments only."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        # positional arguments only, as every caller passes them: this runs for every line
        def call(*args: Any) -> Any:
            reader = _ACTIVE.get()
            if reader is None:
                return fn(*args)  # type: ignore[call-arg]
            memo = reader._memos.get(call)
            if memo is None:
                memo = reader.memo(call, fn, maxsize)
            return memo(*args)

        return cast(Callable[P, R], functools.update_wrapper(call, fn))

    return wrap


class KeptTable(Generic[K, V]):
    """A handle on a dict that the active :class:`Reader` keeps under ``name``; with none
    active, a new empty dict each time (nothing is remembered outside a read)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def here(self) -> dict[K, V]:
        """The active Reader's dict (or a throwaway one)."""
        reader = _ACTIVE.get()
        return {} if reader is None else reader.table(self.name)
