"""The language package's modules form layers: no import cycle, none over 800 lines."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "flungo" / "language"
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, at run time or for type checking."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        name = node.module if isinstance(node, ast.ImportFrom) else None
        if name and name.startswith("engine.flungo.language."):
            out.add(name.rsplit(".", 1)[1])
    return out


def test_no_import_cycle_between_the_language_modules() -> None:
    """Following every import (type-only ones too) from any module never comes back to it:
    the value types sit below the reader, which nothing below imports."""
    graph = {m: _imports(m) & set(MODULES) for m in MODULES}

    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo += graph[m]
        return seen

    cycles = [m for m in MODULES if m in reaches(m)]
    assert cycles == []


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    """Each module can be the first one imported: no order of imports is needed for it to
    load (a cycle broken only by import order would fail here)."""
    name = f"engine.flungo.language.{module}"
    done = subprocess.run(
        [sys.executable, "-c", f"import {name}"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("module", MODULES)
def test_no_module_over_800_lines(module: str) -> None:
    """A module a newcomer can read: at most 800 lines."""
    lines = (PACKAGE / f"{module}.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 800, f"{module}.py has {lines} lines"
