"""The value one understood order is while the checks across a mail's lines run.

Its own module, below the reader and the checks, builders and expanders that take it, so
each of them imports it and none imports the reader (no cycle in the language package).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import OrderError
from engine.flungo.language._lines import CleanLine

__all__ = ["Item"]


@dataclass
class Item:
    """One understood order from one line, waiting for the checks across lines."""

    line: CleanLine
    kind: str
    value: Any
    start: int = 0
    end: int = 0
    ok: bool = True

    def error(self, cls: type[OrderError], message: str, hint: str | None = None) -> OrderError:
        self.ok = False
        span = self.line.span(self.start, self.end)
        return cls(message, source_line=self.line.raw, span=span, hint=hint)
