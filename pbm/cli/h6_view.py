"""How Hit for Six looks in a terminal: card tables, text sparklines and results (rich)."""

from __future__ import annotations

import bisect

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from engine.hitforsix.cards import Card, Deck
from engine.hitforsix.code import GhostResult
from engine.hitforsix.fingerprint import STATS, fingerprint
from engine.hitforsix.game import SoloGame
from engine.hitforsix.rules import ATTACK_SIZE, Rule, attack_order, is_proper_bowler
from engine.hitforsix.testmatch import MatchState, OverResult, over_deal
from pbm.cli._console import make_console
from pbm.outbound.render.tables import SHORT_COUNTRIES

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


def _avg(num: int, den: int, scale: float = 1.0, places: int = 1) -> str:
    return "-" if den == 0 else f"{scale * num / den:.{places}f}"


#: One name for one thing: "balls" in the instructions means balls faced, shown as BF.
KEY = (
    "BF balls faced · SR runs per 100 balls faced · BB balls bowled · BAvg runs per wicket · "
    "A: the attack, the five who have bowled most (law 4.02; a: a part-timer, charged the "
    "going rate and a quarter)"
)
_WIDE = 118  # below this the hand prints as two tables, batting then bowling
_BAT = (("M", "right"), ("Runs", "right"), ("Avg", "right"), ("BF", "right"), ("SR", "right"),
        ("6s", "right"))  # fmt: skip
_BOWL = (("BB", "right"), ("Wkts", "right"), ("Econ", "right"), ("BAvg", "right"),
         ("A", "left"))  # fmt: skip


def _bat(c: Card) -> list[str]:
    return [str(c.matches), str(c.runs), _avg(c.runs, c.dismissals), str(c.balls_faced),
            _avg(c.runs, c.balls_faced, 100), str(c.sixes)]  # fmt: skip


def _bowl(c: Card, in_attack: bool) -> list[str]:
    mark = ("A" if is_proper_bowler(c) else "a") if in_attack else ""
    return [str(c.balls_bowled), str(c.wickets), _avg(c.runs_conceded, c.balls_bowled, 6, 2),
            _avg(c.runs_conceded, c.wickets), mark]  # fmt: skip


def _table(title: str, columns: tuple[tuple[str, str], ...]) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  padding=(0, 1))  # fmt: skip
    # The position is what a player types: it never wraps or shrinks away.
    table.add_column("#", justify="right", no_wrap=True, min_width=2)
    table.add_column("Name", justify="left", overflow="fold", ratio=1, min_width=8)
    for col, justify in columns:
        table.add_column(col, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    return table


def card_table(
    title: str,
    cards: list[tuple[int, Card]],
    deck: Deck,
    *,
    mark: frozenset[int] = frozenset(),
    width: int | None = None,
    xi: list[int] | None = None,
) -> Group:
    """The (deal position, card) rows, every figure a Rule reads and the attack of ``xi``
    (default: the cards shown) marked; one wide table, or at ``width`` below 118 columns two
    (batting with the country, then bowling with the fingerprint), so 80 columns still plays."""
    by = dict(cards)
    ps = sorted(xi if xi is not None else by)
    attack = {ps[i] for i in attack_order([by[p] for p in ps], range(len(ps)))[:ATTACK_SIZE]}
    pos = {p: f"{p}{'*' if p in mark else ''}" for p, _ in cards}
    if width is not None and width >= _WIDE:
        table = _table(title, (("Country", "left"), *_BAT, *_BOWL, ("Fingerprint", "left")))
        for p, c in cards:
            table.add_row(pos[p], c.name, c.country, *_bat(c), *_bowl(c, p in attack),
                          sparkline(c, deck))  # fmt: skip
        return Group(table, Text(KEY, style="dim"))
    bat = _table(f"{title}: batting", (("Ctry", "left"), *_BAT))
    bowl = _table(f"{title}: bowling", (*_BOWL, ("Fingerprint", "left")))
    for p, c in cards:
        bat.add_row(pos[p], c.name, SHORT_COUNTRIES.get(c.country, c.country), *_bat(c))
        bowl.add_row(pos[p], c.name, *_bowl(c, p in attack), sparkline(c, deck))
    return Group(bat, bowl, Text(KEY, style="dim"))


def show_result(console: Console, game: SoloGame, code: str) -> None:
    """Print a finished hand: the XI, the Rule, score, grade, resemblance and code."""
    cards = game.deal.cards
    console.print(
        card_table("Your XI", [(p, cards[p]) for p in game.xi], game.deal.deck,
                   width=console.width)
    )  # fmt: skip
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


def show_over(console: Console, o: OverResult, judged: Rule | None = None) -> None:
    """One over's line: its Rule (The Toss with the Rule it hid), every seat's grade, and who
    won it."""
    grades = " / ".join(f"{g / 10:.1f}" for g in o.grades)
    if o.winner is None:
        outcome = "dead ball"
    else:
        runs = f", {o.runs} run{'s' if o.runs != 1 else ''}" if o.runs else ", a bye"
        outcome = f"Seat {o.winner + 1} wins" + runs
    rule = o.rule.title
    if o.rule is Rule.THE_TOSS and judged is not None:
        rule += f" (revealed: {judged.title})"
    console.print(f"Over {o.number:>3} {rule:<18} {grades:<28} {outcome}")


def show_match(console: Console, state: MatchState, deck: Deck | None = None) -> None:
    """Print every over (The Toss's hidden Rule revealed, given the ``deck``) and the final
    standings of a Test Match, seats numbered from 1."""
    for o in state.overs:
        judged = None
        if deck is not None and o.rule is Rule.THE_TOSS:
            d = over_deal(deck, state.seed, o.number)
            judged = d.real_rule(d.rule)
        show_over(console, o, judged)
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
