"""Durations as people write them in the config and in GM commands: ``"90s"``, ``"2h"``."""

from __future__ import annotations

import re
from datetime import timedelta

__all__ = ["parse_duration"]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$", re.IGNORECASE)


def parse_duration(text: str) -> timedelta:
    """``"90s"``, ``"3m"``, ``"2h"``, ``"1d"``, ``"1w"``; ``ValueError`` otherwise."""
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"{text!r} is not a duration: use a number and s, m, h, d or w (2h)")
    return timedelta(seconds=float(m.group(1)) * _UNITS[m.group(2).lower()])
