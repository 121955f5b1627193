"""``pbm h6``: Hit for Six at the command line — deal, play (or play interactively), replay a
challenge code, and Test Matches between automatic seats."""

from __future__ import annotations

import importlib
import json
import secrets
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from engine.errors import OrderError
from engine.hitforsix.cards import Deck
from engine.hitforsix.choose import parse_window
from engine.hitforsix.code import CodeError, compare, decode, encode, replay
from engine.hitforsix.deal import FACE_UP, Deal, daily_seed, deal, parse_seed
from engine.hitforsix.game import SoloGame, grader_for, play_solo
from engine.hitforsix.over import CAPS, Decisions, Hand
from engine.hitforsix.post import decode_match, encode_match, is_match_code, replay_code
from engine.hitforsix.rules import RULES, Rule
from engine.hitforsix.testmatch import (
    TARGETS,
    MatchState,
    auto_match,
    auto_seat,
    new_match,
    over_deal,
    play_round,
)
from pbm.cli._common import config_option, load
from pbm.cli.h6_view import (
    card_table,
    console,
    show_ghost,
    show_match,
    show_over,
    show_result,
)
from pbm.core.clock import SystemClock
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck

__all__ = ["COMMANDS", "h6"]

_RULE_NAMES = [r.value for r in RULES]


@click.group()
def h6() -> None:
    """Hit for Six: name the finest XI from a deal of true career figures."""


def today() -> str:
    """Today's UTC date, YYYY-MM-DD: the day whose Daily XI is dealt when no option says."""
    return SystemClock().now().date().isoformat()


def _deal(deck_name: str, seed: str | None, daily: str | None) -> Deal:
    if seed is not None and daily is not None:
        raise click.UsageError("give one of --seed S or --daily YYYY-MM-DD, not both")
    if seed is None and daily is None:
        daily = today()  # law 7.01: with nothing said, the deal is the day's, shared by all
    try:
        value = parse_seed(seed) if seed is not None else daily_seed(deck_name, str(daily))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--daily") from None
    return deal(load_deck(deck_name), value)


