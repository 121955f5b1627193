"""The engine's errors.

Exception tree::

    EngineError
     └── OrderError (ValueError)          an order could not be accepted; carries its location
          ├── InvalidOrder                the words do not parse
          ├── IllegalOrder                well-formed, but against the rules or the game state
          └── AmbiguousOrder              a name matches more than one squad member

Every ``OrderError`` carries the text it was given, a :class:`Span` and optionally a hint
("did you mean ...?"); ``str()`` gives the message, the line number, the offending line and a
caret under the column, in the manner of lark and Jinja.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["AmbiguousOrder", "EngineError", "IllegalOrder", "InvalidOrder", "OrderError", "Span"]


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


@dataclass(frozen=True, slots=True)
class Span:
    """Where in the player's text: 1-based ``line`` and ``column``; ``end_column`` exclusive."""

    line: int
    column: int
    end_column: int | None = None


class OrderError(EngineError, ValueError):
    """An order that cannot be accepted, located in the text the player sent."""

    kind = "error"
    # whether the error stops what its line says (and the parts of the orders that line
    # speaks to) from being taken: an order mended to its nearest legal form does not
    blocks = True

    def __init__(
        self,
        message: str,
        *,
        source_line: str = "",
        span: Span | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source_line = source_line
        self.span = span
        self.hint = hint

    def caret(self) -> str:
        """The offending line with a caret (or a run of carets) under the problem."""
        if self.span is None or not self.source_line:
            return ""
        col = max(self.span.column, 1)
        end = (
            self.span.end_column if self.span.end_column and self.span.end_column > col else col + 1
        )
        return f"{self.source_line}\n{' ' * (col - 1)}{'^' * (end - col)}"

    def __str__(self) -> str:
        parts = [self.message]
        if self.span is not None:
            parts[0] = f"line {self.span.line}, column {self.span.column}: {self.message}"
        if self.hint:
            parts.append(self.hint)
        caret = self.caret()
        if caret:
            parts.append(caret)
        return "\n".join(parts)


class InvalidOrder(OrderError):
    """The words do not parse as any order."""

    kind = "invalid"


class IllegalOrder(OrderError):
    """Well-formed, but against the rules or the game state (a 12th man, an injured bowler)."""

    kind = "illegal"


class MendedPlan(IllegalOrder):
    """A bowling plan that breaks a limit, read as the nearest legal plan: the error says what
    was mended, and the plan mended stands (it blocks nothing of the mail)."""

    blocks = False


class AmbiguousOrder(OrderError):
    """A name matches more than one squad member."""

    kind = "ambiguous"
