"""The other teams' names in a competition, as a naming mail's look-alike check reads them.

A seat's squad is one JSON column (the team's name and eighteen players, some two kilobytes).
PostgreSQL reads the name out of it by path. SQLite's JSON functions parse the whole text of
every row for it, which for a league of 64 cost most of a naming mail's own statements; but
the text is written by one serializer (``Team.to_json``, dumped as given), which puts the name
first, so the name is read off the head of the text with the standard library's JSON decoder.
A head that is not that shape (or a name longer than the head) sends the whole read back to
SQLite's ``json_extract``: the answer is the same either way, only its cost differs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from pbm.db.models import Seat, table_of
from pbm.db.session import is_postgres

__all__ = ["other_team_names"]

_SEATS = table_of(Seat)
_WHERE = (
    _SEATS.c.competition_id == bindparam("b_comp"),
    _SEATS.c.id != bindparam("b_seat"),
)

#: Every other seat's number and team name, by number, read by path from the JSON.
_OTHER_NAMES = (
    select(_SEATS.c.number, _SEATS.c.team["name"].as_string())
    .where(*_WHERE)
    .order_by(_SEATS.c.number)
)

#: How much of each squad's text SQLite hands over: a name of 40 characters, each written
#: as a \\u escape, fits, with the key before it.
_HEAD = 320
_OTHER_HEADS = (
    select(_SEATS.c.number, func.substr(_SEATS.c.team, 1, _HEAD))
    .where(*_WHERE)
    .order_by(_SEATS.c.number)
)
_PREFIX = '{"name": '
_DECODER = json.JSONDecoder()


def other_team_names(session: Session, competition_id: int, seat_id: int) -> list[tuple[int, str]]:
    """(seat number, team name) of every seat of the competition but ``seat_id``, by number."""
    params = {"b_comp": competition_id, "b_seat": seat_id}
    if not is_postgres(session):
        names = _from_heads(session.execute(_OTHER_HEADS, params))
        if names is not None:
            return names
    return [(n, name) for n, name in session.execute(_OTHER_NAMES, params)]


def _from_heads(rows: Iterable[tuple[Any, Any]]) -> list[tuple[int, str]] | None:
    """The names off the heads of the squads' texts; None if any head is not a name first."""
    out = []
    for number, head in rows:
        if not isinstance(head, str) or not head.startswith(_PREFIX):
            return None
        try:
            name, end = _DECODER.raw_decode(head, len(_PREFIX))
        except ValueError:  # cut inside the name: the head was too short for it
            return None
        if not isinstance(name, str) or head[end : end + 1] not in (",", "}"):
            return None
        out.append((int(number), name))
    return out
