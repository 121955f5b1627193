"""Solo, Daily and challenge games by mail (DEAL, DAILY, CHALLENGE <code>): no storage at all.

A game by mail travels in its own replies, as decisions only (law 9.02): every reply carries a
**game line** ``H6GAME <deck> <seed> <rule> <decisions>[ GHOST <code>]`` and the player answers
under it. So the server keeps nothing about a solo player (law 8.02's spirit) and any reply can
be answered from any device. The game line shows the Rule as played — The Toss stays "the-toss"
until the XI is named, so no command reveals the concealed Rule early (issue 12).

Every function returns a :class:`Reply`: the template kind (``templates/email/h6-*``) and
the context the reply mail must say; the mail-command registry renders and queues it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.errors import OrderError
from engine.hitforsix.answer import read_answer
from engine.hitforsix.choose import find_card, window_hint
from engine.hitforsix.code import CodeError, check_daily, decode, encode, replay
from engine.hitforsix.deal import FACE_UP, Deal, daily_seed, deal, parse_seed
from engine.hitforsix.game import SoloGame, grader_for, play_solo
from engine.hitforsix.over import CAPS, Decisions, Hand
from engine.hitforsix.rules import ATTACK_SIZE, Rule, attack_order, is_proper_bowler
from pbm.games.hitforsix.card_images import card_cid
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck

__all__ = [
    "Reply",
    "came_in",
    "card_rows",
    "challenge",
    "daily",
    "daily_days",
    "daily_of",
    "deal_game",
    "game_line",
    "rule_text",
    "solo_answer",
    "window_examples",
]

# One line only ([ \t], never \s): the answer below must not be read as part of the game.
# An over not yet begun is written "-", so the line never ends in a space a mailer might trim.
# Any case (commands are read in any case); the ghost's code alone is case-sensitive.
_LINE = re.compile(
    r"H6GAME[ \t]+(?P<deck>[a-z0-9-]+)[ \t]+(?P<seed>\d+)[ \t]+(?P<rule>[a-z-]+)"
    r"[ \t]+(?P<dec>-|[0-9,./]+)(?:[ \t]+GHOST[ \t]+(?P<ghost>[A-Za-z0-9_-]{32}))?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reply:
    """What a reply mail must say: its template kind and context (``to`` is the caller's)."""

    kind: str
    ctx: dict[str, Any] = field(default_factory=dict)
    to: str | None = None


def daily_days(now: datetime) -> tuple[str, str]:
    """The days whose Daily XI is accepted at ``now``: today's, and yesterday's until it ends
    a day late (a game begun before midnight UTC may finish after)."""
    today = now.date()
    return today.isoformat(), (today - timedelta(days=1)).isoformat()


def _windows_text(windows: list[frozenset[int]]) -> str:
    # Every window answered is written, an empty one as ".", so that "none" in window 2 is not
    # lost the way the canonical text (which names the XI) would lose it.
    return "/".join(",".join(str(p) for p in sorted(w)) or "." for w in windows) or "-"


def _windows_of(text: str) -> list[frozenset[int]]:
    if text == "-":
        return []
    return [Decisions.from_text(part.replace(".", "")).windows[0] if part != "." else frozenset()
            for part in text.split("/")]  # fmt: skip


def game_line(d: Deal, rule: Rule, windows: list[frozenset[int]], ghost: str | None = None) -> str:
    """The line a reply carries so the game can go on from any device."""
    text = f"H6GAME {d.deck.name} {d.seed} {rule.value} {_windows_text(windows)}"
    return text + (f" GHOST {ghost}" if ghost else "")


def _ratio(num: int, den: int, places: int, scale: float = 1.0) -> str:
    return f"{scale * num / den:.{places}f}" if den else "-"


def card_rows(d: Deal, positions: tuple[int, ...], xi: tuple[int, ...] | None = None
              ) -> list[dict[str, Any]]:  # fmt: skip
    """Rows for a text table of cards: every figure a Rule reads (law 4.01), and whether the
    man is in the attack of ``xi`` (law 4.02; default: the cards shown are the XI)."""
    attack = set(attack_order(d.cards, xi if xi is not None else positions)[:ATTACK_SIZE])
    rows = []
    for p in positions:
        c = d.cards[p]
        rows.append(
            {
                "pos": p,
                "name": c.name,
                "initials": c.initials,
                "country": c.country,
                "matches": c.matches,
                "runs": c.runs,
                "avg": _ratio(c.runs, c.dismissals, 1),
                "bf": c.balls_faced,
                "sr": _ratio(c.runs, c.balls_faced, 1, 100.0),
                "sixes": c.sixes,
                "bb": c.balls_bowled,
                "wickets": c.wickets,
                "econ": _ratio(c.runs_conceded, c.balls_bowled, 2, 6.0),
                "bavg": _ratio(c.runs_conceded, c.wickets, 1),
                "attack": p in attack,
                "proper": is_proper_bowler(c),
                "new": p >= FACE_UP,
                # the card's picture in an HTML mail (card_images.hand_images)
                "cid": card_cid(d.deck.name, d.indices[p]),
            }
        )
    return rows


def rule_text(d: Deal, rule: Rule) -> str:
    """The Rule as a deal mail states it (The Toss stays concealed)."""
    if rule is Rule.THE_TOSS:
        return "The Toss — concealed until you name your XI"
    if rule is Rule.SIX_AND_OUT:
        return f"Six and Out (the line: {d.line} sixes)"
    return rule.title


def _hand(windows: list[frozenset[int]]) -> Hand:
    hand = Hand()
    for w in windows:
        hand = hand.drop(w)
    return hand


def came_in(d: Deal, windows: list[frozenset[int]], since: int) -> list[str]:
    """The names drawn by the windows after the first ``since``: the ones just come in."""
    before = _hand(windows[:since]).next_replacement
    now = _hand(windows).next_replacement
    return [f"{d.cards[p].name} ({p})" for p in range(before, now)]


def window_examples(hand: Hand, d: Deal) -> list[str]:
    """Answers a mail prints for the window in play, each one it accepts there (a test sends
    every one back): by position, by name and initials, and as instructions for the rest."""
    cap = CAPS[hand.window]
    held = hand.xi
    by_pos = ", ".join(str(p) for p in held[:cap])
    words = [d.cards[held[0]].name.split()[-1], d.cards[held[1]].initials][:cap]
    if len(find_card(words[0], held, d.cards)[0]) != 1:
        words[0] = str(held[0])
    if cap > 1 and len(find_card(words[1], held, d.cards)[0]) != 1:
        words[1] = str(held[1])
    out = [f"drop {by_pos}", ", ".join(words)]
    if hand.window < len(CAPS) - 1:
        out.append(f"drop {held[-1]}; then drop the lowest average")
    return out


def _in_play(
    d: Deal, rule: Rule, windows: list[frozenset[int]], ghost: str | None, note: str,
    since: int | None = None, notes: list[str] | None = None, day: str | None = None,
) -> Reply:  # fmt: skip
    hand = _hand(windows)
    return Reply(
        "h6-deal",
        {
            "deck": d.deck.name,
            "seed": d.seed,
            "rule": rule_text(d, rule),
            "window": hand.window + 1,
            "cap": CAPS[hand.window],
            "hint": window_hint(hand, d.cards),
            "examples": window_examples(hand, d),
            "hand": card_rows(d, hand.xi),
            "came_in": came_in(d, windows, len(windows) - 1 if since is None else since),
            "game": game_line(d, rule, windows, ghost),
            "ghost": ghost,
            "note": note,
            "notes": notes or [],
            "daily": day,
            "errors": [],
        },
    )


def _result(
    game: SoloGame, ghost: SoloGame | None, day: str | None = None,
    notes: list[str] | None = None, how: str = "window",
) -> Reply:  # fmt: skip
    d = game.deal
    best = grader_for(d).best(game.judged_by)
    r = game.resemblance
    ctx: dict[str, Any] = {
        "deck": d.deck.name,
        "rule": game.rule.title,
        "judged_by": game.judged_by.title,
        "revealed": game.rule is Rule.THE_TOSS,
        "line": d.line if game.judged_by is Rule.SIX_AND_OUT else None,
        "xi": card_rows(d, game.xi),
        "score": f"{game.score:,.2f}",
        "grade": f"{game.grade.grade:.1f}",
        "beats": f"{game.grade.beats:,}",
        "ties": f"{game.grade.ties:,}",
        "resemblance": {"name": r.match.name, "country": r.match.country},
        "best": [d.cards[p].name for p in best],
        "code": encode(game),
        "ghost": None,
        "daily": day,
        "notes": notes or [],
        "how": how,
    }
    if ghost is not None:
        a, b = ghost.grade.tenths, game.grade.tenths
        ctx["ghost"] = {
            "grade": f"{ghost.grade.grade:.1f}",
            "verdict": "A tie."
            if a == b
            else ("You beat the ghost." if b > a else "The ghost wins."),
        }
    return Reply("h6-result", ctx)


def daily_of(d: Deal, rule: Rule, now: datetime) -> str | None:
    """The day whose Daily XI ``d`` is (under its own Rule), if it is one The Averages takes."""
    if rule is not d.rule:
        return None
    return next((day for day in daily_days(now) if d.seed == daily_seed(d.deck.name, day)), None)


def _error(message: str) -> Reply:
    return Reply("h6-refused", {"reason": message})


def deal_game(seed_text: str | int, deck_name: str = "t20i") -> Reply:
    """DEAL [deck]: a fresh deal (the caller draws the seed), and how to answer it."""
    if deck_name not in DECK_NAMES:
        return _error(f"there is no deck {deck_name!r}; the decks are {', '.join(DECK_NAMES)}")
    d = deal(load_deck(deck_name), parse_seed(seed_text))
    return _in_play(d, d.rule, [], None, "")


def daily(now: datetime, deck_name: str = "t20i") -> Reply:
    """DAILY [deck]: today's Daily XI of the deck (law 7.01), under the day's Rule."""
    if deck_name not in DECK_NAMES:
        return _error(f"there is no deck {deck_name!r}; the decks are {', '.join(DECK_NAMES)}")
    day = daily_days(now)[0]
    d = deal(load_deck(deck_name), daily_seed(deck_name, day))
    return _in_play(d, d.rule, [], None, f"The Daily XI of {day}: the {deck_name} deck's one "
                    "deal of the day, the same for everyone. Post your result's code to The "
                    "Averages (law 8.01).", day=day)  # fmt: skip


def challenge(code: str, now: datetime) -> Reply:
    """CHALLENGE <code>: the code's deal and Rule against its ghost (law 6.01).

    A code of a recent Daily XI must carry the day's Rule (issue 12): a daily is nobody's to
    re-rule, so one naming another Rule is refused.
    """
    try:
        ch = decode(code)
        deck = load_deck(ch.deck)
        ghost = replay(ch, deck)
        for day in daily_days(now):
            if ch.seed == daily_seed(ch.deck, day):
                check_daily(ch, deck, day)
    except CodeError as exc:
        return _error(str(exc))
    return _in_play(ghost.deal, ghost.rule, [], code.strip(), "Beat the ghost.",
                    day=daily_of(ghost.deal, ghost.rule, now))  # fmt: skip


def solo_answer(text: str, now: datetime) -> Reply:
    """A reply to a game mail: the game line (quoted or not) and the answer below it.

    The answer is one window (positions, names or initials; ``none`` or blank drops nobody),
    ``name`` (name the XI), or the rest of the over as instructions (``drop 2, 5; then …``).
    """
    found = _LINE.search(text)
    if found is None:
        return _error("this reply has no H6GAME line: answer under the line of your last mail")
    deck_name = found["deck"].lower()
    if deck_name not in DECK_NAMES:
        return _error(f"the game line names no deck {deck_name!r}")
    try:
        rule = Rule(found["rule"].lower())
        windows = _windows_of(found["dec"])
        _hand(windows)  # an altered line may name an illegal over
    except (ValueError, OrderError, IndexError):
        return _error("the game line was altered: start again with DEAL or DAILY")
    d = deal(load_deck(deck_name), int(found["seed"]) if int(found["seed"]) < 2**64 else 0)
    ghost_code = found["ghost"]
    ghost = None
    if ghost_code:
        try:
            ghost = replay(ghost_code, d.deck)
        except CodeError as exc:
            return _error(str(exc))
    answer = _answer_text(text, found.end())  # instructions keep their lines
    day = daily_of(d, rule, now)
    try:
        read = read_answer(answer, windows, d)
    except OrderError as exc:
        reply = _in_play(d, rule, windows, ghost_code, "", len(windows), day=day)
        reply.ctx["errors"] = [str(exc)]
        return reply
    notes = [*([f"Your answer was {read.read_as}"] if read.read_as else []), *read.notes]
    if not read.done:
        return _in_play(d, rule, list(read.windows), ghost_code, "", len(windows), notes, day)
    game = play_solo(d, rule, Decisions(tuple(read.windows)))
    return _result(game, ghost, day, notes, read.how)


def _answer_text(text: str, after: int) -> str:
    """The answer under the game line: its lines up to the first blank line after some text
    (so a "thanks" further down is not read as a second step)."""
    lines: list[str] = []
    for raw in text[after:].splitlines():
        ln = raw.strip().lstrip(">").strip()
        if ln:
            lines.append(ln)
        elif lines:
            break
    return "\n".join(lines)
