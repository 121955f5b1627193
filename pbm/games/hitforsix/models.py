"""Hit for Six's tables: Test by Post matches and The Averages' book.

No table holds a score. A match keeps its wire code and each seat's decisions (law 9.02: the
standings are derived by replay); the book keeps a name, the hash of the number it invented
for the poster's device, and the codes posted (law 8.02: the tallies are derived by replay).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pbm.db.models import Base

__all__ = ["H6Averager", "H6Match", "H6OverEntry", "H6Seat", "H6Statement"]


class H6Match(Base):
    """A Test by Post match: its wire code, deck and build, seats and the over in play.

    ``status``: open (seats still joining), playing, won. ``over`` is the over in play (from 1);
    ``deadline_at`` is its deadline (None until the match starts).
    """

    __tablename__ = "h6_matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    wire: Mapped[str] = mapped_column(String(6), unique=True)
    deck: Mapped[str] = mapped_column(String(16))
    build: Mapped[str] = mapped_column(String(16))
    seats: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="open")
    over: Mapped[int] = mapped_column(Integer, default=0)
    over_hours: Mapped[int] = mapped_column(Integer, default=48)
    deadline_at: Mapped[datetime | None]
    reminded: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime]


class H6Seat(Base):
    """A seat of a match: the player's address (for replies and law 5.06's career) and the
    argon2 hash of its seat ticket."""

    __tablename__ = "h6_seats"
    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        UniqueConstraint("match_id", "address"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("h6_matches.id"))
    number: Mapped[int] = mapped_column(Integer)  # from 1
    address: Mapped[str] = mapped_column(String(320))
    ticket_hash: Mapped[str] = mapped_column(String(200))
    joined_at: Mapped[datetime]


class H6OverEntry(Base):
    """One seat's over: the decisions so far (canonical text), whether it is sealed, and the
    receipt with the nonce that opens it. ``how``: window, instructions, name or deadline."""

    __tablename__ = "h6_over_entries"
    __table_args__ = (UniqueConstraint("match_id", "over", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("h6_matches.id"))
    over: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # from 1
    decisions: Mapped[str] = mapped_column(String(64), default="")
    windows: Mapped[int] = mapped_column(Integer, default=0)  # windows answered so far
    sealed: Mapped[bool] = mapped_column(default=False)
    how: Mapped[str] = mapped_column(String(16), default="window")
    nonce: Mapped[str | None] = mapped_column(String(32))
    receipt: Mapped[str | None] = mapped_column(String(64))
    updated_at: Mapped[datetime]


class H6Averager(Base):
    """A name in The Averages and the hash of the number the book invented for its device.

    ``name_key`` is the name folded (case, spacing), so names are first come, first served
    whatever their spelling (law 8.02)."""

    __tablename__ = "h6_averagers"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    number_hash: Mapped[str] = mapped_column(String(200))


class H6Statement(Base):
    """One posted daily: the code, for a deck and a day; its tally is derived by replay.

    No time is kept: posting order is the row order, which is all a tie needs."""

    __tablename__ = "h6_statements"
    __table_args__ = (UniqueConstraint("averager_id", "day", "deck"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    averager_id: Mapped[int] = mapped_column(ForeignKey("h6_averagers.id"))
    day: Mapped[str] = mapped_column(String(10), index=True)
    deck: Mapped[str] = mapped_column(String(16))
    code: Mapped[str] = mapped_column(String(32))
