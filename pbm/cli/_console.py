"""The one place pbm's commands get a rich console.

On a terminal rich fits lines to its width. Piped (a log, cron's mail, a test), a line is
never wrapped: an error line read by a script or grepped from a log must stay one line, and
rich's guess of 80 columns for a pipe broke check-config's messages in two. Tables, which need
a width, get ``min_width`` columns when piped, or fit the ``COLUMNS`` the reader set.
"""

from __future__ import annotations

import os
from typing import Any

from rich.console import Console

__all__ = ["make_console"]


def make_console(*, stderr: bool = False, min_width: int | None = None, **options: Any) -> Console:
    """A console for stdout (or ``stderr``); ``options`` are rich's (``markup``, ...)."""
    options.setdefault("highlight", False)
    c = Console(stderr=stderr, **options)
    if c.is_terminal or (min_width is not None and "COLUMNS" in os.environ):
        return c  # a table fits the width a terminal, or COLUMNS, gives it
    if min_width is not None and "width" not in options and "COLUMNS" not in os.environ:
        c = Console(stderr=stderr, width=max(c.width, min_width), **options)
    c.soft_wrap = True
    return c
