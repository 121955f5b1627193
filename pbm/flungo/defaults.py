"""What pbm will play if a team sends nothing more: its standing orders, settled by the
engine's defaults (the seed's: the default XI and order, normal style, reviews on every lbw,
the default plan, the default helper-point spend).

Every acknowledgement, reminder and turn report ends with these lines, written in the order
language's canonical form so that a player can copy, change and send them back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import canonical
from engine.flungo.orders import MatchOrders, Orders
from engine.flungo.plan import select
from engine.flungo.squad import Team
from pbm.db.models import Seat
from pbm.flungo.standing import current_orders, read_standing

__all__ = ["WillPlay", "standing_orders", "will_play", "will_play_for_seat"]


@dataclass(frozen=True, slots=True)
class WillPlay:
    """The orders in force: ``lines`` (canonical, to copy and send back), ``notes`` on what
    the defaults decide, the standing orders' ``version`` (None: the defaults alone) and what
    the defaults fixed or filled in (``fixes``)."""

    lines: tuple[str, ...]
    notes: tuple[str, ...]
    version: int | None
    fixes: tuple[str, ...]
    default_plan: bool
    default_helpers: bool


def standing_orders(text: str | None, team: Team, fmt: str) -> Orders | None:
    """Canonical standing orders read against ``team`` (None when there are none)."""
    if not text or not text.strip():
        return None
    return read_standing(text, team, fmt).orders


def will_play(team: Team, orders: Orders | None, fmt: str, version: int | None = None) -> WillPlay:
    """What ``team`` plays on ``orders`` (or on nothing): XI, captain, keeper, toss, order and
    styles settled by :func:`engine.flungo.plan.select`, its plan, reviews and helper spend."""
    match = orders.match if orders is not None else None
    sel, fixes = select(team, match)
    spec = FORMATS[Format(fmt)]
    settled = replace(
        match or MatchOrders(),
        xi=sel.xi,
        captain=sel.captain,
        wicketkeeper=sel.wicketkeeper,
        toss=sel.toss,
        batting_order=sel.xi,
        styles=tuple(sorted((n, s) for n, s in sel.styles if s.value != "normal")),
    )
    helpers = orders.helpers if orders is not None else None
    lines = canonical(Orders(match=settled, helpers=helpers)).splitlines()
    notes: list[str] = []
    if not settled.bowling_plan:
        notes.append(
            f"bowling: the default plan (the best bowlers for the pitch, at most "
            f"{spec.max_overs_per_bowler} overs each, never {spec.max_consecutive + 1} in a row)"
        )
    if settled.batting_reviews is None and settled.bowling_reviews is None:
        notes.append("reviews: on every lbw until both are used (the default)")
    if helpers is None:
        notes.append(
            "helper points: the default (treat the injured, then +1 fielding for the six "
            "lowest fielders)"
        )
    return WillPlay(
        tuple(lines),
        tuple(notes),
        version,
        tuple(fixes),
        not settled.bowling_plan,
        helpers is None,
    )


def will_play_for_seat(
    session: Session,
    seat: Seat,
    team: Team,
    fmt: str,
    latest: tuple[int, str] | bool | None = True,
) -> WillPlay:
    """:func:`will_play` on the seat's standing orders (the latest version; ``latest`` gives
    its (version, text) when the caller has it already, None for none)."""
    if latest is True or latest is False:
        row = current_orders(session, seat)
        latest = (row.version, row.text) if row is not None else None
    orders = standing_orders(latest[1] if latest else None, team, fmt)
    return will_play(team, orders, fmt, latest[0] if latest else None)
