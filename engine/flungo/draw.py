"""Making competitions: the draw of a league or a knockout, its pitches and conditions.

Dice are used only here, in this order: the optional random draw of the teams' order
(``draw=True``), the drawing of lots for the last tie-breaker, the shuffle of pitch names, then a
pitch D6 and a weather D6 for each fixture in fixture order. Every fixture is made up front, with
its pitch and conditions, so that "each player knows who he is playing and on what pitch";
later knockout rounds name their sides as "Winner of Semi-final 1" until it is played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from engine.dice import Dice
from engine.flungo.competition import (
    Competition,
    CompetitionKind,
    describe_entrant,
    round_turns,
)
from engine.flungo.fixtures import (
    Entrant,
    EntrantKind,
    Fixture,
    bracket_order,
    draw_pitch_names,
    round_robin,
    shuffled,
)
from engine.flungo.formats import Format
from engine.flungo.ground import Conditions, roll_conditions
from engine.flungo.season_events import ByeGiven, FixtureScheduled, SeasonEvent
from engine.flungo.summary import CompetitionError

__all__ = ["mini_tournament", "new_knockout", "new_league"]


def _check_teams(teams: Sequence[str]) -> tuple[str, ...]:
    names = tuple(teams)
    if len(names) < 2:
        raise CompetitionError("a competition needs at least two teams")
    if len(set(names)) != len(names):
        raise CompetitionError("team names in a competition must be unique")
    return names


def _finish_creation(
    base: Competition, dice: Dice, exclude_pitches: Iterable[str]
) -> tuple[Competition, tuple[SeasonEvent, ...]]:
    """Draw lots, pitches and conditions for ``base`` (whose fixtures have placeholder
    conditions), and announce the draw."""
    lots = tuple(shuffled(dice, base.teams, "drawing of lots"))
    names = draw_pitch_names(dice, len(base.fixtures), exclude_pitches)
    fixtures = tuple(
        replace(f, conditions=roll_conditions(dice, name))
        for f, name in zip(base.fixtures, names, strict=True)
    )
    comp = replace(base, lots=lots, fixtures=fixtures)
    events: list[SeasonEvent] = []
    for f in fixtures:
        first, last = round_turns(comp, f.round)
        events.append(
            FixtureScheduled(
                fixture_id=f.id,
                round=f.round,
                label=f.label,
                home=describe_entrant(comp, f.home),
                away=describe_entrant(comp, f.away),
                pitch_name=f.pitch_name,
                pitch=f.conditions.pitch.name,
                weather=f.conditions.weather.name,
                first_turn=first,
                last_turn=last,
            )
        )
    events.extend(ByeGiven(round=r, team=t) for r, t in comp.byes)
    return comp, tuple(events)


# Replaced by the drawn pitch and rolled conditions before a competition is returned.
_PLACEHOLDER = Conditions("to be drawn", 3, 1)


def new_league(
    name: str,
    teams: Sequence[str],
    fmt: Format,
    dice: Dice,
    *,
    double: bool = False,
    draw: bool = False,
    first_turn: int = 1,
    exclude_pitches: Iterable[str] = (),
) -> tuple[Competition, tuple[SeasonEvent, ...]]:
    """A round-robin league (``double`` for home and away), scheduled from ``first_turn``.

    ``draw`` shuffles the teams with dice before the circle method; otherwise the order given
    fixes the schedule. Returns the competition and its :class:`FixtureScheduled` and
    :class:`ByeGiven` events.
    """
    names = _check_teams(teams)
    if draw:
        names = tuple(shuffled(dice, names, "league draw"))
    cycle = round_robin(names)
    legs = [cycle, [[(a, h) for h, a in rnd] for rnd in cycle]] if double else [cycle]
    fixtures: list[Fixture] = []
    byes: list[tuple[int, str]] = []
    r = 0
    for leg in legs:
        for pairs in leg:
            r += 1
            m = 0
            for home, away in pairs:
                if home is None or away is None:
                    byes.extend((r, t) for t in (home, away) if t is not None)
                    continue
                m += 1
                fixtures.append(
                    Fixture(
                        f"R{r}M{m}",
                        r,
                        f"Round {r}",
                        Entrant.team(home),
                        Entrant.team(away),
                        _PLACEHOLDER,
                    )
                )
    base = Competition(
        name=name,
        kind=CompetitionKind.LEAGUE,
        format=fmt,
        teams=names,
        fixtures=tuple(fixtures),
        byes=tuple(byes),
        lots=(),
        rounds=r,
        first_turn=first_turn,
        double=double,
    )
    return _finish_creation(base, dice, exclude_pitches)


def _round_name(round_: int, rounds: int) -> str:
    return {0: "Final", 1: "Semi-final", 2: "Quarter-final"}.get(rounds - round_, f"Round {round_}")


def new_knockout(
    name: str,
    teams: Sequence[str],
    fmt: Format,
    dice: Dice,
    *,
    third_place: bool = False,
    draw: bool = False,
    first_turn: int = 1,
    exclude_pitches: Iterable[str] = (),
) -> tuple[Competition, tuple[SeasonEvent, ...]]:
    """A knockout for any number of teams, seeded in the order given (``draw`` shuffles first).

    The bracket is padded to the next power of two; the top seeds get the byes (see
    :mod:`engine.flungo.fixtures`). ``third_place`` adds a 3rd/4th play-off between the losing
    semi-finalists, played alongside the final (it needs at least four teams).
    """
    names = _check_teams(teams)
    if third_place and len(names) < 4:
        raise CompetitionError("a 3rd/4th play-off needs at least four teams")
    if draw:
        names = tuple(shuffled(dice, names, "knockout draw"))
    size = 1
    while size < len(names):
        size *= 2
    rounds = size.bit_length() - 1
    slots: list[Entrant | None] = [
        Entrant.team(names[s - 1]) if s <= len(names) else None for s in bracket_order(size)
    ]
    fixtures: list[Fixture] = []
    byes: list[tuple[int, str]] = []
    semis: list[str] = []
    for r in range(1, rounds + 1):
        title = _round_name(r, rounds)
        nxt: list[Entrant | None] = []
        m = 0
        for home, away in zip(slots[::2], slots[1::2], strict=True):
            if home is None or away is None:
                # Only first-round slots can be byes, and a bye never meets a bye.
                through = home if away is None else away
                assert through is not None and through.kind is EntrantKind.TEAM
                byes.append((r, through.ref))
                nxt.append(through)
                continue
            m += 1
            fid = f"R{r}M{m}"
            label = title if title == "Final" else f"{title} {m}"
            if title.startswith("Round"):
                label = f"Round {r} match {m}"
            fixtures.append(Fixture(fid, r, label, home, away, _PLACEHOLDER))
            nxt.append(Entrant(EntrantKind.WINNER, fid))
            if r == rounds - 1:
                semis.append(fid)
        if r == rounds and third_place:
            fixtures.append(
                Fixture(
                    f"R{r}M{m + 1}",
                    r,
                    "3rd/4th play-off",
                    Entrant(EntrantKind.LOSER, semis[0]),
                    Entrant(EntrantKind.LOSER, semis[1]),
                    _PLACEHOLDER,
                )
            )
        slots = nxt
    base = Competition(
        name=name,
        kind=CompetitionKind.KNOCKOUT,
        format=fmt,
        teams=names,
        fixtures=tuple(fixtures),
        byes=tuple(byes),
        lots=(),
        rounds=rounds,
        first_turn=first_turn,
        third_place=third_place,
    )
    return _finish_creation(base, dice, exclude_pitches)


def mini_tournament(
    name: str, teams: Sequence[str], fmt: Format, dice: Dice, *, first_turn: int = 1
) -> tuple[Competition, tuple[SeasonEvent, ...]]:
    """The seed's 4-team mini-tournament: semi-finals (1 v 4, 2 v 3) in turns 1-4, then the
    final and the 3rd/4th play-off in turns 5-8 (counted from ``first_turn``)."""
    if len(teams) != 4:
        raise CompetitionError(f"the mini-tournament is for four teams, not {len(teams)}")
    return new_knockout(name, teams, fmt, dice, third_place=True, first_turn=first_turn)
