"""The order parser's tables as shipped in the package, so a process starts without building.

Building the LALR tables of orders.lark takes seconds, and even lark's own cache takes most of
a second to load. ``orders.tables`` beside the grammar holds what parsing needs, made by
``scripts/build-order-tables`` from the grammar: the lean driver's tables and the words of
the grammar (loaded at once), and the whole lark parser, compressed, which is unpacked only
when a line that does not parse has to be explained. The file starts with a digest of the
grammar, the lark version and this format: a file made from another grammar is not used
(the tables are then built, as before) and a test fails until it is made again.

The file is a pickle. It is part of the package, as trusted as the code beside it; nothing
outside the package is ever read here.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.resources
import lzma
import pickle
import types
import zlib
from io import BytesIO
from typing import Any

import lark
from lark import Lark
from lark.parsers import lalr_analysis

from engine.flungo.language._lalr import FastParser

__all__ = [
    "TABLES_FILE",
    "Tables",
    "digest",
    "dump_tables",
    "load_tables",
    "pack",
    "shipped_tables",
]

TABLES_FILE = "orders.tables"
# Bump when what is pickled changes shape (the driver's tables, Tables' fields).
_FORMAT = "1"
_MAGIC = b"pbm-order-tables\n"


def digest(grammar: str, options: str) -> str:
    """What the tables are made from: the grammar, lark's build options and version."""
    made_from = "\0".join([_FORMAT, lark.__version__, options, grammar])
    return hashlib.sha256(made_from.encode("utf-8")).hexdigest()


class Tables:
    """A parser ready to use: the lean driver, the grammar's words, and lark on demand."""

    def __init__(
        self,
        parser: Lark,
        keywords: frozenset[str],
        starters: frozenset[str],
        packed: bytes | None = None,
    ) -> None:
        """``packed``: :func:`pack` of ``parser`` taken before it parsed anything (smaller
        and quicker to load than one with every lexer built, as the driver's making does)."""
        self.fast = FastParser(parser)
        self.keywords = keywords
        self.starters = starters
        self._lark: Lark | None = parser
        self._packed = packed
        self.derived: dict[str, Any] = {}  # see _grammar.by_grammar

    def lark(self) -> Lark:
        """The lark parser itself (for explaining a line that does not parse)."""
        if self._lark is None:
            assert self._packed is not None
            self._lark = pickle.loads(lzma.decompress(self._packed))
        return self._lark

    def __getstate__(self) -> dict[str, Any]:
        packed = self._packed
        if packed is None:
            packed = pack(self.lark())
        return {
            "fast": self.fast,
            "keywords": self.keywords,
            "starters": self.starters,
            "packed": packed,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.fast = state["fast"]
        self.keywords = state["keywords"]
        self.starters = state["starters"]
        self._packed = state["packed"]
        self._lark = None
        self.derived = {}


class _Pickler(pickle.Pickler):
    """lark's objects hold a module (``re``) and compare actions by identity (``Shift``):
    those are pickled by name, so they are the same objects when loaded."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, types.ModuleType):
            return importlib.import_module, (obj.__name__,)
        if obj is lalr_analysis.Shift or obj is lalr_analysis.Reduce:
            return getattr, (lalr_analysis, "Shift" if obj is lalr_analysis.Shift else "Reduce")
        return NotImplemented


def pack(parser: Lark) -> bytes:
    """``parser`` pickled and compressed (lzma: it is unpacked only to explain errors)."""
    return lzma.compress(_pickle(parser))


def _pickle(obj: object) -> bytes:
    out = BytesIO()
    _Pickler(out, protocol=5).dump(obj)
    return out.getvalue()


def dump_tables(tables: Tables, made_from: str) -> bytes:
    """The file's bytes: the magic line, the digest, then the compressed tables."""
    return _MAGIC + made_from.encode("ascii") + b"\n" + zlib.compress(_pickle(tables), 6)


def load_tables(data: bytes, made_from: str) -> Tables | None:
    """The tables in ``data``, or ``None`` unless they were made from ``made_from``."""
    head = _MAGIC + made_from.encode("ascii") + b"\n"
    if not data.startswith(head):
        return None
    tables = pickle.loads(zlib.decompress(data[len(head) :]))
    return tables if isinstance(tables, Tables) else None


def shipped_tables(made_from: str) -> Tables | None:
    """The package's tables if they were made from ``made_from`` (else ``None``)."""
    resource = importlib.resources.files(__package__).joinpath(TABLES_FILE)
    try:
        data = resource.read_bytes()
    except OSError:
        return None
    return load_tables(data, made_from)
