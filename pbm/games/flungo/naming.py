"""Naming a squad by mail, read with the order language (``engine.flungo.language``).

    SECRET XXXX-XXXX-XXXX-XXXX
    TEAM NAME The Gungeworth Gloopers
    NAME 1 Mrs Snodgebucket
    NAME 12 Zippy

Every error is reported with its line and a caret. By mail, names merge by part
(:func:`apply_slots`): a NAME line changes its slot only, and :func:`diff_teams` says what
changed. :func:`apply_naming` applies a whole naming to the squad as generated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from engine.errors import OrderError
from engine.flungo.formats import Format
from engine.flungo.language import Reader, parse_orders
from engine.flungo.orders import SquadNaming
from engine.flungo.squad import Team
from engine.lookalike import lookalike_key

__all__ = [
    "Change",
    "NamingResult",
    "apply_naming",
    "apply_slots",
    "diff_teams",
    "is_fully_named",
    "lookalike_of",
    "read_naming",
    "still_unnamed",
]


@dataclass(frozen=True, slots=True)
class NamingResult:
    """What a naming mail said: the naming (if any), every error, the echo, and whether the
    mail also carried orders that are not namings (not acted on while squads are named)."""

    naming: SquadNaming | None
    errors: tuple[OrderError, ...]
    echo: str
    other_orders: bool = False


def read_naming(text: str, base: Team, fmt: str, reader: Reader | None = None) -> NamingResult:
    """Read a naming mail against the squad as generated (placeholder names), with the App's
    ``reader`` if given."""
    parsed = parse_orders(text, base, Format(fmt), reader=reader)
    orders = parsed.orders
    naming = orders.naming
    if naming is not None and naming.team_name is None and not naming.names:
        naming = None
    other = bool(orders.match or orders.helpers)
    return NamingResult(naming, tuple(parsed.errors), parsed.echo_text(), other)


def apply_naming(base: Team, naming: SquadNaming, placeholder_team_name: str) -> Team:
    """``base`` (the squad as generated, placeholder names) with this naming applied whole."""
    team = base
    for slot, name in naming.names:
        team = team.with_player(slot, replace(team.players[slot - 1], name=name))
    return replace(team, name=naming.team_name or placeholder_team_name)


def apply_slots(current: Team, naming: SquadNaming) -> Team:
    """``current`` with the names a mail gave, slot by slot: a NAME line changes its slot
    only, and the team name only when the mail gives one (names merge by part)."""
    # one copy of the squad, not one a NAME line: a whole naming gives eighteen
    players = list(current.players)
    for slot, name in naming.names:
        players[slot - 1] = replace(players[slot - 1], name=name)
    return replace(current, players=tuple(players), name=naming.team_name or current.name)


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between two versions of a team."""

    what: str
    old: str
    new: str


def diff_teams(old: Team, new: Team) -> list[Change]:
    """What changed from ``old`` to ``new``: team name, then slot by slot."""
    changes: list[Change] = []
    if old.name != new.name:
        changes.append(Change("Team name", old.name, new.name))
    for slot, (a, b) in enumerate(zip(old.players, new.players, strict=True), start=1):
        if a.name != b.name:
            changes.append(Change(f"{slot:>2} {a.role.label}", a.name, b.name))
    return changes


def is_fully_named(team: Team, placeholders: Iterable[str], placeholder_team_name: str) -> bool:
    """Whether the team and every squad member carry chosen names."""
    return not still_unnamed(team, placeholders, placeholder_team_name)


def still_unnamed(team: Team, placeholders: Iterable[str], placeholder_team_name: str) -> list[str]:
    """What :func:`is_fully_named` finds unnamed, in words for the player: the team while it
    carries its placeholder name (also when the player gave that name: it is the name a team
    has until it is named, so it counts as none), then the slots still on theirs."""
    ph = set(placeholders)
    out = []
    if team.name == placeholder_team_name:
        out.append(
            f'the team itself ("{placeholder_team_name}" is the name it has until you name it)'
        )
    slots = [str(n) for n, p in enumerate(team.players, start=1) if p.name in ph]
    if slots:
        out.append(("slot " if len(slots) == 1 else "slots ") + ", ".join(slots))
    return out


def lookalike_of(
    name: str,
    others: Iterable[tuple[int, str]],
    key: Callable[[str], tuple[str, str]] = lookalike_key,
) -> tuple[int, str] | None:
    """The first of ``others`` (seat number, team name) that a reader could not tell from
    ``name``: the same TS #39 skeleton, case folded or not (``engine.lookalike``), so a
    Cyrillic о, an invisible joiner or a change of case does not make a second name.
    ``key`` is ``lookalike_key`` or a caller's memo of it."""
    mine = key(name)
    for number, other in others:
        theirs = key(other)
        if mine[0] == theirs[0] or mine[1] == theirs[1]:
            return number, other
    return None
