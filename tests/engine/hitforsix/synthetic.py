"""Synthetic decks for the engine's tests: plausible careers from a seed, no Cricsheet needed."""

from __future__ import annotations

from engine.dice import Dice
from engine.hitforsix.cards import Card, Deck


def synthetic_card(d: Dice, i: int) -> Card:
    """One made-up career: a batsman, a bowler, an all-rounder or a rabbit, by the dice."""
    kind = d.below(4)
    matches = 5 + d.below(120)
    balls_faced = 0 if kind == 3 and d.below(3) == 0 else d.below(40 * matches + 1)
    runs = balls_faced * (50 + d.below(100)) // 100
    dismissals = min(matches, d.below(matches + 1)) if balls_faced else 0
    sixes = d.below(runs // 30 + 1)
    fours = d.below(runs // 8 + 1)
    bowls = kind in (1, 2) or d.below(3) == 0
    balls_bowled = d.below(24 * matches + 1) if bowls else 0
    runs_conceded = balls_bowled * (80 + d.below(90)) // 100
    wickets = d.below(balls_bowled // 15 + 1)
    return Card(
        id=f"id{i:04d}",
        name=f"Player {i}",
        initials=f"P{i % 10}",
        country=("India", "England", "Nepal", "Kenya")[i % 4],
        matches=matches,
        runs=runs,
        dismissals=dismissals,
        balls_faced=balls_faced,
        fours=fours,
        sixes=sixes,
        balls_bowled=balls_bowled,
        runs_conceded=runs_conceded,
        wickets=wickets,
    )


def synthetic_deck(n: int = 60, seed: int = 1, name: str = "t20i") -> Deck:
    """A deck of ``n`` made-up cards."""
    d = Dice(seed)
    return Deck(
        name=name, build=f"synthetic-{seed}", cards=tuple(synthetic_card(d, i) for i in range(n))
    )