def _emit(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


_deck_option = click.option(
    "--deck", type=click.Choice(DECK_NAMES), default="t20i", show_default=True, help="The deck."
)
_seed_option = click.option("--seed", help="The deal's seed (a number or any text).")
_daily_option = click.option("--daily", metavar="YYYY-MM-DD", help="The Daily XI of that UTC day.")
_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


@h6.command("deal")
@_deck_option
@_seed_option
@_daily_option
@_json_option
def deal_cmd(deck: str, seed: str | None, daily: str | None, as_json: bool) -> None:
    """Show the 17 cards of a deal (11 face up, then the 6 replacements in order)."""
    d = _deal(deck, seed, daily)
    if as_json:
        _emit(d.to_json())
        return
    out = console()
    if seed is None and daily is None:
        out.print(
            f"The Daily XI of {today()} ({deck} deck), the one deal of the day shared by "
            "all (law 7.01); --seed S deals another, --daily YYYY-MM-DD another day's."
        )
    elif daily is not None:
        out.print(f"The Daily XI of {daily} ({deck} deck).")
    cards = list(enumerate(d.cards))
    w = out.width
    out.print(card_table(f"Face up — {d.deck.name}, seed {d.seed}", cards[:FACE_UP], d.deck,
                         width=w))  # fmt: skip
    out.print(card_table("Replacements, in order", cards[FACE_UP:], d.deck, width=w, xi=[]))
    if d.rule is Rule.SIX_AND_OUT:
        out.print(f"Rule: {d.rule.title} (the line: {d.line} sixes)")
    elif d.rule is Rule.THE_TOSS:
        out.print("Rule: The Toss — concealed until you name your XI")
    else:
        out.print(f"Rule: {d.rule.title}")


@h6.command("play")
@_deck_option
@_seed_option
@_daily_option
@click.option("--rule", type=click.Choice(_RULE_NAMES), help="The Rule (default: the deal's).")
@click.option("--drops", help='Drops per window, e.g. "0,4,7/11,2/12" (omit to play live).')
@_json_option
def play_cmd(
    deck: str,
    seed: str | None,
    daily: str | None,
    rule: str | None,
    drops: str | None,
    as_json: bool,
) -> None:
    """Play a hand: name an XI through the over of changes, and be graded."""
    d = _deal(deck, seed, daily)
    chosen = Rule(rule) if rule else d.rule
    if drops is None:
        _interactive(d, chosen)
        return
    try:
        game = play_solo(d, chosen, Decisions.from_text(drops))
    except OrderError as exc:
        raise click.ClickException(f"illegal drops: {exc}") from None
    code = encode(game)
    if as_json:
        _emit(game.to_json(code))
    else:
        show_result(console(), game, code)


class Quit(click.ClickException):
    """The player left the over ('quit'): nothing is graded and no code is made."""

    exit_code = 0

    def __init__(self) -> None:
        super().__init__("You left the over: no XI named, nothing graded.")

    def show(self, file: Any = None) -> None:
        """Say so on standard output, as an ordinary end."""
        click.echo(self.message)


_NAME_WORDS = {"name", "n"}
_QUIT_WORDS = {"quit", "q", "exit"}


def _interactive(d: Deal, rule: Rule, *, show: bool = True, title: str = "Your hand") -> SoloGame:
    """The terminal game: the hand as a table, one prompt per window.

    An answer names men by position, name or initials (``engine.hitforsix.choose``); ``name``
    names the XI; ``quit`` leaves (raising :class:`Quit`).
    """
    out = console()
    concealed = rule is Rule.THE_TOSS
    out.print(f"[bold]Hit for Six[/bold] — {d.deck.name}, seed {d.seed}")
    out.print(
        "Rule: The Toss — concealed until you name your XI"
        if concealed
        else f"Rule: {rule.title}"
        + (f" (the line: {d.line} sixes)" if rule.value == "six-and-out" else "")
    )
    grader = grader_for(d)
    hand = Hand()
    windows: list[frozenset[int]] = []
    cards = d.cards
    while hand.window < len(CAPS):
        held = [(p, cards[p]) for p in hand.xi]
        out.print(card_table(title, held, d.deck, width=out.width))
        cap = CAPS[hand.window]
        # The help is printed (and wrapped to the terminal), the prompt kept short, so a
        # narrow terminal never breaks the line being typed.
        out.print(
            f"Window {hand.window + 1}: drop up to {cap} — positions, names or initials, "
            "comma-separated (Enter drops none; 'name' names your XI; 'quit' leaves)"
        )
        answer = click.prompt(
            f"Window {hand.window + 1}, drop", default="", show_default=False
        ).strip()
        if answer.lower() in _NAME_WORDS:
            break
        if answer.lower() in _QUIT_WORDS:
            raise Quit()
        try:
            dropped = parse_window(answer, hand, cards)
            hand = hand.drop(dropped)
        except OrderError as exc:
            out.print(f"[red]{escape(str(exc))}[/red]")  # it quotes the player's input
            continue
        windows.append(dropped)
        if dropped:
            drawn = ", ".join(
                f"{cards[p].name} ({p})"
                for p in range(hand.next_replacement - len(dropped), hand.next_replacement)
            )
            out.print(f"In came: {escape(drawn)}")
    game = play_solo(d, rule, Decisions(tuple(windows)), grader)
    if show:
        show_result(out, game, encode(game))
    return game


@h6.command("replay")
@click.argument("code")
@_json_option
def replay_cmd(code: str, as_json: bool) -> None:
    """Replay a challenge code (the same XI and grade) or a Test Match's replay code (the
    standings, derived from the decisions alone: law 9.02)."""
    if is_match_code(code):
        _replay_match(code, as_json)
        return
    try:
        challenge = decode(code)
        game = replay(challenge, load_deck(challenge.deck))
    except CodeError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        _emit(game.to_json(code.strip()))
    else:
        show_result(console(), game, code.strip())


@h6.command("challenge")
@click.argument("code")
@click.option("--drops", help='Your drops per window, e.g. "0,4,7/11,2/12" (omit to play live).')
@_json_option
def challenge_cmd(code: str, drops: str | None, as_json: bool) -> None:
    """Play a challenge code's deal against its ghost, grade for grade (law 6.01)."""
    try:
        challenge = decode(code)
        deck = load_deck(challenge.deck)
        ghost = replay(challenge, deck)
    except CodeError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        if drops is None:
            decisions = _interactive(ghost.deal, ghost.rule, show=False).decisions
        else:
            decisions = Decisions.from_text(drops)
        result = compare(challenge, deck, decisions)
    except OrderError as exc:
        raise click.ClickException(f"illegal drops: {exc}") from None
    if as_json:
        _emit(
            {
                "ghost": result.ghost.to_json(code.strip()),
                "rival": result.rival.to_json(encode(result.rival)),
                "winner": result.winner,
                "margin": result.margin,
            }
        )
    else:
        out = console()
        show_result(out, result.rival, encode(result.rival))
        show_ghost(out, result)


def _hand_seats(text: str | None, seats: int, auto: bool) -> frozenset[int]:
    """The seats (0-based) played by hand: ``--hand 1,3``, ``--hand all``, or seat 1 alone."""
    if auto:
        if text:
            raise click.UsageError("--auto plays every seat automatically; leave out --hand")
        return frozenset()
    if text is None:
        return frozenset({0})
    if text.strip().lower() == "all":
        return frozenset(range(seats))
    chosen: set[int] = set()
    for word in text.replace(" ", "").split(","):
        if not word.isdecimal() or not 1 <= int(word) <= seats:
            raise click.BadParameter(
                f"{word!r} is not a seat: seats are 1 to {seats}", param_hint="--hand"
            )
        chosen.add(int(word) - 1)
    return frozenset(chosen)


@h6.command("test")
@click.option(
    "--seats",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="How many seats: 2, 3 or 4 (10, 20 or 30 wickets to win).",
)
@click.option("--seed", help="The match seed (a number or any text); without it, one is picked.")
@_deck_option
@click.option("--auto", is_flag=True, help="Every seat plays seeded random legal decisions.")
@click.option(
    "--hand",
    "hand_text",
    metavar="SEATS",
    help="Seats played by hand at the terminal, e.g. '1,3' or 'all' (default: seat 1; "
    "the others play automatically).",
)
@click.option("--max-overs", type=int, default=1000, show_default=True, hidden=True)
@_json_option
def test_cmd(
    seats: int,
    seed: str | None,
    deck: str,
    auto: bool,
    hand_text: str | None,
    max_overs: int,
    as_json: bool,
) -> None:
    """Play a Test Match (law 5): seats by hand at the terminal, or automatic ones.

    Each over every seat gets the same deal; a seat by hand plays it sealed (the others'
    overs are shown only when all have batted). The match ends with its replay code, which
    `pbm h6 replay` turns back into the standings.
    """
    the_deck = load_deck(deck)
    match_seed = parse_seed(seed) if seed is not None else secrets.randbits(64)
    by_hand = _hand_seats(hand_text, seats, auto)
    if not by_hand:
        state = auto_match(the_deck, match_seed, seats, max_overs)
    else:
        if as_json:
            raise click.UsageError("--json needs automatic seats (--auto)")
        if seed is None:
            click.echo(f"Match seed: {match_seed} (pbm h6 test --seed {match_seed} replays it)")
        state = _hand_match(the_deck, match_seed, seats, by_hand, max_overs)
    if as_json:
        _emit({**_match_json(state, seats), "replay_code": encode_match(state, the_deck)})
    else:
        show_match(console(), state, the_deck)
        console().print(f"Replay code: {encode_match(state, the_deck)}")


def _hand_match(
    deck: Deck, seed: int, seats: int, by_hand: frozenset[int], max_overs: int
) -> MatchState:
    """A match with some seats at the terminal; 'quit' in any window ends it where it stands."""
    out = console()
    state = new_match(deck, seed, [f"Seat {i + 1}" for i in range(seats)])
    while state.champion is None and len(state.overs) < max_overs:
        n = len(state.overs) + 1
        the_deal = over_deal(deck, seed, n)
        decisions = []
        for seat in range(seats):
            if seat not in by_hand:
                decisions.append(auto_seat(seed, n, seat))
                continue
            out.print(f"[bold]Over {n} — Seat {seat + 1} bats[/bold] (the other seats are sealed)")
            try:
                game = _interactive(
                    the_deal, the_deal.rule, show=False, title=f"Seat {seat + 1}'s hand"
                )
            except Quit:
                out.print(f"Seat {seat + 1} left the match after {n - 1} overs.")
                return state
            decisions.append(game.decisions)
        resolution = play_round(state, deck, decisions)
        state = resolution.state
        show_over(out, state.overs[-1], the_deal.real_rule(the_deal.rule))
    return state


def _replay_match(code: str, as_json: bool) -> None:
    try:
        mc = decode_match(code)
        the_deck = load_deck(mc.deck)
        state = replay_code(mc, the_deck)
    except CodeError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        _emit({**_match_json(state, state.seats), "replay_code": encode_match(state, the_deck)})
    else:
        show_match(console(), state, the_deck)


def _seat(index: int | None) -> int | None:
    """A seat as players count it: from 1 (the engine numbers seats from 0)."""
    return None if index is None else index + 1


def _match_json(state: MatchState, seats: int) -> dict[str, Any]:
    """``test --json``: seats numbered from 1, as the terminal output shows them."""
    data = state.to_json()
    overs = [{**o, "winner": _seat(o["winner"])} for o in data["overs"]]
    standings = [{**s, "seat": s["seat"] + 1} for s in data["standings"]]
    return {
        "seats": seats,
        "target": TARGETS[seats],
        "seed": state.seed,
        "deck": state.deck,
        "overs": overs,
        "standings": standings,
        "champion": _seat(data["champion"]),
    }


@h6.command("ground")
def ground_cmd() -> None:
    """Write the one-file ground (law 7.02): `pbm h6 ground > ground.html`, then open it."""
    from pbm.games.hitforsix.ground import ground_html

    click.echo(ground_html(), nl=False)


@h6.command("archive")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The folder to write the pages into.")  # fmt: skip
@click.option("--day", metavar="YYYY-MM-DD", help="The Today pages' day (default: today, UTC).")
@click.option("--url", help="Database URL (instead of the config's database.url).")
@config_option
def archive_cmd(out_dir: Path, day: str | None, url: str | None, config_path: Path | None) -> None:
    """Write The Averages' archive (Today, one page per deck, the season) and the ground."""
    from pbm.db.session import make_db_engine, make_session_factory
    from pbm.games.hitforsix.ground import ground_html
    from pbm.games.hitforsix.pages import season_page, today_page

    the_day = day or today()
    try:
        daily_seed("t20i", the_day)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--day") from None
    db_engine = make_db_engine(url or load(config_path, logs=False).database.url)
    out_dir.mkdir(parents=True, exist_ok=True)
    pages = {"ground.html": ground_html()}
    try:
        with make_session_factory(db_engine)() as session:
            pages["today.html"] = today_page(session, the_day)
            for name in DECK_NAMES:
                pages[f"today-{the_day}-{name}.html"] = today_page(session, the_day, name)
            pages[f"season-{the_day[:7]}.html"] = season_page(session, the_day[:7])
    finally:
        db_engine.dispose()
    for name, text in pages.items():
        (out_dir / name).write_text(text, "utf-8")
    click.echo(f"wrote {len(pages)} pages to {out_dir}")


def _attach_card_command() -> None:
    """Add the decks engineer's ``card`` command when his module is present."""
    try:
        module = importlib.import_module("pbm.cli.h6_card")
    except ModuleNotFoundError as exc:
        if exc.name != "pbm.cli.h6_card":
            raise
        return
    h6.add_command(module.card)


_attach_card_command()
COMMANDS = [h6]
