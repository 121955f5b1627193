"""The order parser's tables, ready before the first mail is read.

The package ships them (``engine/flungo/language/orders.tables``, made by
``scripts/build-order-tables``), which load far faster than the tables are built. When the
shipped file was made from another grammar (the grammar was changed and the file not made
again), the tables must be built, which is slow; lark can keep those in a file and load them
quickly, checking they were made from the same grammar and options.
The file is a pickle, so it must live where nobody else can write: a directory of pbm's own
(``$XDG_CACHE_HOME/pbm``, else ``~/.cache/pbm``), created mode 0700 and refused unless it is
ours and closed to group and others. Without such a place the tables are built in memory.

An App reads orders with one :class:`~engine.flungo.language.Reader` (:func:`order_reader`),
kept with what else the App keeps (:mod:`pbm.db.kept`): what one mail's lines taught it
serves the next mail's, and two Apps share nothing.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import structlog
from sqlalchemy.orm import Session

from engine.flungo.language import Reader, Tables, build_parser, make_tables, shipped_parser
from pbm.db.kept import ShelfOf, kept

__all__ = ["ORDER_READER", "cache_dir", "order_reader", "warm_order_parser"]

log = structlog.get_logger("pbm.grammar")

_FILE = "order-language.lalr"


def cache_dir(environ: dict[str, str] | None = None) -> Path | None:
    """pbm's private cache directory, made if need be; None if there is no safe one."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or (str(Path.home() / ".cache") if env.get("HOME") else "")
    if not base:
        return None
    path = Path(base) / "pbm"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError:
        return None
    private = not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return path if info.st_uid == os.getuid() and private and stat.S_ISDIR(info.st_mode) else None


def warm_order_parser(directory: Path | None = None, *, shipped: bool = True) -> Tables | None:
    """The order parser's tables for a :class:`Reader`: ``None`` when the package's are
    current (every Reader reads with those, loaded at import), else loaded from the cache
    (built and saved the first time). ``shipped=False`` skips the package's tables."""
    if shipped and shipped_parser() is not None:
        return None
    log.info("grammar.tables_stale", hint="run scripts/build-order-tables")
    where = directory if directory is not None else cache_dir()
    cache = str(where / _FILE) if where is not None else None
    try:
        return make_tables(build_parser(cache))
    except OSError as exc:  # an unwritable cache costs the build, never the command
        log.warning("grammar.cache_failed", error=str(exc))
        return make_tables(build_parser())


#: The App's one order reader (a shelf of one: it is never derived again).
ORDER_READER: ShelfOf[Reader] = ShelfOf("flungo.order_reader", 1)


def order_reader(session: Session) -> Reader:
    """The Reader of the App whose session factory made ``session``: every orders mail the
    App reads is read with it, so a line read once is not read cold again."""
    return kept(session).shelf(ORDER_READER).get("reader", 0, lambda: Reader(warm_order_parser()))
