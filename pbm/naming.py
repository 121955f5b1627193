"""Naming a squad by mail: the minimal form, until the order language replaces it.

    TEAM The Gungeworth Gloopers
    NAME 1 Mrs Snodgebucket
    NAME 12 Zippy

Each line is checked; every error is reported with its line and a caret. A naming is a whole
version: sending again replaces the earlier one (slots left out return to their placeholder),
and :func:`diff_teams` says what changed.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.errors import IllegalOrder, InvalidOrder, OrderError, Span
from engine.flungo.orders import SquadNaming
from engine.flungo.squad import SQUAD_SIZE, Team

__all__ = ["MAX_NAME", "NamingResult", "apply_naming", "diff_teams", "parse_naming"]

MAX_NAME = 40
_VERBS = ("TEAM", "NAME")
# Command words handled elsewhere in the pipeline; naming ignores their lines.
SKIP_WORDS = frozenset({"SECRET", "JOIN", "HELP", "DIGEST", "NEWGAME"})


@dataclass(frozen=True, slots=True)
class NamingResult:
    """What a naming mail said: the naming (if any line was one), every error, and the echo."""

    naming: SquadNaming | None
    errors: tuple[OrderError, ...]
    echo: str


def _check_name(name: str, line: str, lineno: int, col: int) -> OrderError | None:
    span = Span(lineno, col, col + max(len(name), 1))
    if not name:
        return InvalidOrder("a name is missing", source_line=line, span=span)
    if len(name) > MAX_NAME:
        return IllegalOrder(
            f"name too long ({len(name)} characters; at most {MAX_NAME})",
            source_line=line,
            span=span,
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        return IllegalOrder("a name cannot contain control characters", source_line=line, span=span)
    return None


def parse_naming(text: str) -> NamingResult:
    """Read TEAM/NAME lines from an email body; never raises on what a player wrote."""
    team_name: str | None = None
    names: dict[int, str] = {}
    errors: list[OrderError] = []
    any_line = False
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        col = len(line) - len(line.lstrip()) + 1
        word, _, rest = stripped.partition(" ")
        verb = word.upper()
        if verb in SKIP_WORDS:
            continue
        any_line = True
        rest = " ".join(rest.split())
        rest_col = (
            col + len(word) + (len(stripped[len(word) :]) - len(stripped[len(word) :].lstrip()))
        )
        if verb == "TEAM":
            err = _check_name(rest, line, lineno, rest_col)
            if err:
                errors.append(err)
            else:
                team_name = rest
        elif verb == "NAME":
            m = re.fullmatch(r"(\d{1,3})\s*(.*)", rest)
            if not m:
                errors.append(
                    InvalidOrder(
                        "expected NAME <slot 1-18> <name>",
                        source_line=line,
                        span=Span(lineno, rest_col, rest_col + max(len(rest), 1)),
                    )
                )
                continue
            slot = int(m[1])
            if not 1 <= slot <= SQUAD_SIZE:
                errors.append(
                    IllegalOrder(
                        f"no slot {slot}: the squad has slots 1 to {SQUAD_SIZE}",
                        source_line=line,
                        span=Span(lineno, rest_col, rest_col + len(m[1])),
                    )
                )
                continue
            name_col = rest_col + line[rest_col - 1 :].find(m[2]) if m[2] else rest_col
            err = _check_name(m[2], line, lineno, name_col)
            if err:
                errors.append(err)
            elif slot in names:
                errors.append(
                    IllegalOrder(
                        f"slot {slot} is named twice",
                        source_line=line,
                        span=Span(lineno, rest_col, rest_col + len(m[1])),
                    )
                )
            else:
                names[slot] = m[2]
        else:
            close = difflib.get_close_matches(verb, _VERBS, n=1)
            errors.append(
                InvalidOrder(
                    f"unknown order {word!r}",
                    source_line=line,
                    span=Span(lineno, col, col + len(word)),
                    hint=f"did you mean {close[0]!r}?" if close else "naming uses TEAM and NAME",
                )
            )
    seen: dict[str, int] = {}
    for slot, name in sorted(names.items()):
        key = name.casefold()
        if key in seen:
            errors.append(IllegalOrder(f"{name!r} names both slot {seen[key]} and slot {slot}"))
        seen.setdefault(key, slot)
    naming = (
        SquadNaming(team_name=team_name, names=tuple(sorted(names.items())))
        if any_line and (team_name is not None or names)
        else None
    )
    return NamingResult(naming=naming, errors=tuple(errors), echo=echo_naming(naming))


def echo_naming(naming: SquadNaming | None) -> str:
    """The canonical text of a naming."""
    if naming is None:
        return ""
    lines = [f"TEAM {naming.team_name}"] if naming.team_name else []
    lines += [f"NAME {slot} {name}" for slot, name in naming.names]
    return "\n".join(lines)


def apply_naming(base: Team, naming: SquadNaming, placeholder_team_name: str) -> Team:
    """``base`` (the squad as generated, placeholder names) with this naming applied whole."""
    team = base
    for slot, name in naming.names:
        team = team.with_player(slot, replace(team.players[slot - 1], name=name))
    return replace(team, name=naming.team_name or placeholder_team_name)


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
    ph = set(placeholders)
    return team.name != placeholder_team_name and all(p.name not in ph for p in team.players)
