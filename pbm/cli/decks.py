"""``pbm decks``: build the Hit for Six decks from Cricsheet's downloads, and list them."""

from __future__ import annotations

import time
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pbm.cli._console import make_console
from pbm.games.hitforsix.decks.build import build_decks, default_out_dir, write_decks
from pbm.games.hitforsix.decks.cricsheet import CricsheetFormatError, Match
from pbm.games.hitforsix.decks.deckfile import CREDIT, DeckFileError
from pbm.games.hitforsix.decks.load import DECK_NAMES, DECK_SPECS, deck_file

__all__ = ["COMMANDS", "decks"]


@click.group()
def decks() -> None:
    """The Hit for Six decks (career figures from Cricsheet ball-by-ball data)."""


@decks.command("build")
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="A Cricsheet download: a folder of zips (t20s_json.zip, …, csv2 zips) or one zip.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to write <deck>.json.gz (default: the package's own deck folder).",
)
@click.option(
    "--deck",
    "names",
    multiple=True,
    type=click.Choice(DECK_NAMES),
    help="Build only this deck (repeatable; default: all six).",
)
def build(source: Path, out: Path | None, names: tuple[str, ...]) -> None:
    """Build the decks from Cricsheet's per-match downloads."""
    console = make_console(stderr=True)
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]reading matches"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task("read", total=None)

        def on_start(total: int) -> None:
            progress.update(task, total=total)

        def on_match(_match: Match) -> None:
            progress.advance(task)

        try:
            report = build_decks(source, names, on_start=on_start, on_match=on_match)
        except (CricsheetFormatError, DeckFileError) as exc:
            raise click.ClickException(str(exc)) from None
    if report.matches_read == 0:
        raise click.ClickException(f"no Cricsheet match files found under {source}")
    out_dir = out if out is not None else default_out_dir()
    write_decks(report, out_dir)
    table = Table(title=f"Decks written to {out_dir}")
    for col in ("deck", "cards", "min matches", "matches read", "bytes", "build"):
        table.add_column(col, justify="left" if col in ("deck", "build") else "right")
    for name, built in report.decks.items():
        f = built.file
        table.add_row(
            name,
            str(len(f.cards)),
            str(f.min_matches),
            str(f.source_matches),
            str(len(built.data)),
            built.build,
        )
    out_console = make_console()
    out_console.print(table)
    for why, n in sorted(report.left_out.items()):
        out_console.print(f"left out {n} matches: {why}")
    out_console.print(
        f"{report.matches_read} matches from {len(report.sources)} sources"
        f" in {time.perf_counter() - started:.1f} s. {CREDIT}."
    )


@decks.command("list")
def list_decks() -> None:
    """Show the shipped decks: cards, build ids and the data they cover."""
    table = Table(title="Hit for Six decks")
    for col in ("deck", "cards", "min", "build", "matches", "from", "to"):
        table.add_column(col, no_wrap=True)
    for s in DECK_SPECS:
        try:
            f, build_id = deck_file(s.name)
        except DeckFileError as exc:
            table.add_row(s.name, "-", str(s.min_matches), f"({exc})", "", "", "")
            continue
        table.add_row(
            s.name,
            str(len(f.cards)),
            str(f.min_matches),
            build_id,
            str(f.source_matches),
            f.first_date,
            f.last_date,
        )
    console = make_console()
    console.print(table)
    console.print(f"{CREDIT}. Career figures from Cricsheet ball-by-ball data.")


COMMANDS = [decks]
