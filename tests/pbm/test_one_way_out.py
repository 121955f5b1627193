"""Every mail enters the outbox by one function, is composed by one composer, and is read
by one audit writer's table: found by reading pbm's source, so a second path cannot creep in."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PBM = Path(__file__).resolve().parents[2] / "pbm"
THE_WAY_IN = ("outbound/replies.py", "enqueue")


def _calls(tree: ast.AST) -> list[tuple[str, ast.Call, str]]:
    """(the enclosing function's name, the call, the called name) of every call in ``tree``."""
    found: list[tuple[str, ast.Call, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef) else where
            if isinstance(child, ast.Call):
                func = child.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                found.append((where, child, name))
            visit(child, inner)

    visit(tree, "")
    return found


@functools.cache  # parsed once for the module's tests: pbm's source does not change under them
def _sources() -> list[tuple[str, ast.Module]]:
    return [
        (str(p.relative_to(PBM)), ast.parse(p.read_text(encoding="utf-8")))
        for p in sorted(PBM.rglob("*.py"))
    ]


def _names_outbox(node: ast.AST) -> bool:
    return _names(node, "OutboxMessage")


def test_no_module_builds_an_outbox_row_of_its_own() -> None:
    """No ``OutboxMessage(...)`` is constructed anywhere in pbm/, and the one insert into the
    outbox table is run only by :func:`pbm.outbound.replies.enqueue` (the zine's issues too)."""
    built = [
        f"{path}:{call.lineno}"
        for path, tree in _sources()
        for _, call, name in _calls(tree)
        if name == "OutboxMessage"
    ]
    assert built == []
    inserts = [
        (path, where)
        for path, tree in _sources()
        for where, call, name in _calls(tree)
        if name == "insert" and any(_names_outbox(a) for a in call.args)
    ]
    assert inserts == [(THE_WAY_IN[0], "")]  # the statement, built once beside enqueue
    runs = [
        (path, where)
        for path, tree in _sources()
        for where, call, name in _calls(tree)
        if name == "execute"
        and any(isinstance(a, ast.Name) and a.id == "_INSERT" for a in call.args)
        and path == THE_WAY_IN[0]
    ]
    assert runs == [THE_WAY_IN]


def test_mail_is_composed_by_one_composer() -> None:
    """Outside pbm/mail/compose.py only ``compose_message`` makes a message's bytes: no
    second composer (the old ``compose_bytes``, a reply composer) is called."""
    others = [
        f"{path}:{call.lineno} {name}"
        for path, tree in _sources()
        if path != "mail/compose.py"
        for _, call, name in _calls(tree)
        if name in ("compose", "compose_bytes", "compose_reply", "_package_bytes", "_plain_bytes")
    ]
    assert others == []


def _imports_the_model(tree: ast.Module, name: str) -> bool:
    return any(
        isinstance(n, ast.ImportFrom)
        and n.module == "pbm.db.models"
        and any(a.name == name for a in n.names)
        for n in ast.walk(tree)
    )


def test_the_audit_log_has_one_writer() -> None:
    """Only :func:`pbm.core.events.record` inserts into the events table, and no module adds
    an ``Event`` row of its own (a ``threading.Event`` is no row)."""
    writers = [
        f"{path}:{call.lineno}"
        for path, tree in _sources()
        if _imports_the_model(tree, "Event")
        for _, call, name in _calls(tree)
        if name in ("Event", "insert")
        and (name == "Event" or any(_names(a, "Event") for a in call.args))
    ]
    assert len(writers) == 1 and writers[0].startswith("core/events.py:"), writers


def _names(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))
