"""Test Matches (law 5): duplicate overs between 2–4 seats, played to 10, 20 or 30 wickets.

Decisions (documented in ``docs/rules/hitforsix.md``):

* Over ``n`` (from 1) is the deal of ``Dice(match_seed).derive(f"over:{n}").seed``; its Rule is
  that deal's own Rule (:mod:`engine.hitforsix.deal`), The Toss included. Every seat gets it.
* The over's winner is the seat with the best score, compared exactly (the score's key, never
  the rounded grade: 9,136 runs beat 9,131 though both show 95.8); if two or more share the
  best score, the over is a dead ball and nothing moves.
* The winner takes one wicket from each other seat and scores by the winning grade: above 50 a
  single, above 60 two, above 70 a four, above 80 a six; 50 or below a bye (no runs).
* First to ``10 × (seats − 1)`` wickets wins. Each won over takes exactly ``seats − 1``
  wickets, so the champion has won exactly ten overs (law 5.05) — a property test checks it.

A match is a frozen :class:`MatchState`; :func:`play_round` returns a new state and events.
The canonical JSON (``to_json``/``from_json``) holds only what was decided; standings are
derived by replaying the overs, so a fabricated score cannot be expressed (law 9.02).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.hitforsix.cards import Deck
from engine.hitforsix.deal import FACE_UP, Deal, deal
from engine.hitforsix.game import grader_for
from engine.hitforsix.over import CAPS, Decisions, Hand, play_over
from engine.hitforsix.rules import Rule

__all__ = [
    "TARGETS",
    "CareerLine",
    "MatchState",
    "MatchWon",
    "OverPlayed",
    "OverResult",
    "Resolution",
    "Standing",
    "auto_decisions",
    "auto_match",
    "auto_seat",
    "career",
    "new_match",
    "over_deal",
    "play_round",
    "replay_match",
    "runs_for",
]

TARGETS = {2: 10, 3: 20, 4: 30}


def runs_for(tenths: int) -> int:
    """Runs credited for a winning grade (in tenths): above 50 one, 60 two, 70 four, 80 six."""
    for above, runs in ((800, 6), (700, 4), (600, 2), (500, 1)):
        if tenths > above:
            return runs
    return 0


def over_deal(deck: Deck, match_seed: int, number: int) -> Deal:
    """The deal every seat receives in over ``number`` (1-based)."""
    return deal(deck, Dice(match_seed).derive(f"over:{number}").seed)


@dataclass(frozen=True, slots=True)
class OverResult:
    """One over: every seat's decisions and grade (tenths), and the winner (None: dead ball).

    ``keys`` are the exact score keys the winner was decided on (empty when read from JSON,
    which keeps only the grades and the winner).
    """

    number: int
    rule: Rule
    decisions: tuple[Decisions, ...]
    grades: tuple[int, ...]
    winner: int | None
    keys: tuple[int, ...] = field(default=(), compare=False)

    @property
    def runs(self) -> int:
        """Runs credited to the winner (0 for a bye or a dead ball)."""
        return 0 if self.winner is None else runs_for(self.grades[self.winner])

    def to_json(self) -> dict[str, Any]:
        """The over as JSON; grades in grade points (one decimal)."""
        return {
            "over": self.number,
            "rule": self.rule.value,
            "decisions": [d.to_text() for d in self.decisions],
            "grades": [g / 10 for g in self.grades],
            "winner": self.winner,
            "runs": self.runs,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OverResult:
        """Read an over written by :meth:`to_json`."""
        return cls(
            number=int(data["over"]),
            rule=Rule(data["rule"]),
            decisions=tuple(Decisions.from_text(t) for t in data["decisions"]),
            grades=tuple(round(float(g) * 10) for g in data["grades"]),
            winner=None if data["winner"] is None else int(data["winner"]),
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's figures in a match."""

    seat: int
    wickets_taken: int = 0
    runs: int = 0
    overs_won: int = 0

    def to_json(self) -> dict[str, int]:
        """The standing as in ``pbm h6 test --json``."""
        return {
            "seat": self.seat,
            "wickets_taken": self.wickets_taken,
            "runs": self.runs,
            "overs_won": self.overs_won,
        }


