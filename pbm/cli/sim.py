"""``pbm sim``: play one Cosmic Celebrity Cricket match from the command line.

:func:`run_sim` is the reusable part (it takes ``MatchOrders`` per side, so ``--orders FILE``
only has to parse the files and pass them on); the click command only parses options and
prints.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.table import Table

from engine.dice import Dice
from engine.flungo import Format, MatchSetup, MatchState, Team, generate_squad, play_match
from engine.flungo.cricsheet import to_cricsheet
from engine.flungo.ground import PITCH_NAMES, roll_conditions
from engine.flungo.orders import BattingStyle, MatchOrders
from engine.flungo.plan import select
from engine.flungo.scorecard import (
    CLOSED_TEXT,
    ball_log_text,
    cards,
    length_text,
    match_report,
    super_over_name,
)
from pbm.cli._console import make_console
from pbm.cli.orders import load_team, read_match_orders

__all__ = ["COMMANDS", "make_setup", "run_sim", "sim"]

TEAM_NAMES = ("Gunge Giants", "Sodbury Snodgers")


def make_setup(
    fmt: Format, seed: int, teams: tuple[Team, Team] | None = None, knockout: bool = False
) -> MatchSetup:
    """A fixture from ``seed``: squads (unless given), a named pitch, pitch and weather rolls.

    Squads use ``Dice(seed).derive("squad home")`` / ``"squad away"``; the pitch name
    ``derive("pitch")``; the conditions ``derive("conditions")``.
    """
    root = Dice(seed)
    if teams is None:
        teams = (
            generate_squad(root.derive("squad home"), TEAM_NAMES[0]),
            generate_squad(root.derive("squad away"), TEAM_NAMES[1]),
        )
    pitch = PITCH_NAMES[root.derive("pitch").below(len(PITCH_NAMES))]
    conditions = roll_conditions(root.derive("conditions"), pitch)
    return MatchSetup(fmt, seed, conditions, teams[0], teams[1], knockout)


def _with_style(team: Team, orders: MatchOrders | None, style: BattingStyle) -> MatchOrders:
    sel, _ = select(team, orders)
    return replace(orders or MatchOrders(), styles=tuple(sorted((n, style) for n in sel.xi)))


def run_sim(
    fmt: Format,
    seed: int,
    teams: tuple[Team, Team] | None = None,
    orders: tuple[MatchOrders | None, MatchOrders | None] = (None, None),
    batting_style: BattingStyle | None = None,
    knockout: bool = False,
) -> MatchState:
    """Play a whole match: ``orders`` are (home, away), ``None`` for the defaults;
    ``batting_style`` sets every batsman's style on both sides."""
    setup = make_setup(fmt, seed, teams, knockout)
    home, away = orders
    if batting_style is not None:
        home = _with_style(setup.home, home, batting_style)
        away = _with_style(setup.away, away, batting_style)
    return play_match(setup, home, away).state


def wrap_entries(label: str, entries: list[str], width: int) -> list[str]:
    """``label`` then ``entries`` joined by commas, in lines of at most ``width``.

    A line breaks only between entries (never inside "4-81 (Batsman 1, 23.3)"), and the
    following lines are indented under the first entry, so a long list stays readable.
    """
    if not entries:
        return []
    indent = " " * len(label)
    lines: list[str] = []
    line = label + entries[0]
    for entry in entries[1:]:
        if len(line) + 2 + len(entry) <= width - 1:
            line += ", " + entry
        else:
            lines.append(line + ",")
            line = indent + entry
    return [*lines, line]


