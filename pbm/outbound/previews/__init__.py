"""Made-up contexts for every mail kind of pbm itself (no game's): one module a kind (named as
the kind, ``-`` as ``_``), each with ``context()``, for ``pbm mail preview`` and the tests that
read every mail as a player sees it. Each game keeps its own kinds' the same way
(``pbm/games/<game>/previews/``)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from typing import Any

__all__ = ["contexts", "contexts_in"]


def contexts_in(package: str, path: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Every kind's made-up context in the preview package ``package`` (at ``path``)."""
    out = {}
    for info in pkgutil.iter_modules(list(path)):
        if not info.name.startswith("_"):
            module = importlib.import_module(f"{package}.{info.name}")
            out[info.name.replace("_", "-")] = module.context()
    return out


def contexts() -> dict[str, dict[str, Any]]:
    """The made-up context of each of pbm's own kinds, by kind."""
    return contexts_in(__name__, __path__)
