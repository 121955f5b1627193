"""How each team's manager wants the zine: inline (the default: the issue as text and HTML
alternatives, linking to the archive's copy and its PDF when one is served) or with the PDF
attached (``seats.zine_pdf``, per team). ``ZINE ATTACH`` and ``ZINE INLINE`` by mail, and
``pbm zine delivery ADDRESS attach|inline``, set it; :mod:`pbm.games.flungo.zine.deliver`
reads it. ``link`` is the older name of ``inline`` and still understood.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbm.db.models import Player, Seat

__all__ = ["DELIVERIES", "set_zine_delivery", "wants_pdf"]

DELIVERIES = ("attach", "inline", "link")


def wants_pdf(delivery: str) -> bool:
    """Whether ``delivery`` (one of :data:`DELIVERIES`) attaches the PDF; ValueError for
    anything else."""
    if delivery not in DELIVERIES:
        raise ValueError(f"zine delivery is 'attach' or 'inline', not {delivery!r}")
    return delivery == "attach"


def set_zine_delivery(session: Session, address: str, delivery: str) -> int:
    """Record how ``address`` wants the zine in every competition it plays; returns how many
    teams that is. ``ValueError`` for an unknown choice or an address with no team."""
    pdf = wants_pdf(delivery)
    seats = session.scalars(
        select(Seat)
        .join(Player, Player.id == Seat.player_id)
        .where(func.lower(Player.address) == address.lower())
    ).all()
    if not seats:
        raise ValueError(f"no player with address {address!r}")
    for seat in seats:
        seat.zine_pdf = pdf
    return len(seats)
