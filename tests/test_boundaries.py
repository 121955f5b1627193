"""The engine stays pure: it imports only the standard library's pure parts, numpy and lark."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_ROOTS = {
    "__future__",
    "abc",
    "base64",
    "bisect",
    "collections",
    "dataclasses",
    "decimal",
    "difflib",
    "enum",
    "fractions",
    "functools",
    "hashlib",
    "heapq",
    "importlib",
    "itertools",
    "json",
    "math",
    "numbers",
    "operator",
    "re",
    "statistics",
    "tomllib",  # a pure parser, as json is: the order lexicon is a reviewed TOML file
    "string",
    "struct",
    "textwrap",
    "typing",
    "unicodedata",
    "zlib",
    "numpy",
    "lark",
    # Unicode properties Python's unicodedata lacks (Default_Ignorable_Code_Point, for names
    # that cannot be seen: engine/lookalike.py); pure matching, no I/O
    "regex",
    "engine",
    "html",
    "colorsys",
    # The order language's shipped parse tables (engine/flungo/language/_tables.py): packed
    # arrays, unpickled from the package's own data (never from input), all in memory.
    "array",
    "lzma",
    "pickle",
    "types",
}
#: Names that may be imported from an otherwise I/O module: in-memory buffers only.
ALLOWED_NAMES = {"io": {"BytesIO"}}


def test_engine_imports_only_pure_modules() -> None:
    """No module under engine/ imports pbm, I/O, clocks or anything outside the allowed list."""
    bad = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if {a.name for a in node.names} <= ALLOWED_NAMES.get(node.module, set()):
                    continue
                names = [node.module]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in ALLOWED_ROOTS:
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    assert bad == []


def test_engine_never_uses_global_random_or_clock() -> None:
    """The engine never touches random, time or datetime.now (randomness is passed in)."""
    offenders = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        text = path.read_text()
        for needle in ("import random", "from random", "datetime.now(", "time.time("):
            if needle in text:
                offenders.append(f"{path.relative_to(ROOT)}: {needle}")
    assert offenders == []
