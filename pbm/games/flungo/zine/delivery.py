"""How each player wants the zine: ``zine_delivery`` (a column on ``players``) is ``attach``
(the default: the issue as text and HTML alternatives with the PDF attached) or ``link`` (the
same text and HTML with a link to the issue in the archive, no attachment). The ZINE mail
command and ``pbm zine delivery ADDRESS attach|link`` set it; :mod:`pbm.games.flungo.zine.deliver`
reads it.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbm.db.models import Player

__all__ = ["DELIVERIES", "set_zine_delivery"]

DELIVERIES = ("attach", "link")


def set_zine_delivery(session: Session, address: str, delivery: str) -> None:
    """Record how ``address`` wants the zine (``attach`` or ``link``); ``ValueError`` for
    anything else or an unknown address."""
    if delivery not in DELIVERIES:
        raise ValueError(f"zine delivery is 'attach' or 'link', not {delivery!r}")
    player = session.scalars(select(Player).where(Player.address == address.lower())).first()
    if player is None:
        player = session.scalars(select(Player).where(Player.address == address)).first()
    if player is None:
        raise ValueError(f"no player with address {address!r}")
    player.zine_delivery = delivery
