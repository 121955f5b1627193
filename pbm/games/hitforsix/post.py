"""Test by Post by mail (laws 5 and 9): open, join, play overs sealed, reveal, deadlines.

Service functions take a Session, a clock and plain values, change the tables of
:mod:`pbm.games.hitforsix.models` and return a :class:`PostResult`: the replies to send (template
kind,
context, address). The caller commits and queues the replies. Nothing here stores a score:
:func:`standings` replays the sealed decisions with the engine every time (law 9.02).

Decided here (documented in ``docs/rules/hitforsix.md``):

* the opener takes seat 1; seats join with the wire code; the match starts when full, and each
  over has ``over_hours`` (48 by default) from the moment it is dealt, with one reminder to
  the seats still batting when a quarter of that time is left;
* a seat answers by mail with its ticket: a window (positions, names, initials, ``none``),
  ``name``, or the whole over as instructions (``drop …; then if …``);
* at the deadline a seat still batting **names the XI it holds** (law 3.03): the dealt XI if
  it sent nothing;
* the reveal opens every receipt and gives the over's grades, winner and the standings, all
  derived by replay, with the match's replay code.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.errors import OrderError
from engine.hitforsix.answer import read_answer
from engine.hitforsix.cards import Deck
from engine.hitforsix.deal import FACE_UP, Deal
from engine.hitforsix.over import CAPS, Decisions, Hand, play_over
from engine.hitforsix.post import (
    encode_match,
    parse_wire,
    receipt,
    receipt_text,
    verify,
    wire_code,
    wire_seed,
)
from engine.hitforsix.rules import Rule
from engine.hitforsix.testmatch import TARGETS, CareerLine, MatchState, over_deal, replay_match
from pbm.core.clock import Clock
from pbm.core.dates import format_deadline
from pbm.db.models import Player
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck
from pbm.games.hitforsix.models import H6Match, H6OverEntry, H6Seat
from pbm.games.hitforsix.solo import Reply, came_in, card_rows, rule_text, window_examples
from pbm.secrets.seats import SecretBox, ticket_placeholder

__all__ = [
    "PostResult",
    "career",
    "join_match",
    "open_match",
    "over_reply",
    "reminder_at",
    "standings",
    "tick",
    "tick_match",
]

Draw = Callable[[int], int]
MAX_OVER_HOURS = 24 * 14


@dataclass(frozen=True, slots=True)
class PostResult:
    """What happened: ``ok`` or a refusal, and the replies (each with its address)."""

    ok: bool
    note: str
    replies: tuple[Reply, ...] = field(default=())


def _refuse(to: str, reason: str) -> PostResult:
    return PostResult(False, reason, (Reply("h6-refused", {"reason": reason}, to),))


def _new_seat(
    session: Session, clock: Clock, box: SecretBox, match: H6Match, number: int, address: str
) -> str:
    """Seat ``number`` for ``address``; returns the placeholder of its ticket. The ticket is
    derived from the seat's id under the configured key (as a Flungo secret is), so the reply
    is stored with a placeholder the outbox fills at the moment of sending: no ticket in clear
    in any table, only its argon2 hash."""
    seat = H6Seat(match_id=match.id, number=number, address=address, ticket_hash="",
                  joined_at=clock.now())  # fmt: skip
    session.add(seat)
    session.flush()
    seat.ticket_hash = box.hash(box.derive(seat.id, 1, "h6"))
    return ticket_placeholder(seat.id)


def _deck(match: H6Match) -> Deck:
    return load_deck(match.deck)


def _seats(session: Session, match: H6Match) -> list[H6Seat]:
    return list(
        session.scalars(select(H6Seat).where(H6Seat.match_id == match.id).order_by(H6Seat.number))
    )


def _entries(session: Session, match: H6Match, over: int) -> dict[int, H6OverEntry]:
    rows = session.scalars(
        select(H6OverEntry).where(H6OverEntry.match_id == match.id, H6OverEntry.over == over)
    )
    return {e.seat: e for e in rows}


def open_match(
    session: Session,
    clock: Clock,
    box: SecretBox,
    *,
    address: str,
    seats: int,
    deck: str = "t20i",
    over_hours: int = 48,
    draw: Draw = secrets.randbits,
) -> PostResult:
    """TEST NEW <seats> [deck]: open a match; the opener takes seat 1 and gets the wire code."""
    if seats not in TARGETS:
        return _refuse(address, f"a Test Match has 2, 3 or 4 seats, not {seats}")
    if not 1 <= over_hours <= MAX_OVER_HOURS:
        return _refuse(address, f"an over's time is 1 to {MAX_OVER_HOURS} hours, not {over_hours}")
    if deck not in DECK_NAMES:
        return _refuse(address, f"there is no deck {deck!r}; the decks are {', '.join(DECK_NAMES)}")
    wire = wire_code(draw(30))
    while session.scalar(select(H6Match).where(H6Match.wire == wire)) is not None:
        wire = wire_code(draw(30))
    match = H6Match(
        wire=wire,
        deck=deck,
        build=load_deck(deck).build,
        seats=seats,
        over_hours=over_hours,
        created_at=clock.now(),
    )
    session.add(match)
    session.flush()
    ticket = _new_seat(session, clock, box, match, 1, address)
    ctx = {"wire": wire, "seat": 1, "seats": seats, "target": TARGETS[seats], "deck": deck,
           "ticket": ticket, "over_hours": over_hours}  # fmt: skip
    return PostResult(True, f"opened {wire}", (Reply("h6-test-joined", ctx, address),))


def join_match(
    session: Session, clock: Clock, box: SecretBox, *, address: str, wire: str,
    draw: Draw = secrets.randbits,
) -> PostResult:  # fmt: skip
    """TEST JOIN <wire>: take the next seat; the last seat to join starts over 1."""
    try:
        code = parse_wire(wire)
    except ValueError as exc:
        return _refuse(address, str(exc))
    match = session.scalar(select(H6Match).where(H6Match.wire == code))
    if match is None:
        return _refuse(address, f"there is no match {code}")
    seats = _seats(session, match)
    if any(s.address == address for s in seats):
        return _refuse(address, f"you already have a seat in {code}")
    if match.status == "won":
        champion = standings(session, match).champion
        who = "" if champion is None else f": seat {champion + 1} is champion"
        return _refuse(address, f"match {code} is finished{who}. Open a match of your own with "
                                "TEST NEW")  # fmt: skip
    if match.status != "open":
        return _refuse(address, f"match {code} is full: its {match.seats} seats are playing")
    number = len(seats) + 1
    ticket = _new_seat(session, clock, box, match, number, address)
    ctx = {"wire": code, "seat": number, "seats": match.seats, "target": TARGETS[match.seats],
           "deck": match.deck, "ticket": ticket, "over_hours": match.over_hours}  # fmt: skip
    replies = [Reply("h6-test-joined", ctx, address)]
    if number == match.seats:
        session.flush()
        replies += _start_over(session, clock, match, 1)
    return PostResult(True, f"seat {number} of {code}", tuple(replies))


def _start_over(session: Session, clock: Clock, match: H6Match, over: int) -> list[Reply]:
    match.status = "playing"
    match.over = over
    match.deadline_at = clock.now() + timedelta(hours=match.over_hours)
    match.reminded = False
    d = over_deal(_deck(match), wire_seed(match.wire), over)
    replies = []
    for seat in _seats(session, match):
        session.add(H6OverEntry(match_id=match.id, over=over, seat=seat.number,
                                updated_at=clock.now()))  # fmt: skip
        ctx = _over_ctx(match, seat.number, d, [], tz_name=_zone_of(session, seat.address))
        replies.append(Reply("h6-test-over", ctx, seat.address))
    return replies


def _zone_of(session: Session, address: str) -> str | None:
    """The zone ``address`` asked for with ZONE (stored on the player, whatever game he set it
    in), or None: the deadline is then shown in UTC alone."""
    return session.scalar(select(Player.time_zone).where(Player.address == address))


def _over_ctx(
    match: H6Match,
    seat: int,
    d: Deal,
    windows: list[frozenset[int]],
    since: int | None = None,
    *,
    tz_name: str | None,
) -> dict[str, Any]:
    """What an over mail (and its reminder) shows: the hand, the window, the answers it takes;
    the deadline in the reader's zone ``tz_name`` with UTC beside it, or in UTC."""
    hand = Hand()
    for w in windows:
        hand = hand.drop(w)
    deadline = format_deadline(match.deadline_at, tz_name) if match.deadline_at else ""
    done = hand.window >= len(CAPS)
    return {
        "wire": match.wire,
        "over": match.over,
        "seat": seat,
        "seats": match.seats,
        "rule": rule_text(d, d.rule),
        "window": hand.window + 1,
        "cap": CAPS[hand.window] if not done else 0,
        "hand": card_rows(d, hand.xi),
        "came_in": came_in(d, windows, len(windows) - 1 if since is None else since),
        "examples": [] if done else window_examples(hand, d),
        "deadline": deadline,
        "errors": [],
        "notes": [],
    }


