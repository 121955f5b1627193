"""``pbm orders``: read a player's orders the way the GM's server will, before sending them."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console

from engine.dice import Dice
from engine.errors import OrderError
from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.ground import Conditions
from engine.flungo.language import (
    OrderContext,
    ParsedOrders,
    Reader,
    canonical,
    check_name,
    parse_orders,
    renamed,
)
from engine.flungo.orders import MatchOrders, Orders
from engine.flungo.plan import select
from engine.flungo.plan_check import PlanContext, nearest_legal
from engine.flungo.practice import practice_lines, practice_seed, practise
from engine.flungo.squad import SQUAD_SIZE, Team, generate_squad
from pbm.games.flungo.grammar import warm_order_parser

__all__ = ["COMMANDS", "check", "load_team", "orders", "preview_lines", "read_match_orders"]


@click.group()
def orders() -> None:
    """Cosmic Celebrity Cricket orders: check them before you send them."""


def load_team(path: Path) -> Team:
    """Read SQUAD.json (one team object ``{name, players: [...]}``) or fail with a clear error."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        team = Team.from_json(data)
    except KeyError as exc:
        raise click.BadParameter(f"cannot read the squad in {path}: no {exc} given") from exc
    except (OSError, ValueError, TypeError) as exc:
        raise click.BadParameter(f"cannot read the squad in {path}: {exc}") from exc
    # A short squad would otherwise play on with substitutes, and a name given twice would
    # make orders that name him ambiguous: refuse both here, where the file is named.
    if len(team.players) != SQUAD_SIZE:
        raise click.BadParameter(
            f"the squad in {path} has {len(team.players)} players; a squad has {SQUAD_SIZE}"
        )
    seen: set[str] = set()
    for name in (team.name, *(p.name for p in team.players)):
        # The names orders can be written with, as the naming orders enforce them.
        if (reason := check_name(name)) is not None:
            raise click.BadParameter(f"the squad in {path}: {name!r}: {reason}")
    for p in team.players:
        if p.name.casefold() in seen:
            raise click.BadParameter(f"the squad in {path} names {p.name} twice")
        seen.add(p.name.casefold())
    return team


def _error_json(e: OrderError) -> dict[str, Any]:
    return {
        "kind": e.kind,
        "line": e.span.line if e.span else None,
        "column": e.span.column if e.span else None,
        "end_column": e.span.end_column if e.span else None,
        "message": e.message,
        "hint": e.hint,
        "source_line": e.source_line,
    }


def report_json(result: ParsedOrders) -> dict[str, Any]:
    """The result as one JSON document: echo, errors, sentences not understood, notes, and
    the nearest reading of each refused line pbm could read with parts left out."""
    return {
        "ok": result.ok,
        "echo": [{"line": e.line, "text": e.text} for e in result.echo],
        "errors": [_error_json(e) for e in result.errors],
        "not_understood": [
            {"line": n.line, "text": n.text, "reason": n.reason} for n in result.not_understood
        ],
        "notes": [{"line": n.line, "text": n.text} for n in result.notes],
        # what pbm could read of a refused line (shown, never acted on)
        "nearest": [
            {"line": n.line, "text": n.text, "left_out": list(n.left_out), "reading": n.reading}
            for n in result.nearest
        ],
    }


def report_text(result: ParsedOrders) -> str:
    """The echo, then every error with its caret, as a player reads it in the reply."""
    out: list[str] = []
    if result.echo:
        out.append("Orders understood (canonical form):")
        out += [f"  {e.line:>3}: {e.text}" for e in result.echo]
    else:
        out.append("No orders understood.")
    out += [f"  {n.line:>3}: {n.text}" for n in result.notes]  # "read 'ovres' as 'overs'"
    if result.errors:
        out.append("")
        out.append(f"{len(result.errors)} error(s):")
        for e in result.errors:
            out.append("")
            out.append(f"[{e.kind}] {e}")
    if result.not_understood:
        out.append("")
        out.append("Conditional orders not understood (sent to the GM to read):")
        out += [f"  {n.line:>3}: {n.text}" for n in result.not_understood]
    return "\n".join(out)


F = TypeVar("F", bound=Callable[..., Any])


def _d6_option(name: str, default: int, what: str) -> Callable[[F], F]:
    """A ``--preview`` condition given as the D6 roll that sets it (1 to 6)."""
    return click.option(
        name, type=click.IntRange(1, 6), default=default, show_default=True,
        help=f"With --preview: {what}.",
    )  # fmt: skip


