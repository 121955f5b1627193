"""How Hit for Six looks in a terminal: card tables, text sparklines and results (rich)."""

from __future__ import annotations

import bisect

from rich.console import Console
from rich.table import Table

from engine.hitforsix.cards import Card, Deck
from engine.hitforsix.code import GhostResult
from engine.hitforsix.fingerprint import STATS, fingerprint
from engine.hitforsix.game import SoloGame
from engine.hitforsix.testmatch import MatchState, OverResult
from pbm.cli._console import make_console

__all__ = [
    "card_table",
    "console",
    "show_ghost",
    "show_match",
    "show_over",
    "show_result",
    "sparkline",
]

_BARS = "▁▂▃▄▅▆▇█"


def console() -> Console:
    """A console for the game; when not a terminal (a pipe, a test) wide enough for a card row."""
    return make_console(min_width=120)


_COLUMNS: dict[tuple[str, str], tuple[tuple[float, ...], ...]] = {}


def _deck_columns(deck: Deck) -> tuple[tuple[float, ...], ...]:
    """Each fingerprint stat's sorted values over the deck (for percentile scaling)."""
    key = (deck.name, deck.build)
    if key not in _COLUMNS:
        prints = [fingerprint(c) for c in deck.cards]
        _COLUMNS[key] = tuple(
            tuple(sorted(v for p in prints if (v := p[k]) is not None)) for k in range(len(STATS))
        )
    return _COLUMNS[key]


def sparkline(card: Card, deck: Deck) -> str:
    """The card's twelve fingerprint rays as bars, each its percentile within the deck.

    Lower-is-better stats (economy, bowling average and strike rate) are inverted so a taller
    bar is always better; a stat the career lacks is a dot.
    """
    columns = _deck_columns(deck)
    out = []
    for stat, value, column in zip(STATS, fingerprint(card), columns, strict=True):
        if value is None or not column:
            out.append("·")
            continue
        share = bisect.bisect_right(column, value) / len(column)
        if not stat.higher_is_better:
            share = 1.0 - bisect.bisect_left(column, value) / len(column)
        out.append(_BARS[min(len(_BARS) - 1, int(share * len(_BARS)))])
    return "".join(out)


def _avg(num: int, den: int, scale: float = 1.0) -> str:
    return "-" if den == 0 else f"{scale * num / den:.1f}"


def card_table(
    title: str, cards: list[tuple[int, Card]], deck: Deck, *, mark: frozenset[int] = frozenset()
) -> Table:
    """A table of (deal position, card) rows; positions in ``mark`` are flagged."""
    table = Table(title=title, title_justify="left")
    for col, justify in (
        ("#", "right"), ("Name", "left"), ("Country", "left"), ("M", "right"),
        ("Runs", "right"), ("Avg", "right"), ("SR", "right"), ("6s", "right"),
        ("Balls", "right"), ("Wkts", "right"), ("Econ", "right"), ("Fingerprint", "left"),
    ):  # fmt: skip
        table.add_column(col, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for pos, c in cards:
        table.add_row(
            f"{pos}{'*' if pos in mark else ''}",
            c.name,
            c.country,
            str(c.matches),
            str(c.runs),
            _avg(c.runs, c.dismissals),
            _avg(c.runs, c.balls_faced, 100),
            str(c.sixes),
            str(c.balls_bowled),
            str(c.wickets),
            _avg(c.runs_conceded, c.balls_bowled, 6),
            sparkline(c, deck),
        )
    return table


def show_result(console: Console, game: SoloGame, code: str) -> None:
    """Print a finished hand: the XI, the Rule, score, grade, resemblance and code."""
    cards = game.deal.cards
    console.print(card_table("Your XI", [(p, cards[p]) for p in game.xi], game.deal.deck))
    rule = game.rule.title
    if game.judged_by is not game.rule:
        rule += f" — the Rule revealed: {game.judged_by.title}"
    console.print(f"Rule: {rule}")
    if game.judged_by.value == "six-and-out":
        console.print(f"The line: {game.deal.line} sixes")
    console.print(f"Score: {game.score:.2f}")
    g = game.grade
    console.print(
        f"Grade: [bold]{g.grade:.1f}[/bold] (beats {g.beats:,} of 12,375 XIs, ties {g.ties:,})"
    )
    r = game.resemblance
    c = r.combined
    console.print(
        f"Combined: {c.matches} matches, {c.runs} runs at {_avg(c.runs, c.dismissals)}, "
        f"SR {_avg(c.runs, c.balls_faced, 100)}, {c.sixes} sixes; {c.wickets} wickets at "
        f"{_avg(c.runs_conceded, c.wickets)}, economy {_avg(c.runs_conceded, c.balls_bowled, 6)}"
    )
    console.print(
        f"The selectors find your XI most resembles [bold]{r.match.name}[/bold] "
        f"({r.match.country}; distance {r.distance:.2f})"
    )
    console.print(f"Challenge code: {code}")


def show_ghost(console: Console, result: GhostResult) -> None:
    """Print a rival's hand against the ghost."""
    ghost, rival = result.ghost.grade.grade, result.rival.grade.grade
    verdict = {None: "A tie.", "ghost": "The ghost wins.", "rival": "You beat the ghost."}
    console.print(f"Ghost {ghost:.1f} — you {rival:.1f}. {verdict[result.winner]}")


def show_over(console: Console, o: OverResult) -> None:
    """One over's line: its Rule, every seat's grade, and who won it."""
    grades = " / ".join(f"{g / 10:.1f}" for g in o.grades)
    if o.winner is None:
        outcome = "dead ball"
    else:
        outcome = f"Seat {o.winner + 1} wins" + (f", {o.runs} run(s)" if o.runs else ", a bye")
    console.print(f"Over {o.number:>3} {o.rule.title:<18} {grades:<28} {outcome}")


def show_match(console: Console, state: MatchState) -> None:
    """Print every over and the final standings of a Test Match, seats numbered from 1."""
    for o in state.overs:
        show_over(console, o)
    table = Table(title=f"Standings (target {state.target} wickets)", title_justify="left")
    for col in ("Seat", "Wickets", "Runs", "Overs won"):
        table.add_column(col, justify="right")
    for s in state.standings:
        table.add_row(str(s.seat + 1), str(s.wickets_taken), str(s.runs), str(s.overs_won))
    console.print(table)
    if state.champion is None:
        console.print("No champion yet.")
    else:
        console.print(f"Champion: Seat {state.champion + 1} — all out, ten winning overs.")
