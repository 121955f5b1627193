"""A seat's standing orders for its next match, and the flags: sentences the parser could not
read, which the GM reads and enters in canonical form.

Standing orders are stored as canonical text (``canonical`` of the accepted orders without the
naming), one version per accepted mail; the latest stands. A GM's resolution is appended as a
new version, so it comes after the player's own orders and wins where they conflict (later
orders win, as in one mail).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import ColumnElement, CursorResult, Select, bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from engine.errors import OrderError
from engine.flungo.formats import Format
from engine.flungo.language import (
    NotUnderstood,
    OrderContext,
    ParsedOrders,
    Reader,
    canonical,
    parse_orders,
)
from engine.flungo.merge import Merged, merge_orders
from engine.flungo.orders import Orders
from engine.flungo.squad import Team
from pbm.core.clock import Clock
from pbm.db.kept import ShelfOf, kept
from pbm.db.models import Competition, Flag, FlagStatus, OrdersVersion, Seat, table_of
from pbm.games.flungo.grammar import order_reader

__all__ = [
    "FLAG_STATUSES",
    "MailMerge",
    "MailOrders",
    "Resolution",
    "Standing",
    "carries_match_orders",
    "current_orders",
    "latest_versions",
    "merge_mail",
    "open_flags",
    "read_mail_orders",
    "read_standing",
    "resolve_flag",
    "standing_of",
    "store_orders",
    "supersede_flags",
    "without_naming",
]

FLAG_STATUSES = tuple(s.value for s in FlagStatus)


@dataclass(frozen=True, slots=True)
class MailOrders:
    """A mail's orders: ``parsed`` as read, the ``errors`` that block it (a sentence not
    understood is flagged for the GM instead, so it blocks nothing) and those sentences."""

    parsed: ParsedOrders
    errors: tuple[OrderError, ...]
    not_understood: tuple[NotUnderstood, ...]


#: The App's readings of stored standing texts, by text, squad and format.
_STANDINGS: ShelfOf[ParsedOrders] = ShelfOf("flungo.standing", 512)


def read_standing(text: str, team: Team, fmt: str, session: Session | None = None) -> ParsedOrders:
    """A stored orders text read against ``team``. With a ``session``, read with its App's
    Reader and kept by its App (:mod:`pbm.db.kept`): a seat's standing text is read again by
    each of its mails, by the preview of what it will play and by its reports, and reads the
    same each time (the reading is a pure function of text, squad and format, and
    immutable). Without one (a stage resolved from its frozen inputs alone), read afresh."""
    if session is None:
        return parse_orders(text, team, Format(fmt))
    reader = order_reader(session)
    return (
        kept(session)
        .shelf(_STANDINGS)
        .get((text, team, fmt), None, lambda: parse_orders(text, team, Format(fmt), reader=reader))
    )


def read_mail_orders(
    text: str,
    team: Team,
    fmt: str,
    context: OrderContext | None = None,
    reader: Reader | None = None,
) -> MailOrders:
    """Read a mail of orders for ``team`` (with the App's ``reader``, if given), splitting
    the sentences for the GM from the errors."""
    parsed = parse_orders(text, team, Format(fmt), context=context, reader=reader)
    flagged = {n.line for n in parsed.not_understood}
    errors = tuple(e for e in parsed.errors if e.span is None or e.span.line not in flagged)
    return MailOrders(parsed, errors, parsed.not_understood)


def without_naming(orders: Orders) -> Orders:
    """The orders for the match (and between matches), without the squad naming."""
    return replace(orders, naming=None)


def carries_match_orders(mail: MailOrders) -> bool:
    """Whether the mail says anything beyond naming (so it is a new version of the orders)."""
    o = mail.parsed.orders
    return bool(o.match or o.helpers or o.extras or mail.not_understood)


class Standing(NamedTuple):
    """A seat's standing orders as a mail reads them: the version and its canonical text
    (the two columns, not the row: loading an object to read two columns cost more than
    the statement)."""

    version: int
    text: str


def current_orders(session: Session, seat: Seat) -> OrdersVersion | None:
    """The seat's standing orders (the latest version), if any."""
    return session.scalars(_CURRENT_ORDERS, {"b_seat": seat.id}).first()


def standing_of(session: Session, seat: Seat) -> Standing | None:
    """The version and text of the seat's standing orders, if any (:func:`current_orders`'s
    two columns)."""
    row = session.execute(_CURRENT_STANDING, {"b_seat": seat.id}).first()
    return Standing(row[0], row[1]) if row is not None else None


def latest_versions(session: Session, comp: Competition) -> dict[int, tuple[int, str]]:
    """Seat id → (version, text) of its standing orders, for all of ``comp``'s seats in one
    query (the turn's freeze and the turn reports read them all)."""
    rows = session.execute(_LATEST_OF_COMPETITION, {"b_comp": comp.id})
    return {seat_id: (version, text) for seat_id, version, text in rows}


def _latest(*where: ColumnElement[bool]) -> Select[OrdersVersion]:
    """The one query for standing orders: of each seat ``where`` picks, its newest version."""
    newest = (
        select(OrdersVersion.seat_id, func.max(OrdersVersion.version).label("v"))
        .join(Seat, Seat.id == OrdersVersion.seat_id)
        .where(*where)
        .group_by(OrdersVersion.seat_id)
        .subquery()
    )
    return select(OrdersVersion).join(
        newest,
        (OrdersVersion.seat_id == newest.c.seat_id) & (OrdersVersion.version == newest.c.v),
    )


#: Built once, as are the insert and the superseding below: every orders mail runs them, and
#: building a statement costs about what running it does.
_CURRENT_ORDERS = _latest(Seat.id == bindparam("b_seat"))
_CURRENT_STANDING = _CURRENT_ORDERS.with_only_columns(OrdersVersion.version, OrdersVersion.text)
_LATEST_OF_COMPETITION = _latest(Seat.competition_id == bindparam("b_comp")).with_only_columns(
    OrdersVersion.seat_id, OrdersVersion.version, OrdersVersion.text
)


def store_orders(
    session: Session,
    clock: Clock,
    seat: Seat,
    text: str,
    *,
    inbound_id: int | None = None,
    flag_id: int | None = None,
    latest: Standing | OrdersVersion | bool | None = True,
) -> Standing:
    """Store ``text`` (canonical) as the seat's next version of its standing orders
    (``latest``: the version that stands, when the caller has read it; True: read it here);
    the version stored."""
    if latest is True or latest is False:
        latest = standing_of(session, seat)
    values: dict[str, Any] = {
        "seat_id": seat.id,
        "version": (latest.version if latest else 0) + 1,
        "text": text,
        "source": "gm" if flag_id is not None else "mail",
        "inbound_id": inbound_id,
        "flag_id": flag_id,
        "created_at": clock.now(),
    }
    # A Core insert, run at once (every orders mail stores one): the unit of work's flush of
    # one new object cost more than the insert, and so did making the object to return.
    session.execute(_INSERT_ORDERS, values)
    return Standing(values["version"], text)


_INSERT_ORDERS = insert(table_of(OrdersVersion))


def supersede_flags(session: Session, seat: Seat, now: datetime) -> int:
    """Close the seat's open flags: a new mail replaced the orders they belonged to."""
    # One statement, no objects: nearly every orders mail asks, and nearly always none is open.
    result = session.execute(_SUPERSEDE, {"b_seat": seat.id, "b_now": now})
    return int(cast(CursorResult[Any], result).rowcount)


#: On the table, not the class: the ORM's bulk update (its "fetch" of the rows to keep loaded
#: flags in step) cost more than the statement, and its one caller, an orders mail, loads no
#: flag before it.
_SUPERSEDE = (
    update(table_of(Flag))
    .where(
        table_of(Flag).c.seat_id == bindparam("b_seat"),
        table_of(Flag).c.status == FlagStatus.OPEN,
    )
    .values(status=FlagStatus.SUPERSEDED, resolved_at=bindparam("b_now"))
)


def open_flags(session: Session, competition_id: int | None = None) -> list[Flag]:
    """Open flags, oldest first, of one competition or of all."""
    q = select(Flag).where(Flag.status == FlagStatus.OPEN)
    if competition_id is not None:
        q = q.where(Flag.competition_id == competition_id)
    return list(session.scalars(q.order_by(Flag.id)))


@dataclass(frozen=True, slots=True)
class Resolution:
    """What the GM's canonical text became: the line(s) read, or the errors refusing it."""

    errors: tuple[str, ...]
    lines: str = ""
    version: int = 0


def resolve_flag(
    session: Session, clock: Clock, flag: Flag, text: str, team: Team, fmt: str
) -> Resolution:
    """Read the GM's ``text`` for ``flag`` against ``team``; if it reads without error,
    append it to the seat's standing orders and mark the flag resolved."""
    seat = session.get(Seat, flag.seat_id)
    assert seat is not None
    latest = standing_of(session, seat)
    reader = order_reader(session)
    standing = read_standing(latest.text if latest else "", team, fmt, session).orders
    context = OrderContext(standing=standing.match)
    mine = parse_orders(text, team, Format(fmt), context=context, reader=reader)
    if mine.errors:
        return Resolution(tuple(str(e) for e in mine.errors))
    if mine.orders.naming is not None:
        return Resolution(("a flag resolves to match orders, not to squad names",))
    lines = canonical(without_naming(mine.orders))
    if not lines.strip():
        return Resolution(("no order in the text",))
    # The GM's reading adds to what stands: its conditional orders come after the player's
    # (so they win a conflict, as a later line does); any other part it gives replaces that part.
    merged = merge_orders(standing, mine, add=True).orders
    text_now = canonical(without_naming(merged))
    joined = parse_orders(text_now, team, Format(fmt), reader=reader)
    if joined.errors:
        return Resolution(tuple(f"with the standing orders: {e}" for e in joined.errors))
    row = store_orders(session, clock, seat, text_now, flag_id=flag.id, latest=latest)
    flag.status = FlagStatus.RESOLVED
    flag.resolution = lines
    flag.resolved_at = clock.now()
    return Resolution((), lines, row.version)


@dataclass(frozen=True, slots=True)
class MailMerge:
    """A mail read against the squad as it stands and merged into the standing orders.

    ``merged.orders.naming`` holds only the names the mail gave without error (by slot);
    ``standing`` is the canonical text of the match orders that stand after the mail, and
    ``changed`` whether the mail gave any part of them (so a new version is stored).
    """

    mail: MailOrders
    merged: Merged
    standing: str
    changed: bool


def merge_mail(
    text: str,
    current: Team,
    base: Team,
    fmt: str,
    latest: Standing | OrdersVersion | None,
    session: Session | None = None,
) -> MailMerge:
    """Read ``text`` against ``current`` (placeholders of ``base`` still name their slots),
    with the App's Reader when given its ``session``, and merge it part by part into the
    orders of ``latest`` (see ``engine.flungo.merge``)."""
    reader = order_reader(session) if session is not None else None
    before = read_standing(latest.text, current, fmt, session).orders if latest else Orders()
    context = OrderContext(standing=before.match, former_names=tuple(p.name for p in base.players))
    mail = read_mail_orders(text, current, fmt, context, reader)
    merged = merge_orders(without_naming(before), mail.parsed)
    changed = bool(mail.not_understood) or any(
        not r.part.startswith("name ") and r.part != "team name" and r.status != "blocked"
        for r in merged.parts
    )
    return MailMerge(mail, merged, canonical(without_naming(merged.orders)), changed)
