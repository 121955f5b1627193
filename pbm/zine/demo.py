"""A played-out demo season as turn reports: what tests, the bench and ``pbm zine demo`` use.

It drives the pure engine exactly as the turn pipeline does (``start_match`` at the selection
stage, then one ``play_turn`` per turn, ``record_result`` when a match ends) and records one
:class:`~pbm.zine.source.TurnReport` per stage. Nothing here is ever used to build an issue of
a real competition: issues are built from stored reports and never re-roll anything.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from engine.dice import Dice
from engine.flungo.competition import Competition, fixture_teams, fixtures_for_round, round_turns
from engine.flungo.draw import new_knockout, new_league
from engine.flungo.events import Event
from engine.flungo.formats import Format
from engine.flungo.language import parse_orders
from engine.flungo.match import play_turn, start_match
from engine.flungo.orders import MatchOrders
from engine.flungo.scorecard import match_report
from engine.flungo.season_events import SeasonEvent
from engine.flungo.squad import Team, generate_squad
from engine.flungo.state import MatchSetup, MatchState
from engine.flungo.summary import summary_from_report
from pbm.zine.source import MatchTurn, Stage, TurnReport

__all__ = ["CELEBRITIES", "TEAM_NAMES", "demo_season", "demo_squads"]

TEAM_NAMES = (
    "Gunge Giants",
    "Snodge Stars",
    "Chipping Sodbury CC",
    "Dundee Cakes",
    "Protoplasm Park",
    "Test Match Specials",
    "Flungo Flyers",
    "Radio Ga Ga",
    "Blobby Bashers",
    "The Replicas",
    "Earth TV XI",
    "Gloop Rovers",
    "Martian Mavericks",
    "Galactic Googlies",
    "Nebula Nomads",
    "Cosmic Cutters",
)

CELEBRITIES = (
    "Elvis Presley",
    "Lassie",
    "Mrs Snodgebucket",
    "Winston Churchill",
    "Kermit the Frog",
    "Delia Smith",
    "Marie Curie",
    "Basil Brush",
    "Freddie Mercury",
    "Ada Lovelace",
    "Zippy",
    "Hank Marvin",
    "Boudicca",
    "Skippy",
    "Nelson Mandela",
    "Dot Cotton",
    "Mr Blobby",
    "Brian Johnston",
    "Bungle",
    "Jimi Hendrix",
    "Cleopatra",
    "Shergar",
    "Bugs Bunny",
    "Noel Edmonds",
    "Florence Nightingale",
    "Sooty",
    "Alan Turing",
    "Trigger",
    "Greta Garbo",
    "Parsnip",
)

_ORDERS = (
    "after 10 overs, if wickets < 3: all batsmen bat aggressive\n"
    "when the 6th wicket falls, the rest bat defensive"
)


def demo_squads(count: int, seed: int = 1, names: tuple[str, ...] = TEAM_NAMES) -> list[Team]:
    """``count`` named squads; every team has "Elvis Presley" (the seed allows one celebrity in
    several teams), and the other names rotate through :data:`CELEBRITIES`."""
    teams = []
    for i in range(count):
        base = generate_squad(Dice(seed * 1000 + i), names[i % len(names)])
        players = []
        for k, p in enumerate(base.players):
            name = "Elvis Presley" if k == 0 else CELEBRITIES[(i * 7 + k) % len(CELEBRITIES)]
            if name == "Elvis Presley" and k:
                name = f"{name} Jr"
            players.append(replace(p, name=name))
        teams.append(Team(base.name, tuple(players)))
    return teams


def _seed(code: str, fixture_id: str) -> int:
    return int(hashlib.sha256(f"{code}:{fixture_id}".encode()).hexdigest()[:12], 16)


def seed_commitment(seed: int) -> str:
    """The SHA-256 of a match seed's decimal text: published before the match, checkable after."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def _orders(team: Team, fmt: Format) -> MatchOrders | None:
    parsed = parse_orders(_ORDERS, team, fmt)
    return parsed.orders.match


