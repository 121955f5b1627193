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
    # Which Reader the order language reads with (engine/flungo/language/_reader.py): the
    # caller's, activated for one read, so no memo is the module's; no I/O, no clock.
    "contextlib",
    "contextvars",
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


def _imported(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in ``path``, relative ones resolved, and each name a
    ``from`` import takes as a module of its own (``from pbm.games import flungo``)."""
    package = ".".join(path.relative_to(root).with_suffix("").parts)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


def _game_of(module: str) -> str | None:
    """The game package ``module`` is in or names (None: not a game's)."""
    parts = module.split(".")
    if parts[:2] == ["pbm", "games"] and len(parts) > 2 and parts[2] in _GAME_PACKAGES:
        return parts[2]
    return None


_GAME_PACKAGES = {
    p.name for p in (ROOT / "pbm" / "games").iterdir() if (p / "__init__.py").exists()
}


def _crossings() -> set[tuple[str, str]]:
    """Every import of a game's module from outside that game, but the CLI's and the list's."""
    crossings: set[tuple[str, str]] = set()
    for path in sorted((ROOT / "pbm").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("pbm/cli/") or rel == "pbm/games/__init__.py":
            continue
        here = _game_of(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for _line, module in _imported(path):
            game = _game_of(module)
            if game is not None and game != here:
                crossings.add((rel, _game_module(module)))
    return crossings


def test_nothing_but_the_list_and_the_cli_imports_a_game() -> None:
    """The machinery reaches a game only through ``pbm.games.GAMES`` (the protocol and the
    list); no game imports another; only the CLI and the list import a game's modules."""
    assert sorted(_crossings()) == []


def _game_module(module: str) -> str:
    """``pbm.games.<game>.<module>``: the module of the game an import reaches."""
    return ".".join(module.split(".")[:4])


def test_the_boundary_check_sees_each_way_of_importing_a_game(tmp_path: Path) -> None:
    """The walk finds absolute, ``from`` and relative imports of a game's module alike."""
    pkg = tmp_path / "pbm" / "inbound"
    pkg.mkdir(parents=True)
    sample = pkg / "sample.py"
    sample.write_text(
        "import pbm.games.flungo.turns\n"
        "from pbm.games import flungo\n"
        "from ..games.hitforsix import mail\n"
        "from pbm.games import GAMES\n"
    )
    games = [_game_of(m) for _, m in _imported(sample, tmp_path)]
    assert [g for g in games if g] == ["flungo", "flungo", "hitforsix", "hitforsix"]
