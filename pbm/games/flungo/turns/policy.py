"""A competition's turn policy: its settings (the config's defaults, the competition's
overrides) and the pure decisions they drive: whether a stage is due, which reminders are,
and whether the pre-run check holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbm.core.config import TurnsConfig
from pbm.db.models import Competition
from pbm.games.flungo.schedule import Cadence, parse_duration, parse_schedule

__all__ = ["Settings", "hold_reason", "is_due", "reminders_due", "settings_for"]


@dataclass(frozen=True, slots=True)
class Settings:
    """A competition's turn settings: the config's ``[turns]``, overridden per competition."""

    cadence: Cadence
    early: timedelta
    grace: timedelta
    reminders: tuple[timedelta, ...]
    hold_share: float
    hold_on_intake_errors: bool
    naming_after_full: timedelta | None
    nmr_limit: int = 0


def _seconds(value: Any) -> timedelta:
    if isinstance(value, str):
        return parse_duration(value)
    return timedelta(seconds=float(value))


def settings_for(comp: Competition, turns: TurnsConfig) -> Settings:
    """The settings in force for ``comp`` (its ``settings`` JSON overrides the config)."""
    return _settings(comp.settings, comp.schedule, turns)


def _settings(
    settings: Mapping[str, Any] | None, schedule: str | None, turns: TurnsConfig
) -> Settings:
    over: Mapping[str, Any] = settings or {}
    after_full = over.get("naming_after_full", turns.naming_after_full)
    return Settings(
        cadence=parse_schedule(schedule or turns.schedule),
        early=_seconds(over.get("early", turns.early_seconds)),
        grace=_seconds(over.get("grace", turns.grace_seconds)),
        reminders=tuple(_seconds(r) for r in over.get("reminders", turns.reminders)),
        hold_share=float(over.get("hold_share", turns.hold_share)),
        hold_on_intake_errors=bool(over.get("hold_on_intake_errors", turns.hold_on_intake_errors)),
        naming_after_full=None if after_full is None else _seconds(after_full),
        nmr_limit=int(over.get("nmr_limit", turns.nmr_limit)),
    )


def is_due(
    deadline: datetime,
    settings: Settings,
    now: datetime,
    all_in_at: datetime | None,
) -> bool:
    """Whether a stage runs now: at its deadline plus the grace period, or early once every
    team's orders are in (``all_in_at``, the last of them) and the delay has passed."""
    if now >= deadline + settings.grace:
        return True
    return all_in_at is not None and now >= all_in_at + settings.early


def reminders_due(
    opened_at: datetime, deadline: datetime, settings: Settings, now: datetime, sent: list[float]
) -> tuple[list[float], list[float]]:
    """(offsets to remind at now, offsets that were already past when the stage opened);
    offsets are seconds before the deadline."""
    remind, skip = [], []
    for offset in settings.reminders:
        secs = offset.total_seconds()
        if secs in sent:
            continue
        at = deadline - offset
        if at <= opened_at:
            skip.append(secs)
        elif at <= now < deadline:
            remind.append(secs)
    return remind, skip


def hold_reason(
    teams: int, sent: int, dead_letters: int, settings: Settings, skip_check: bool
) -> str | None:
    """Why the pre-run check holds a stage (None: it runs). Like Eressea's ``nmr_check``."""
    if skip_check or teams == 0:
        return None
    silent = teams - sent
    if silent / teams > settings.hold_share:
        return (
            f"{silent} of {teams} teams sent nothing for this stage "
            f"(more than {settings.hold_share:.0%})"
        )
    if settings.hold_on_intake_errors and dead_letters:
        return f"{dead_letters} mail(s) failed to be handled since the stage opened"
    return None
