"""The season's news in words: each season event an issue reports (rounds, champions,
eliminations, byes, injuries and their treatment), and each team's helper-point boosts in one
line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.flungo.fitness import injury_points_text

__all__ = ["boosts_text", "season_event_text"]


def season_event_text(e: Any) -> str:
    kind = getattr(e, "kind", "")
    if kind in ("fixture_scheduled", "stat_boosted"):
        return ""  # the fixtures are listed; boosts are summed up per team
    if kind == "round_completed":
        return f"Round {e.round} is complete."
    if kind == "competition_finished":
        return f"{e.champion} are the champions!" + (
            f" Runners-up: {e.runner_up}." if e.runner_up else ""
        )
    if kind == "team_eliminated":
        return f"{e.team} are out of the competition."
    if kind == "fixture_ready":
        return f"{e.label}: {e.home} v {e.away} at {e.pitch_name}."
    if kind == "bye_given":
        return f"{e.team} have a bye in round {e.round}."
    if kind == "injury_treated":
        points = f"{e.points} helper point{'s' * (e.points != 1)}"
        if e.remaining:
            return (
                f"{e.team}: {e.player} treated ({points}), not enough: "
                f"{injury_points_text(e.remaining)} left."
            )
        return f"{e.team}: {e.player} treated ({points}) and fit to play."
    if kind == "helper_points_lost":
        return f"{e.team} lost {e.points} helper points: {e.reason}."
    if kind == "player_sits_out":
        return (
            f"{e.team}: {e.player} is injured ({injury_points_text(e.injury_points)}, not "
            "fully treated) and sits out this match; he is healed after it."
        )
    if kind == "player_injured":
        if not e.points:
            return f"{e.team}: {e.player} was hurt but is fit for the next match."
        return (
            f"{e.team}: {e.player} has {injury_points_text(e.points)}: he sits out the "
            "next match unless treated."
        )
    if kind == "player_healed":
        return f"{e.team}: {e.player} is fit again."
    return ""


def boosts_text(events: Sequence[Any]) -> tuple[str, ...]:
    by_team: dict[str, list[str]] = {}
    for e in events:
        if getattr(e, "kind", "") == "stat_boosted":
            by_team.setdefault(e.team, []).append(f"{e.player} {e.stat} {e.before}→{e.after}")
    from pbm.games.flungo.zine.story import possessive

    return tuple(f"{possessive(t)} helper points: {', '.join(b)}." for t, b in by_team.items())