def _print_rich(state: MatchState, console: Console) -> None:
    setup = state.setup
    cond = setup.conditions
    console.print(
        f"[bold]Cosmic Celebrity Cricket[/bold] — {setup.spec.title}: "
        f"{setup.home.name} v {setup.away.name}"
    )
    console.print(
        f"{cond.pitch_name}: pitch {cond.pitch.name} (roll {cond.pitch_roll}), "
        f"weather {cond.weather.name} (roll {cond.weather_roll}); seed {setup.seed}"
    )
    for ev in state.log:
        if ev.kind.value in ("toss", "selection"):
            console.print(ev.text if ev.kind.value == "toss" else f"{ev.team}: {ev.text}")
    for card in cards(state):
        so = f"{super_over_name(card.balls_per_over)}: " if card.super_over else ""
        # Collapsed padding keeps a 50-over card (long "how out" cells) within 80 columns.
        bat = Table(
            title=f"{so}{card.batting_team} innings",
            box=box.SIMPLE_HEAD,
            title_justify="left",
            collapse_padding=True,
        )
        for col, just in (("Batsman", "left"), ("How out", "left")):
            bat.add_column(col, justify=just)  # type: ignore[arg-type]
        for col in ("R", "B", "4s", "6s"):
            bat.add_column(col, justify="right")
        for b in card.batting:
            if b.how_out != "did not bat":
                bat.add_row(b.name, b.how_out, *map(str, (b.runs, b.balls, b.fours, b.sixes)))
        e = card.extras
        bat.add_row(
            "Extras",
            f"w {e['wides']}, nb {e['no_balls']}, b {e['byes']}, lb {e['leg_byes']}",
            str(sum(e.values())),
        )
        length = length_text(card.legal_balls, card.balls_per_over)
        bat.add_row(
            "Total",
            f"{card.wickets} wkts, {length} ({CLOSED_TEXT[card.closed]})",
            str(card.runs),
        )
        console.print(bat)
        dnb = [b.name for b in card.batting if b.how_out == "did not bat"]
        fow = [
            f"{f['wicket']}-{f['runs']} ({f['player']}, {f['over']})" for f in card.fall_of_wickets
        ]
        for label, entries in (("Did not bat: ", dnb), ("Fall of wickets: ", fow)):
            for line in wrap_entries(f"  {label}", entries, console.width):
                console.print(line, markup=False, soft_wrap=True)
        bowl = Table(box=box.SIMPLE_HEAD, collapse_padding=True)
        bowl.add_column("Bowler")
        for col in ("Sets" if card.balls_per_over == 5 else "O", "M", "R", "W", "Wd", "NB"):
            bowl.add_column(col, justify="right")
        for w in card.bowling:
            bowl.add_row(
                w.name, w.overs, *map(str, (w.maidens, w.runs, w.wickets, w.wides, w.no_balls))
            )
        console.print(bowl)
    console.print(f"[bold]Result:[/bold] {state.result.text if state.result else 'in progress'}")
    for t, p, n in state.injuries:
        console.print(f"Injury: {p} ({t}) {n} injury point{'s' * (n != 1)}")


@click.command("sim")
@click.option(
    "--format",
    "fmt",
    type=click.Choice([f.value for f in Format]),
    default="t20",
    show_default=True,
    help="Twenty20, 40 or 50 overs a side, or The Hundred.",
)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="The match seed: the same seed, squads and orders play the same match.",
)
@click.option(
    "--batting-style",
    type=click.Choice([s.value for s in BattingStyle]),
    help="Every batsman bats this way.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the match as one JSON document.")
@click.option("--cricsheet", is_flag=True, help="Print the match as Cricsheet JSON.")
@click.option("--log", "show_log", is_flag=True, help="Print the ball log after the scorecard.")
@click.option(
    "--knockout", is_flag=True, help="A tie goes to a Super Over (a Super Five in The Hundred)."
)
@click.option(
    "--squad",
    "squads",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    multiple=True,
    help="A squad JSON file; give it twice (home, then away).",
)
@click.option(
    "--orders",
    "order_files",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    multiple=True,
    help="A player's orders (as sent by email); give it twice (home, then away).",
)
def sim(
    fmt: str,
    seed: int,
    batting_style: str | None,
    as_json: bool,
    cricsheet: bool,
    show_log: bool,
    knockout: bool,
    squads: tuple[Path, ...],
    order_files: tuple[Path, ...],
) -> None:
    """Play one match of Cosmic Celebrity Cricket and print the scorecard.

    Without --squad, two squads are rolled from the seed; without --orders, each side plays
    its default XI, batting order and bowling plan (each default is reported).
    """
    teams: tuple[Team, Team] | None = None
    if squads:
        if len(squads) != 2:
            raise click.UsageError("give --squad twice: the home squad, then the away squad")
        teams = (load_team(squads[0]), load_team(squads[1]))
        if teams[0].name == teams[1].name:
            # The scorecard and the result name the teams; the same name twice says nothing.
            raise click.UsageError(f"both squads are called {teams[0].name}: rename one")
    orders: tuple[MatchOrders | None, MatchOrders | None] = (None, None)
    if order_files:
        setup = make_setup(Format(fmt), seed, teams, knockout)
        teams, orders = read_match_orders(order_files, (setup.home, setup.away), setup.spec)
    style = BattingStyle(batting_style) if batting_style else None
    state = run_sim(Format(fmt), seed, teams, orders, batting_style=style, knockout=knockout)
    if as_json:
        click.echo(json.dumps(match_report(state), indent=1))
        return
    if cricsheet:
        click.echo(json.dumps(to_cricsheet(state), indent=1))
        return
    # Piped with no width given: wide enough that the tables keep one row per line.
    console = make_console(min_width=120)
    _print_rich(state, console)
    if show_log:
        click.echo(ball_log_text(state), nl=False)


COMMANDS = [sim]
