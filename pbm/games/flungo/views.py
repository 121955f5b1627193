"""Flungo values as template context: a competition, a squad. No database writes, no mail."""

from __future__ import annotations

from typing import Any

from engine.flungo.formats import FORMATS, Format
from engine.flungo.squad import Team
from pbm.db.models import Competition
from pbm.games.flungo.house_rules import house_rules, house_rules_text

__all__ = ["competition_ctx", "format_title", "squad_rows"]


def format_title(comp: Competition) -> str:
    """ "Twenty20", "The Hundred"..."""
    return FORMATS[Format(comp.format)].title


def squad_rows(team: Team) -> list[dict[str, Any]]:
    """A team's players as template rows."""
    return [
        {
            "slot": i,
            "name": p.name,
            "role": p.role.label,
            "batting": p.batting,
            "bowling": p.bowling,
            "fielding": p.fielding,
            "style": p.bowling_style.value,
        }
        for i, p in enumerate(team.players, start=1)
    ]


def competition_ctx(comp: Competition) -> dict[str, Any]:
    """A competition as template context."""
    return {
        "code": comp.code,
        "name": comp.name,
        "format": format_title(comp),
        "teams": comp.teams,
        "naming_deadline": comp.naming_deadline.strftime("%Y-%m-%d %H:%M UTC"),
        "house_rules": house_rules_text(comp.settings),
        **house_rules(comp.settings),
        "hundred": comp.format == Format.HUNDRED,
    }