def _authenticate(
    session: Session, box: SecretBox, address: str, wire: str, ticket: str
) -> tuple[H6Match, H6Seat] | PostResult:
    try:
        code = parse_wire(wire)
    except ValueError as exc:
        return _refuse(address, str(exc))
    match = session.scalar(select(H6Match).where(H6Match.wire == code))
    if match is None:
        return _refuse(address, f"there is no match {code}")
    for seat in _seats(session, match):
        if box.verify(seat.ticket_hash, ticket):
            return match, seat
    return _refuse(address, f"that is not a seat ticket of match {code}")


def over_reply(
    session: Session, clock: Clock, box: SecretBox, *, address: str, wire: str, ticket: str,
    text: str, draw: Draw = secrets.randbits,
) -> PostResult:  # fmt: skip
    """A seat's answer for the over in play: a window, ``name``, or the whole over at once."""
    found = _authenticate(session, box, address, wire, ticket)
    if isinstance(found, PostResult):
        return found
    match, seat = found
    if match.status == "won":
        return _refuse(address, f"match {match.wire} is finished: there is no over to play")
    if match.status != "playing":
        return _refuse(address, f"match {match.wire} is {match.status}: there is no over to play")
    entry = _entries(session, match, match.over)[seat.number]
    if entry.sealed:
        return _refuse(address, f"your over {match.over} is sealed; the reveal comes when all "
                                "have batted")  # fmt: skip
    d = over_deal(_deck(match), wire_seed(match.wire), match.over)
    played = _played(entry)
    try:
        read = read_answer(text, played, d)
    except OrderError as exc:
        ctx = _over_ctx(match, seat.number, d, played, len(played),
                        tz_name=_zone_of(session, address))  # fmt: skip
        ctx["errors"] = [str(exc)]
        return PostResult(False, "order error", (Reply("h6-test-over", ctx, address),))
    notes = [*([f"Your answer was {read.read_as}"] if read.read_as else []), *read.notes]
    decisions = Decisions(read.windows)
    entry.updated_at = clock.now()
    if not read.done:
        entry.decisions = decisions.to_text()
        entry.windows = len(read.windows)
        ctx = _over_ctx(match, seat.number, d, list(read.windows), len(played),
                        tz_name=_zone_of(session, address))  # fmt: skip
        ctx["notes"] = notes
        return PostResult(True, "window", (Reply("h6-test-over", ctx, address),))
    entry.how = read.how
    replies = _seal(match, entry, decisions, clock, draw, address, d)
    replies[0].ctx["notes"] = notes  # which reading was taken; what the instructions skipped
    replies += _maybe_reveal(session, clock, match)
    return PostResult(True, "sealed", tuple(replies))


