"""A competition's own settings, as the GM writes them (``pbm gm new --set KEY=VALUE``, or
``KEY=VALUE`` words in a NEWGAME mail): the turn settings that override ``[turns]``, and the
house rules the engine plays by.

The house rules go into the engine's competition at the draw
(:class:`engine.flungo.competition.Competition`), and from it into every match's
``MatchSetup``; the RULES mail states them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.flungo.formats import Format
from pbm.core.errors import GameError
from pbm.games.flungo.schedule import parse_duration

__all__ = [
    "HOUSE_RULES",
    "SETTING_KEYS",
    "house_rules",
    "house_rules_text",
    "parse_setting",
    "parse_settings",
]

#: The house rules, each off unless the GM sets it: its key and what it means, for the GM.
HOUSE_RULES: Mapping[str, str] = {
    "no_consecutive_overs": "no bowler bowls two overs running (the cricket law; the seed "
    "allows two in succession, never three)",
    "hundred_tiebreak": "The Hundred's knockout tie: a second Super Five after a tied one, "
    "then the higher place in the draw wins",
}

_DURATIONS = ("early", "grace", "naming_after_full")
#: Every key ``--set`` and NEWGAME take.
SETTING_KEYS = (*_DURATIONS, "hold_share", "reminders", "nmr_limit", *HOUSE_RULES)

_YES = {"yes", "on", "true", "1", "y"}
_NO = {"no", "off", "false", "0", "n"}


def parse_setting(key: str, value: str) -> Any:
    """The stored value of one ``KEY=VALUE``; raises :class:`GameError` saying what is wrong."""
    key = key.strip().lower()
    value = value.strip()
    if key not in SETTING_KEYS:
        raise GameError(f"{key!r}: the settings are {', '.join(SETTING_KEYS)}")
    try:
        if key in HOUSE_RULES:
            word = value.lower() or "yes"
            if word not in _YES | _NO:
                raise ValueError(f"{value!r}: give yes or no")
            return word in _YES
        if key == "hold_share":
            share = float(value)
            if not 0 <= share <= 1:
                raise ValueError("a share from 0 to 1")
            return share
        if key == "nmr_limit":
            n = int(value)
            if not 0 <= n <= 1000:
                raise ValueError("a number of stages from 0 (off) to 1000")
            return n
        if key == "reminders":
            return [parse_duration(v).total_seconds() for v in value.split(",") if v.strip()]
        return parse_duration(value).total_seconds()
    except ValueError as exc:
        raise GameError(f"{key}={value}: {exc}") from exc


def parse_settings(pairs: list[str] | tuple[str, ...], fmt: str) -> dict[str, Any]:
    """``KEY=VALUE`` words as a competition's settings, checked against its format."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise GameError(f"{pair!r}: use KEY=VALUE with KEY one of {', '.join(SETTING_KEYS)}")
        out[key.strip().lower()] = parse_setting(key, value)
    check_settings(out, fmt)
    return out


def check_settings(settings: Mapping[str, Any], fmt: str) -> None:
    """Refuse a house rule the format cannot play."""
    if settings.get("hundred_tiebreak") and fmt != Format.HUNDRED:
        raise GameError("hundred_tiebreak is a rule of The Hundred: use --format hundred")


def house_rules(settings: Mapping[str, Any] | None) -> dict[str, bool]:
    """The house rules a competition's settings choose (each True or False)."""
    over = settings or {}
    return {k: bool(over.get(k, False)) for k in HOUSE_RULES}


def house_rules_text(settings: Mapping[str, Any] | None) -> list[str]:
    """The house rules in force, a sentence each, for the players."""
    return [HOUSE_RULES[k] for k, on in house_rules(settings).items() if on]