@dataclass(frozen=True, slots=True)
class MatchState:
    """A Test Match: its seed, deck, players (one name per seat) and the overs played."""

    seed: int
    deck: str
    players: tuple[str, ...]
    overs: tuple[OverResult, ...] = ()
    standings: tuple[Standing, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.players) not in TARGETS:
            raise IllegalOrder(f"a Test Match has 2, 3 or 4 seats, not {len(self.players)}")
        table = [Standing(i) for i in range(len(self.players))]
        for o in self.overs:
            if o.winner is not None:
                s = table[o.winner]
                table[o.winner] = Standing(
                    s.seat, s.wickets_taken + len(table) - 1, s.runs + o.runs, s.overs_won + 1
                )
        object.__setattr__(self, "standings", tuple(table))

    @property
    def seats(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def target(self) -> int:
        """Wickets to win: 10, 20 or 30."""
        return TARGETS[self.seats]

    @property
    def champion(self) -> int | None:
        """The seat that reached the target, if any."""
        for s in self.standings:
            if s.wickets_taken >= self.target:
                return s.seat
        return None

    def to_json(self) -> dict[str, Any]:
        """Canonical JSON: what was decided, plus the derived standings and champion."""
        return {
            "seed": self.seed,
            "deck": self.deck,
            "players": list(self.players),
            "seats": self.seats,
            "target": self.target,
            "overs": [o.to_json() for o in self.overs],
            "standings": [s.to_json() for s in self.standings],
            "champion": self.champion,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchState:
        """Read a match; the standings are re-derived, never read."""
        return cls(
            seed=int(data["seed"]),
            deck=str(data["deck"]),
            players=tuple(str(p) for p in data["players"]),
            overs=tuple(OverResult.from_json(o) for o in data["overs"]),
        )


def new_match(deck: Deck, seed: int, players: Sequence[str]) -> MatchState:
    """A fresh match on ``deck`` between ``players`` (2–4 names)."""
    return MatchState(seed=seed, deck=deck.name, players=tuple(players))


@dataclass(frozen=True, slots=True)
class OverPlayed:
    """Event: an over was played (with its grades and winner)."""

    over: OverResult


@dataclass(frozen=True, slots=True)
class MatchWon:
    """Event: a seat reached the target."""

    seat: int
    overs_won: int


@dataclass(frozen=True, slots=True)
class Resolution:
    """The new state and what happened."""

    state: MatchState
    events: tuple[OverPlayed | MatchWon, ...]


def play_round(state: MatchState, deck: Deck, decisions: Sequence[Decisions]) -> Resolution:
    """Play the next over with each seat's sealed decisions; returns the new state and events."""
    if state.champion is not None:
        raise IllegalOrder(f"the match is won (seat {state.champion}); no more overs")
    if deck.name != state.deck:
        raise IllegalOrder(f"this match is played with the {state.deck} deck, not {deck.name}")
    if len(decisions) != state.seats:
        raise IllegalOrder(f"every one of the {state.seats} seats must bat this over")
    number = len(state.overs) + 1
    the_deal = over_deal(deck, state.seed, number)
    grader = grader_for(the_deal)
    judge = the_deal.real_rule(the_deal.rule)
    graded = [grader.grade(play_over(d).xi, judge) for d in decisions]
    keys = tuple(g.key for g in graded)
    best = max(keys)
    winner = keys.index(best) if keys.count(best) == 1 else None
    grades = tuple(g.tenths for g in graded)
    over = OverResult(number, the_deal.rule, tuple(decisions), grades, winner, keys)
    new = MatchState(state.seed, state.deck, state.players, (*state.overs, over))
    events: list[OverPlayed | MatchWon] = [OverPlayed(over)]
    if new.champion is not None:
        events.append(MatchWon(new.champion, new.standings[new.champion].overs_won))
    return Resolution(new, tuple(events))


def replay_match(
    deck: Deck, seed: int, players: Sequence[str], overs: Iterable[Sequence[Decisions]]
) -> MatchState:
    """A match derived from its decisions alone (law 9.02): every grade and winner recomputed."""
    state = new_match(deck, seed, players)
    for decisions in overs:
        state = play_round(state, deck, decisions).state
    return state


def auto_decisions(dice: Dice) -> Decisions:
    """Random legal decisions: each window names the XI with chance 1/4, else drops 0–cap men."""
    hand = Hand()
    windows: list[frozenset[int]] = []
    for cap in CAPS:
        if dice.below(4) == 0:
            break
        k = dice.below(cap + 1)
        held = sorted(hand.held)
        options = list(combinations(held, k))
        out = frozenset(options[dice.below(len(options))])
        hand = hand.drop(out)
        windows.append(out)
    assert len(hand.held) == FACE_UP
    return Decisions(tuple(windows))


@dataclass(frozen=True, slots=True)
class CareerLine:
    """A player's figures over many matches (law 5.06: runs are real)."""

    name: str
    matches: int = 0
    wins: int = 0
    runs: int = 0
    overs_won: int = 0
    wickets_taken: int = 0


def career(matches: Iterable[MatchState]) -> dict[str, CareerLine]:
    """Each player's career over ``matches``, keyed by name."""
    lines: dict[str, CareerLine] = {}
    for m in matches:
        for seat, name in enumerate(m.players):
            c = lines.get(name, CareerLine(name))
            s = m.standings[seat]
            lines[name] = CareerLine(
                name,
                c.matches + 1,
                c.wins + (m.champion == seat),
                c.runs + s.runs,
                c.overs_won + s.overs_won,
                c.wickets_taken + s.wickets_taken,
            )
    return lines


def auto_seat(match_seed: int, over: int, seat: int) -> Decisions:
    """The automatic seat's decisions for an over, from its own derived dice stream."""
    return auto_decisions(Dice(match_seed).derive(f"auto:{over}:{seat}"))


def auto_match(deck: Deck, seed: int, seats: int, max_overs: int = 1000) -> MatchState:
    """A whole match between automatic seats (stops after ``max_overs`` if none has won)."""
    state = new_match(deck, seed, [f"Seat {i}" for i in range(seats)])
    while state.champion is None and len(state.overs) < max_overs:
        n = len(state.overs) + 1
        state = play_round(state, deck, [auto_seat(seed, n, s) for s in range(seats)]).state
    return state