def _played(entry: H6OverEntry) -> list[frozenset[int]]:
    """The windows a seat has answered so far (empty ones at the end kept: the canonical text
    leaves them off, ``entry.windows`` counts them)."""
    windows = list(Decisions.from_text(entry.decisions).windows)
    return windows + [frozenset[int]()] * (entry.windows - len(windows))


def _names(d: Deal, positions: Iterable[int]) -> list[str]:
    return [f"{d.cards[p].name} ({p})" for p in sorted(positions)]


def _decisions_text(d: Deal, decisions: Decisions) -> list[str]:
    """The over a seat played, window by window, by name."""
    lines = []
    for i, w in enumerate(decisions.windows, start=1):
        lines.append(f"window {i}: dropped {', '.join(_names(d, w))}" if w
                     else f"window {i}: dropped nobody")  # fmt: skip
    if len(decisions.windows) < len(CAPS):
        lines.append("then named the XI" if decisions.windows else "named the dealt XI")
    return lines


def _seal(
    match: H6Match, entry: H6OverEntry, decisions: Decisions, clock: Clock, draw: Draw,
    address: str | None, d: Deal | None = None,
) -> list[Reply]:  # fmt: skip
    entry.decisions = decisions.to_text()
    entry.sealed = True
    entry.nonce = f"{draw(128):032x}"
    entry.receipt = receipt(match.wire, match.over, entry.seat, decisions, entry.nonce)
    entry.updated_at = clock.now()
    if address is None:
        return []
    d = d or over_deal(_deck(match), wire_seed(match.wire), match.over)
    hand = play_over(decisions)
    ctx = {"wire": match.wire, "over": match.over, "seat": entry.seat, "receipt": entry.receipt,
           "decisions": entry.decisions or "the dealt XI", "notes": [],
           "played": _decisions_text(d, decisions), "xi": card_rows(d, hand.xi),
           "came_in": _names(d, (p for p in hand.xi if p >= FACE_UP)),
           "receipt_text": receipt_text(match.wire, match.over, entry.seat, decisions,
                                        "<nonce>"),
           "deadline_named": entry.how == "deadline"}  # fmt: skip
    return [Reply("h6-test-sealed", ctx, address)]


