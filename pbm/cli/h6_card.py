"""``pbm h6 card NAME``: one card's figures and fingerprint, as text and as SVG.

The h6 command group attaches this command (``from pbm.cli.h6_card import card``); it is
deliberately not in a ``COMMANDS`` list of its own.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import click
from rich.table import Table

from engine.hitforsix.cards import Card, Deck
from engine.hitforsix.scale import DeckScale, sparkline
from engine.hitforsix.svg import card_svg, key_figures
from pbm.cli._console import make_console
from pbm.games.hitforsix.decks.load import DECK_NAMES, deck_file, load_deck

__all__ = ["card", "find_cards"]


def _name_keys(c: Card) -> set[str]:
    """What a player may be called: registry id, full name, surname (last word, or all but
    the first word, so "de Villiers" and "Villiers" both find AB de Villiers)."""
    words = c.name.split()
    keys = {c.id, c.name, words[-1]}
    if len(words) > 1:
        keys.add(" ".join(words[1:]))
    return {k.casefold() for k in keys}


def find_cards(deck: Deck, query: str) -> list[Card]:
    """Cards of ``deck`` whose registry id, full name or surname is ``query`` (any case).

    An exact full name or id wins over surname matches, so "V Kohli" is never ambiguous.
    """
    q = " ".join(query.split()).casefold()
    exact = [c for c in deck.cards if q in (c.id.casefold(), c.name.casefold())]
    if exact:
        return exact
    return [c for c in deck.cards if q in _name_keys(c)]


@click.command("card")
@click.argument("name")
@click.option(
    "--deck",
    "deck_name",
    type=click.Choice(DECK_NAMES),
    default="t20i",
    show_default=True,
    help="The deck the card is in.",
)
@click.option(
    "--svg",
    "svg_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the card (with its fingerprint) as SVG to this file.",
)
def card(name: str, deck_name: str, svg_path: Path | None) -> None:
    """Show a player's card: NAME is a full name, a surname or a Cricsheet registry id."""
    deck = load_deck(deck_name)
    found = find_cards(deck, name)
    if not found:
        close = difflib.get_close_matches(name, [c.name for c in deck.cards], n=5, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise click.ClickException(f"no card for {name!r} in the {deck_name} deck{hint}")
    if len(found) > 1:
        lines = "\n".join(
            f"  {c.name} ({c.country}, {c.matches} matches) — id {c.id}"
            for c in sorted(found, key=lambda c: (c.name, c.id))
        )
        raise click.ClickException(
            f"{name!r} matches {len(found)} cards in the {deck_name} deck; give the full name"
            f" or the id:\n{lines}"
        )
    (chosen,) = found
    file, build = deck_file(deck_name)
    scale = DeckScale.of(deck.cards)
    table = Table(title=f"{chosen.name} — {chosen.country}", show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for label, value in key_figures(chosen):
        table.add_row(label, value)
    console = make_console()
    console.print(table)
    console.print(f"{file.title} deck, build {build}")
    console.print(f"Initials {chosen.initials}   fingerprint {sparkline(scale.rays(chosen))}")
    console.print(f"{file.credit}. Career figures from Cricsheet ball-by-ball data.")
    if svg_path is not None:
        svg_path.write_text(
            card_svg(chosen, scale, deck_title=file.title, credit=file.credit), encoding="utf-8"
        )
        console.print(f"Card written to {svg_path}")