@orders.command()
@click.argument("orders_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--squad",
    "squad_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="SQUAD.json: one team object {name, players: [...]}.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice([f.value for f in Format]),
    default=Format.FIFTY.value,
    show_default=True,
    help="The match format, for over numbers and bowlers' limits.",
)
@click.option(
    "--opponent",
    "opponent_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The other team's SQUAD.json, for names in bowling reviews and 'when X is out'.",
)
@click.option("--drinks", is_flag=True, help="These are amendments at the drinks interval.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option(
    "--preview",
    is_flag=True,
    help="Also play the orders in three practice matches (against --opponent, or a side "
    "rolled for practice) and say when each conditional order fired, as the answer to a mail.",
)
@_d6_option("--pitch", 3, "the pitch's D6 roll (3: average)")
@_d6_option("--weather", 1, "the weather's D6 roll (1: normal)")
@click.option(
    "--no-consecutive-overs",
    is_flag=True,
    help="With --preview: the house rule that no bowler bowls two overs running.",
)
def check(
    orders_file: Path,
    squad_file: Path,
    fmt: str,
    opponent_file: Path | None,
    drinks: bool,
    as_json: bool,
    preview: bool,
    pitch: int,
    weather: int,
    no_consecutive_overs: bool,
) -> None:
    """Print the canonical echo of ORDERS_FILE and every error; exit 1 if there is any."""
    team = load_team(squad_file)
    opponent = load_team(opponent_file) if opponent_file is not None else None
    text = orders_file.read_text(encoding="utf-8", errors="replace")
    context = OrderContext(opponent=opponent, at_drinks=drinks)
    reader = Reader(warm_order_parser())
    result = parse_orders(text, team, FORMATS[Format(fmt)], context=context, reader=reader)
    conditions = Conditions("the practice ground", pitch, weather)
    shown = None
    if preview:
        shown = preview_lines(result, team, opponent, Format(fmt), conditions, no_consecutive_overs)
    if as_json:
        doc = report_json(result)
        if shown is not None:
            doc["practice"] = shown
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        click.echo(report_text(result))
        if shown is not None:
            _print_preview(shown)
    raise SystemExit(0 if result.ok else 1)


def preview_lines(
    result: ParsedOrders,
    team: Team,
    opponent: Team | None,
    fmt: Format,
    conditions: Conditions,
    no_consecutive_overs: bool = False,
) -> dict[str, list[str]]:
    """The practice of the orders read, as the answer to a mail gives it, and what the
    nearest legal plan mends: ``{"plan": [...], "practice": [...]}``. Without an opponent
    the practice is against a side rolled from the orders' dice ("Practice XI")."""
    match = result.orders.match
    text = canonical(Orders(match=match)) if match is not None else ""
    seed = practice_seed(text, team.name)
    if opponent is None:
        opponent = generate_squad(Dice(seed).derive("practice side"), "Practice XI")
    spec = FORMATS[fmt]
    if no_consecutive_overs:
        spec = replace(spec, max_consecutive=1)
    sel, _ = select(team, match, conditions)
    _, problems = nearest_legal(
        match.bowling_plan if match is not None else (),
        spec,
        PlanContext(xi=sel.xi, unable=((sel.wicketkeeper, "keeps wicket"),)),
    )
    practice = practise(
        team,
        match,
        opponent,
        fmt,
        conditions,
        seed,
        no_consecutive_overs=no_consecutive_overs,
    )
    return {"plan": [p.text for p in problems], "practice": practice_lines(practice)}


def _print_preview(shown: dict[str, list[str]]) -> None:
    """The preview at the terminal: wrapped to its width, never wrapped when piped."""
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, soft_wrap=True)
    if shown["plan"]:
        console.print()
        console.print(
            "Bowling plan: it breaks the limits, so the match plays the nearest legal plan:",
            markup=False,
        )
        for line in shown["plan"]:
            console.print(f"  - {line}", markup=False)
    console.print()
    console.print("Practice:", style="bold", markup=False)
    first, *rest = shown["practice"]
    console.print(first, markup=False)
    for line in rest:
        console.print(f"  - {line}", markup=False)


def read_match_orders(
    paths: tuple[Path, ...], teams: tuple[Team, Team], fmt: FormatSpec
) -> tuple[tuple[Team, Team], tuple[MatchOrders | None, MatchOrders | None]]:
    """Read ``--orders`` files (home, then away) for ``pbm sim``.

    Each file is read against its own squad, with the other as the opponent. Squad naming in
    a file renames that squad for the match; helper points are ignored (they are spent
    between matches). Any error stops the match: the errors are printed, exit status 1.
    """
    if len(paths) != 2:
        raise click.UsageError("give --orders twice: the home orders, then the away orders")
    results = []
    reader = Reader(warm_order_parser())
    for i, path in enumerate(paths):
        context = OrderContext(opponent=teams[1 - i])
        text = path.read_text(encoding="utf-8", errors="replace")
        results.append(parse_orders(text, teams[i], fmt, context=context, reader=reader))
    for path, result in zip(paths, results, strict=True):
        if not result.ok:
            click.echo(f"{path}:\n{report_text(result)}", err=True)
    if not all(r.ok for r in results):
        raise SystemExit(1)
    new = (
        renamed(teams[0], results[0].orders.naming),
        renamed(teams[1], results[1].orders.naming),
    )
    return new, (results[0].orders.match, results[1].orders.match)


COMMANDS = [orders]