def _maybe_reveal(session: Session, clock: Clock, match: H6Match) -> list[Reply]:
    session.flush()
    entries = _entries(session, match, match.over)
    if not all(e.sealed for e in entries.values()):
        return []
    state = standings(session, match)
    last = state.overs[-1]
    d = over_deal(_deck(match), wire_seed(match.wire), match.over)
    revealed = []
    for n in sorted(entries):
        e = entries[n]
        decisions = Decisions.from_text(e.decisions)
        ok = verify(e.receipt or "", match.wire, match.over, n, decisions, e.nonce or "")
        xi = play_over(decisions).xi
        revealed.append({"seat": n, "decisions": e.decisions or "(the dealt XI)", "how": e.how,
                         "nonce": e.nonce, "receipt": e.receipt, "verified": ok,
                         "grade": f"{last.grades[n - 1] / 10:.1f}",
                         "played": _decisions_text(d, decisions),
                         "xi": ", ".join(_names(d, xi)),
                         "came_in": ", ".join(_names(d, (p for p in xi if p >= FACE_UP))),
                         "receipt_text": receipt_text(match.wire, match.over, n, decisions,
                                                      e.nonce or "")})  # fmt: skip
    judged = d.real_rule(d.rule)
    ctx = {
        "wire": match.wire,
        "over": match.over,
        "rule": last.rule.title,
        "judged_by": judged.title if last.rule is Rule.THE_TOSS else None,
        "seats": revealed,
        "winner": None if last.winner is None else last.winner + 1,
        "runs": last.runs,
        "standings": [
            {
                "seat": s.seat + 1,
                "wickets": s.wickets_taken,
                "runs": s.runs,
                "overs_won": s.overs_won,
            }
            for s in state.standings
        ],
        "target": state.target,
        "champion": None if state.champion is None else state.champion + 1,
        "replay_code": encode_match(state, _deck(match)),
    }
    seats = _seats(session, match)
    replies = [Reply("h6-test-reveal", {**ctx, "you": s.number}, s.address) for s in seats]
    if state.champion is not None:
        match.status = "won"
        match.deadline_at = None
    else:
        replies += _start_over(session, clock, match, match.over + 1)
    return replies


