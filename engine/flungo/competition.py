"""Competitions: leagues and knockouts, as pure values driven one result at a time.

A :class:`Competition` is a frozen value holding the draw (every fixture, with its pitch and
conditions, made up front so "each player knows who he is playing and on what pitch") and the
results so far. Nothing mutates it: :func:`record_result` returns a new competition and the
events that happened. Queries (:func:`fixtures_for_round`, :func:`fixtures_for_turn`,
:func:`standings`, :func:`champion`, ...) are plain functions of the value. ``to_text()`` is
canonical JSON and ``Competition.from_text(c.to_text()) == c``.

Competitions are made by :mod:`engine.flungo.draw` (``new_league``, ``new_knockout``,
``mini_tournament``), the only place that rolls dice for them.

Knockout ties are settled by the Super Over the match engine plays; the result's
:class:`~engine.flungo.summary.MatchSummary` simply names the winner. In a league a tie stands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.flungo.fixtures import (
    TURNS_PER_MATCH,
    Entrant,
    EntrantKind,
    Fixture,
    Phase,
)
from engine.flungo.formats import FORMATS, Format
from engine.flungo.season_events import (
    CompetitionFinished,
    FixtureReady,
    ResultRecorded,
    RoundCompleted,
    SeasonEvent,
    TeamEliminated,
)
from engine.flungo.summary import CompetitionError, MatchSummary
from engine.flungo.table import TableRow, format_table, league_table

__all__ = [
    "Competition",
    "CompetitionKind",
    "byes_for_round",
    "champion",
    "current_round",
    "describe_entrant",
    "fixture_teams",
    "fixture_text",
    "fixtures_for_round",
    "fixtures_for_turn",
    "is_finished",
    "next_fixture",
    "next_fixtures",
    "pending_fixtures",
    "record_result",
    "result_of",
    "round_turns",
    "standings",
    "standings_text",
    "turn_position",
]


class CompetitionKind(StrEnum):
    """League (round robin) or knockout."""

    LEAGUE = "league"
    KNOCKOUT = "knockout"


@dataclass(frozen=True, slots=True)
class Competition:
    """A competition's draw and results.

    ``teams`` is in seeding order (after any random draw); ``byes`` lists ``(round, team)``;
    ``lots`` is the drawing of lots, best first; ``results`` holds the summaries in fixture
    order, each with its ``fixture_id``.

    The house rules the competition chose (each off unless set, and then written in its JSON):
    ``no_consecutive_overs``, the cricket law that no bowler bowls two overs running, instead
    of the seed's "not more than 2 overs in succession"; ``hundred_tiebreak``, The Hundred as
    the real competition plays it: a knockout tie that two Super Fives leave level goes to the
    higher seed (the draw's order in :attr:`teams`).
    """

    name: str
    kind: CompetitionKind
    format: Format
    teams: tuple[str, ...]
    fixtures: tuple[Fixture, ...]
    byes: tuple[tuple[int, str], ...]
    lots: tuple[str, ...]
    rounds: int
    first_turn: int = 1
    double: bool = False
    third_place: bool = False
    results: tuple[MatchSummary, ...] = ()
    no_consecutive_overs: bool = False
    hundred_tiebreak: bool = False

    def seeding(self, home: str, away: str) -> tuple[int, int] | None:
        """The two sides' places in the draw (1 is the top) when a tie is settled by them
        (``hundred_tiebreak``), else None."""
        if not self.hundred_tiebreak or home not in self.teams or away not in self.teams:
            return None
        return (self.teams.index(home) + 1, self.teams.index(away) + 1)

    def fixture(self, fixture_id: str) -> Fixture:
        """The fixture with this id (``CompetitionError`` if none)."""
        for f in self.fixtures:
            if f.id == fixture_id:
                return f
        raise CompetitionError(f"{self.name} has no fixture {fixture_id!r}")

    def to_json(self) -> dict[str, Any]:
        """The competition as one JSON object (a house rule only when chosen, so a season
        without one reads as it always did)."""
        rules = {
            k: True
            for k, on in (
                ("no_consecutive_overs", self.no_consecutive_overs),
                ("hundred_tiebreak", self.hundred_tiebreak),
            )
            if on
        }
        return {
            **rules,
            "name": self.name,
            "kind": self.kind.value,
            "format": self.format.value,
            "teams": list(self.teams),
            "rounds": self.rounds,
            "first_turn": self.first_turn,
            "double": self.double,
            "third_place": self.third_place,
            "lots": list(self.lots),
            "byes": [[r, t] for r, t in self.byes],
            "fixtures": [f.to_json() for f in self.fixtures],
            "results": [r.to_json() for r in self.results],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Competition:
        """Read the object ``to_json`` writes."""
        return cls(
            name=str(data["name"]),
            kind=CompetitionKind(data["kind"]),
            format=Format(data["format"]),
            teams=tuple(str(t) for t in data["teams"]),
            fixtures=tuple(Fixture.from_json(f) for f in data["fixtures"]),
            byes=tuple((int(r), str(t)) for r, t in data["byes"]),
            lots=tuple(str(t) for t in data["lots"]),
            rounds=int(data["rounds"]),
            first_turn=int(data.get("first_turn", 1)),
            double=bool(data.get("double", False)),
            third_place=bool(data.get("third_place", False)),
            results=tuple(MatchSummary.from_json(r) for r in data.get("results", ())),
            no_consecutive_overs=bool(data.get("no_consecutive_overs", False)),
            hundred_tiebreak=bool(data.get("hundred_tiebreak", False)),
        )

    def to_text(self) -> str:
        """Canonical text: sorted-key, two-space-indented JSON (stable for golden files)."""
        return json.dumps(self.to_json(), sort_keys=True, indent=2, ensure_ascii=False)

    @classmethod
    def from_text(cls, text: str) -> Competition:
        """Read :meth:`to_text`'s output."""
        return cls.from_json(json.loads(text))


# --- queries --------------------------------------------------------------------------------


def round_turns(comp: Competition, round_: int) -> tuple[int, int]:
    """The first and last turn of ``round_`` (every match takes four turns)."""
    if not 1 <= round_ <= comp.rounds:
        raise CompetitionError(f"{comp.name} has rounds 1..{comp.rounds}, not {round_}")
    first = comp.first_turn + TURNS_PER_MATCH * (round_ - 1)
    return first, first + TURNS_PER_MATCH - 1


def turn_position(comp: Competition, turn: int) -> tuple[int, Phase] | None:
    """Which round and phase ``turn`` is, or ``None`` outside the competition's turns."""
    offset = turn - comp.first_turn
    if offset < 0 or offset >= TURNS_PER_MATCH * comp.rounds:
        return None
    return offset // TURNS_PER_MATCH + 1, Phase(offset % TURNS_PER_MATCH + 1)


def fixtures_for_round(comp: Competition, round_: int) -> tuple[Fixture, ...]:
    """The fixtures of ``round_``, in id order."""
    return tuple(f for f in comp.fixtures if f.round == round_)


def fixtures_for_turn(comp: Competition, turn: int) -> tuple[Fixture, ...]:
    """The fixtures being played during ``turn`` (empty outside the competition's turns)."""
    pos = turn_position(comp, turn)
    return () if pos is None else fixtures_for_round(comp, pos[0])


def result_of(comp: Competition, fixture_id: str) -> MatchSummary | None:
    """The recorded result of a fixture, if any."""
    for r in comp.results:
        if r.fixture_id == fixture_id:
            return r
    return None


def _resolve(comp: Competition, entrant: Entrant) -> str | None:
    if entrant.kind is EntrantKind.TEAM:
        return entrant.ref
    result = result_of(comp, entrant.ref)
    if result is None:
        return None
    return result.winner if entrant.kind is EntrantKind.WINNER else result.loser


def fixture_teams(comp: Competition, fixture_id: str) -> tuple[str | None, str | None]:
    """The (home, away) team names of a fixture; ``None`` for a side not yet known."""
    f = comp.fixture(fixture_id)
    return _resolve(comp, f.home), _resolve(comp, f.away)


def describe_entrant(comp: Competition, entrant: Entrant) -> str:
    if entrant.kind is EntrantKind.TEAM:
        return entrant.ref
    return f"{entrant.kind.value.capitalize()} of {comp.fixture(entrant.ref).label}"


def byes_for_round(comp: Competition, round_: int) -> tuple[str, ...]:
    """The teams with a bye in ``round_``."""
    return tuple(t for r, t in comp.byes if r == round_)


def next_fixture(comp: Competition, team: str) -> Fixture | None:
    """``team``'s next unplayed fixture (its opponent may still be "Winner of ..."), or ``None``
    when it has none (finished, eliminated, or waiting for a result to know where it goes)."""
    return next_fixtures(comp).get(team)


def next_fixtures(comp: Competition) -> dict[str, Fixture]:
    """Every team's :func:`next_fixture` at once, in one pass over the fixtures (a report to
    each of a thousand teams asked one by one was quadratic in the fixtures)."""
    results = {r.fixture_id: r for r in comp.results}

    def side(entrant: Entrant) -> str | None:
        if entrant.kind is EntrantKind.TEAM:
            return entrant.ref
        result = results.get(entrant.ref)
        if result is None:
            return None
        return result.winner if entrant.kind is EntrantKind.WINNER else result.loser

    out: dict[str, Fixture] = {}
    for f in comp.fixtures:
        if f.id in results:
            continue
        for name in (side(f.home), side(f.away)):
            if name is not None and name not in out:
                out[name] = f
    return out


def fixture_text(comp: Competition, fixture: Fixture) -> str:
    """One line for the zine: "Semi-final 1: A v D at The Gunge Bowl (Cracked; Normal), turns
    1-4", naming sides not yet known as "Winner of ...", and the result once played."""
    home, away = fixture_teams(comp, fixture.id)
    first, last = round_turns(comp, fixture.round)
    c = fixture.conditions
    text = (
        f"{fixture.label}: {home or describe_entrant(comp, fixture.home)} v "
        f"{away or describe_entrant(comp, fixture.away)} at {fixture.pitch_name} "
        f"({c.pitch.name}; {c.weather.name}), turns {first}-{last}"
    )
    result = result_of(comp, fixture.id)
    return text if result is None else f"{text}: {result.result_text()}"


def pending_fixtures(comp: Competition) -> tuple[Fixture, ...]:
    """Fixtures without a result whose two sides are both known, i.e. playable now."""
    return tuple(
        f
        for f in comp.fixtures
        if result_of(comp, f.id) is None and None not in fixture_teams(comp, f.id)
    )


def current_round(comp: Competition) -> int | None:
    """The earliest round with a fixture still to play, or ``None`` when finished."""
    return min((f.round for f in comp.fixtures if result_of(comp, f.id) is None), default=None)


def is_finished(comp: Competition) -> bool:
    """Every fixture has a result."""
    return current_round(comp) is None


def _final_placings(comp: Competition) -> tuple[str | None, str | None, str | None]:
    if not is_finished(comp):
        return None, None, None
    if comp.kind is CompetitionKind.LEAGUE:
        rows = standings(comp)
        third = rows[2].team if len(rows) > 2 else None
        return rows[0].team, rows[1].team, third
    final = result_of(comp, fixtures_for_round(comp, comp.rounds)[0].id)
    assert final is not None
    third = None
    if comp.third_place:
        playoff = result_of(comp, fixtures_for_round(comp, comp.rounds)[1].id)
        third = playoff.winner if playoff else None
    return final.winner, final.loser, third


def champion(comp: Competition) -> str | None:
    """The winner: top of the final table, or the final's winner; ``None`` until finished."""
    return _final_placings(comp)[0]


def _knockout_order(comp: Competition) -> list[str]:
    """Knockout standing: finishers by placing, then by how far each side got, then by seed."""
    reached = dict.fromkeys(comp.teams, 0)
    out_in = dict.fromkeys(comp.teams, comp.rounds + 1)  # still alive sorts ahead
    for f in comp.fixtures:
        for team in fixture_teams(comp, f.id):
            if team is not None:
                reached[team] = max(reached[team], f.round)
        result = result_of(comp, f.id)
        if result is not None and result.loser is not None and f.label != "3rd/4th play-off":
            out_in[result.loser] = f.round
    placed = [t for t in _final_placings(comp) if t is not None]
    if comp.third_place and is_finished(comp):
        playoff = result_of(comp, fixtures_for_round(comp, comp.rounds)[1].id)
        if playoff is not None and playoff.loser is not None:
            placed.append(playoff.loser)
    seed = {t: i for i, t in enumerate(comp.teams)}
    rest = sorted(
        (t for t in comp.teams if t not in placed), key=lambda t: (-out_in[t], -reached[t], seed[t])
    )
    return placed + rest


def standings(comp: Competition) -> tuple[TableRow, ...]:
    """The table: for a league by points, NRR, head to head and lots (see
    :mod:`engine.flungo.table`); for a knockout the same figures ordered by placing."""
    rows = league_table(comp.teams, comp.results, comp.lots)
    if comp.kind is CompetitionKind.LEAGUE:
        return rows
    by_team = {r.team: r for r in rows}
    return tuple(
        replace(by_team[t], position=i) for i, t in enumerate(_knockout_order(comp), start=1)
    )


def standings_text(comp: Competition) -> str:
    """:func:`standings` as a fixed-width table (overs in the format's own overs or sets)."""
    return format_table(standings(comp), FORMATS[comp.format].balls_per_over)


# --- results --------------------------------------------------------------------------------


def _find_fixture(comp: Competition, summary: MatchSummary) -> Fixture:
    if summary.fixture_id is not None:
        return comp.fixture(summary.fixture_id)
    wanted = set(summary.teams)
    for f in comp.fixtures:
        if result_of(comp, f.id) is None and set(fixture_teams(comp, f.id)) == wanted:
            return f
    raise CompetitionError(
        f"{comp.name} has no fixture to play between {summary.home} and {summary.away}"
    )


def record_result(
    comp: Competition, summary: MatchSummary
) -> tuple[Competition, tuple[SeasonEvent, ...]]:
    """Enter a played match; returns the new competition and what happened.

    Raises :class:`CompetitionError` if the fixture is unknown or already has a result, the
    sides are not that fixture's, an innings' allotted balls are not the format's, a knockout
    result has no winner, or a league result claims a Super Over.
    """
    fixture = _find_fixture(comp, summary)
    if result_of(comp, fixture.id) is not None:
        raise CompetitionError(f"{fixture.id} ({fixture.label}) already has a result")
    home, away = fixture_teams(comp, fixture.id)
    if home is None or away is None:
        raise CompetitionError(f"the sides of {fixture.id} ({fixture.label}) are not known yet")
    if set(summary.teams) != {home, away}:
        raise CompetitionError(
            f"{fixture.id} is {home} v {away}, not {summary.home} v {summary.away}"
        )
    balls = FORMATS[comp.format].balls
    for inn in summary.innings:
        if inn.allotted_balls != balls:
            raise CompetitionError(
                f"{inn.batting}'s innings is allotted {inn.allotted_balls} balls; "
                f"{comp.format.value} has {balls}"
            )
    if comp.kind is CompetitionKind.KNOCKOUT and summary.winner is None:
        raise CompetitionError("a knockout match needs a winner (a tie goes to a Super Over)")
    if comp.kind is CompetitionKind.LEAGUE and summary.decided_by_super_over:
        raise CompetitionError("a tie stands in a league: there is no Super Over")

    summary = replace(summary, fixture_id=fixture.id)
    order = {f.id: i for i, f in enumerate(comp.fixtures)}
    results = tuple(sorted((*comp.results, summary), key=lambda r: order[r.fixture_id or ""]))
    new = replace(comp, results=results)
    events: list[SeasonEvent] = [
        ResultRecorded(
            fixture_id=fixture.id,
            round=fixture.round,
            home=summary.home,
            away=summary.away,
            winner=summary.winner,
            super_over=summary.decided_by_super_over,
            text=summary.result_text(),
        )
    ]
    if comp.kind is CompetitionKind.KNOCKOUT:
        events.extend(_knockout_consequences(new, fixture, summary))
    if all(result_of(new, f.id) is not None for f in fixtures_for_round(new, fixture.round)):
        events.append(RoundCompleted(round=fixture.round))
    if is_finished(new):
        first, second, third = _final_placings(new)
        assert first is not None
        events.append(CompetitionFinished(champion=first, runner_up=second, third=third))
    return new, tuple(events)


def _knockout_consequences(
    comp: Competition, fixture: Fixture, summary: MatchSummary
) -> list[SeasonEvent]:
    events: list[SeasonEvent] = []
    loser_plays_on = False
    for f in comp.fixtures:
        feeds = [e for e in (f.home, f.away) if e.ref == fixture.id]
        if not feeds:
            continue
        loser_plays_on |= any(e.kind is EntrantKind.LOSER for e in feeds)
        home, away = fixture_teams(comp, f.id)
        if home is not None and away is not None:
            events.append(FixtureReady(f.id, f.label, home, away, f.pitch_name))
    if summary.loser is not None and not loser_plays_on and fixture.round < comp.rounds:
        events.append(TeamEliminated(summary.loser, fixture.id, fixture.round))
    return events