def demo_season(
    teams: int = 4,
    *,
    knockout: bool = False,
    fmt: Format = Format.T20,
    seed: int = 1,
    code: str = "DEMO",
    rounds: int | None = None,
    squads: list[Team] | None = None,
) -> list[TurnReport]:
    """Play a whole competition (or its first ``rounds`` rounds) and return its turn reports."""
    squads = squads or demo_squads(teams, seed)
    by_name = {t.name: t for t in squads}
    names = [t.name for t in squads]
    dice = Dice(seed)
    comp: Competition
    events: tuple[SeasonEvent, ...]
    if knockout:
        comp, events = new_knockout(f"{code} Cup", names, fmt, dice, third_place=len(names) == 4)
    else:
        comp, events = new_league(f"{code} League", names, fmt, dice)
    from engine.flungo.competition import byes_for_round, record_result

    reports: list[TurnReport] = []
    pending_events: tuple[SeasonEvent, ...] = events
    last = comp.rounds if rounds is None else min(rounds, comp.rounds)
    issue = 0
    for r in range(1, last + 1):
        first, _ = round_turns(comp, r)
        states: dict[str, MatchState] = {}
        turns: list[MatchTurn] = []
        for k, f in enumerate(fixtures_for_round(comp, r)):
            home, away = fixture_teams(comp, f.id)
            assert home is not None and away is not None
            s = _seed(code, f.id)
            setup = MatchSetup(fmt, s, f.conditions, by_name[home], by_name[away], knockout)
            lazy = away if k % 3 == 1 else None  # one side in three plays on defaults
            ho = None if lazy == home else _orders(by_name[home], fmt)
            ao = None if lazy == away else _orders(by_name[away], fmt)
            res = start_match(setup, ho, ao)
            states[f.id] = res.state
            defaults = tuple(t for t in (home, away) if t == lazy)
            turns.append(
                MatchTurn(f.id, f.label, res.state, res.events, defaults, seed_commitment(s), None)
            )
        issue += 1
        reports.append(
            _report(
                comp,
                Stage(r, first, True),
                turns,
                pending_events,
                squads,
                byes_for_round(comp, r),
                issue,
            )
        )
        pending_events = ()
        for t in range(4):
            turns = []
            new_events: list[SeasonEvent] = []
            for f in fixtures_for_round(comp, r):
                res = play_turn(states[f.id])
                states[f.id] = res.state
                evs: tuple[Event, ...] = res.events
                st = res.state
                done = st.is_over
                defaults = (
                    next(m.defaults for m in reports[-1 - t].matches if m.fixture_id == f.id)
                    if t == 0
                    else turns_prev[f.id]
                )
                turns.append(
                    MatchTurn(
                        f.id,
                        f.label,
                        st,
                        evs,
                        defaults,
                        seed_commitment(st.setup.seed),
                        st.setup.seed if done else None,
                    )
                )
                if done:
                    summary = summary_from_report(match_report(st), f.id)
                    comp, evs2 = record_result(comp, summary)
                    new_events.extend(evs2)
            turns_prev = {m.fixture_id: m.defaults for m in turns}
            issue += 1
            reports.append(
                _report(
                    comp,
                    Stage(r, first + t, False),
                    turns,
                    tuple(new_events),
                    squads,
                    byes_for_round(comp, r),
                    issue,
                )
            )
    return reports


def _report(
    comp: Competition,
    stage: Stage,
    turns: list[MatchTurn],
    events: tuple[SeasonEvent, ...],
    squads: list[Team],
    byes: tuple[str, ...],
    issue: int,
) -> TurnReport:
    editorial = (
        f"Welcome to issue {issue} of the Flungo Gazette. The gunge is warm, the pitches are "
        "rolled and Mrs Snodgebucket's Dundee cake is still 32,478 million years away."
    )
    rulings: tuple[str, ...] = ()
    if issue % 3 == 2:
        rulings = (f"Round {stage.round}: a late order from a manager was accepted by the GM.",)
    return TurnReport(
        stage=stage,
        competition=comp,
        matches=tuple(turns),
        season_events=events,
        squads=tuple(squads),
        byes=byes,
        next_deadline=f"2027-01-{(issue % 27) + 1:02d} 18:00 UTC",
        editorial=editorial,
        rulings=rulings,
    )