def standings(session: Session, match: H6Match | str) -> MatchState:
    """The match as far as every seat has batted, derived by replaying the sealed decisions."""
    if isinstance(match, str):
        found = session.scalar(select(H6Match).where(H6Match.wire == parse_wire(match)))
        if found is None:
            raise LookupError(f"there is no match {match}")
        match = found
    seats = _seats(session, match)
    overs = []
    for n in range(1, match.over + 1):
        entries = _entries(session, match, n)
        if len(entries) < match.seats or not all(e.sealed for e in entries.values()):
            break
        overs.append([Decisions.from_text(entries[s].decisions) for s in range(1, match.seats + 1)])
    names = [s.address for s in seats] + [
        f"Seat {i}" for i in range(len(seats) + 1, match.seats + 1)
    ]
    return replay_match(_deck(match), wire_seed(match.wire), names, overs)


def reminder_at(match: H6Match) -> datetime | None:
    """When the over in play's reminder falls due (a quarter of its time before the deadline),
    or None when the match has no over in play."""
    if match.status != "playing" or match.deadline_at is None:
        return None
    return match.deadline_at - timedelta(hours=match.over_hours / 4)


def tick_match(
    session: Session, clock: Clock, match: H6Match, draw: Draw = secrets.randbits
) -> list[Reply]:
    """The over in play's deadline (when past) or its reminder (when due and not yet sent)."""
    now = clock.now()
    if match.status != "playing" or match.deadline_at is None:
        return []
    deadline = match.deadline_at
    entries = _entries(session, match, match.over)
    seats = {s.number: s for s in _seats(session, match)}
    replies: list[Reply] = []
    if now >= deadline:
        for n, e in entries.items():
            if not e.sealed:
                # Law 3.03: the XI is named as held — the dealt XI if nothing was sent.
                e.how = "deadline"
                replies += _seal(match, e, Decisions.from_text(e.decisions), clock, draw,
                                 seats[n].address)  # fmt: skip
        replies += _maybe_reveal(session, clock, match)
    elif not match.reminded and now >= deadline - timedelta(hours=match.over_hours / 4):
        match.reminded = True
        d = over_deal(_deck(match), wire_seed(match.wire), match.over)
        for n, e in entries.items():
            if not e.sealed:
                ctx = _over_ctx(match, n, d, _played(e), len(_played(e)),
                                tz_name=_zone_of(session, seats[n].address))  # fmt: skip
                replies.append(Reply("h6-test-reminder", ctx, seats[n].address))
    return replies


def tick(session: Session, clock: Clock, draw: Draw = secrets.randbits) -> PostResult:
    """Reminders and deadlines of every match: returns the replies it makes."""
    replies: list[Reply] = []
    playing = session.scalars(select(H6Match).where(H6Match.status == "playing"))
    for match in list(playing):
        replies += tick_match(session, clock, match, draw)
    return PostResult(True, f"{len(replies)} replies", tuple(replies))


def career(session: Session, address: str) -> CareerLine:
    """Law 5.06: a player's runs, wins, overs and wickets over every match, by replay."""
    from engine.hitforsix.testmatch import career as engine_career

    ids = session.scalars(select(H6Seat.match_id).where(H6Seat.address == address))
    matches = [session.get(H6Match, i) for i in ids]
    states = [standings(session, m) for m in matches if m is not None and m.status != "open"]
    return engine_career(states).get(address, CareerLine(address))
