"""The engine holds no global state (issue 25): no module-level memo (``functools.cache``,
``lru_cache``), no ``global`` rebinding, no module-level container that the module fills as
it runs (a registry). Tables computed once from constants at import and never changed are
allowed: they give the same value in every process, whatever was asked before.

The orders reader remembers a great deal between lines and mails, but in the ``Reader`` its
caller owns (``engine/flungo/language/_reader.py``): the package holds only a ``ContextVar``
saying which Reader is active, an immutable handle, not a container."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_MEMOS = {"cache", "lru_cache"}
_CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}
_MUTATORS = {
    "append",
    "extend",
    "insert",
    "add",
    "update",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "remove",
    "discard",
    "appendleft",
    "__setitem__",
    "__delitem__",
}


def _name(node: ast.expr) -> str:
    """The last dotted part of a decorator or a callee (``functools.lru_cache(8)`` -> lru_cache)."""
    if isinstance(node, ast.Call):
        return _name(node.func)
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _is_container(value: ast.expr | None) -> bool:
    mutable = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
    if isinstance(value, mutable):
        return True
    return isinstance(value, ast.Call) and _name(value.func) in _CONTAINERS


def _module_containers(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and _is_container(stmt.value):
            names |= {t.id for t in stmt.targets if isinstance(t, ast.Name)}
        elif (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and _is_container(stmt.value)
        ):
            names.add(stmt.target.id)
    return names


def _state(source: str, where: str) -> list[str]:
    """What in one module's source keeps state between calls, each as ``where:line: what``."""
    tree = ast.parse(source)
    containers = _module_containers(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [
                f"{where}:{d.lineno}: {_name(d)} memo on {node.name}"
                for d in node.decorator_list
                if _name(d) in _MEMOS
            ]
        elif isinstance(node, ast.Global):
            found.append(f"{where}:{node.lineno}: global {', '.join(node.names)}")
        elif (
            isinstance(node, ast.Subscript)
            and not isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id in containers
        ):
            found.append(f"{where}:{node.lineno}: {node.value.id}[...] written")
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            if node.target.id in containers:
                found.append(f"{where}:{node.lineno}: {node.target.id} grown")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in containers
            and node.func.attr in _MUTATORS
        ):
            found.append(f"{where}:{node.lineno}: {node.func.value.id}.{node.func.attr}()")
    return sorted(found, key=lambda f: int(f.split(":")[1]))


def _engine_state(root: Path) -> list[str]:
    found: list[str] = []
    for path in sorted((root / "engine").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        found += _state(path.read_text("utf-8"), where)
    return found


def test_no_engine_module_keeps_state_between_calls() -> None:
    """No module of engine/, the orders reader's included, has a memo, a ``global`` or a
    module-level container it changes."""
    assert _engine_state(ROOT) == []


def test_the_check_finds_each_kind_of_state(tmp_path: Path) -> None:
    """A memo (plain or dotted, bare or called), a ``global`` and each way of filling a
    module-level registry are found, in the language package too; constant tables, local
    containers, instance caches and a ContextVar handle pass."""
    bad = tmp_path / "engine" / "x" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "import functools\n"
        "from functools import cache, lru_cache\n"
        "_REGISTRY: dict[str, int] = {}\n"
        "_SEEN = set()\n"
        "_LOG = []\n"
        "@cache\ndef a(x): return x\n"
        "@functools.lru_cache(maxsize=8)\ndef b(x): return x\n"
        "def register(f):\n    _REGISTRY[f.__name__] = 1\n    return f\n"
        "def see(x):\n    _SEEN.add(x)\n"
        "def log(x):\n    global _N\n    _LOG.append(x)\n"
        "_LOG += [1]\n"
    )
    good = tmp_path / "engine" / "good.py"
    good.write_text(
        "from functools import cached_property\n"
        "from types import MappingProxyType\n"
        "__all__ = ['f']\n"
        "TABLE = MappingProxyType({'a': 1})\n"
        "NAMES = ('a', 'b')\n"
        "ORDER = ['a', 'b']\n"
        "def f(x):\n    seen = {}\n    seen[x] = ORDER[0]\n    return seen\n"
        "class C:\n    @cached_property\n    def v(self): return 1\n"
    )
    handle = tmp_path / "engine" / "flungo" / "language" / "handle.py"
    handle.parent.mkdir(parents=True)
    handle.write_text(
        "from contextvars import ContextVar\n"
        "_ACTIVE: ContextVar[object] = ContextVar('active', default=None)\n"
        "def use(x):\n    return _ACTIVE.set(x)\n"
        "_INSTALLED = []\ndef install(x):\n    _INSTALLED.append(x)\n"
    )
    assert _engine_state(tmp_path) == [
        "engine/flungo/language/handle.py:7: _INSTALLED.append()",
        "engine/x/bad.py:6: cache memo on a",
        "engine/x/bad.py:8: lru_cache memo on b",
        "engine/x/bad.py:11: _REGISTRY[...] written",
        "engine/x/bad.py:14: _SEEN.add()",
        "engine/x/bad.py:16: global _N",
        "engine/x/bad.py:17: _LOG.append()",
        "engine/x/bad.py:18: _LOG grown",
    ]
