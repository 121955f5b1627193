"""Competitions and seats: create, find, join. Pure database work, no mail.

Bad settings and taken codes raise :class:`~pbm.core.errors.GameError`; a missing seat raises
:class:`~pbm.core.errors.NotFound`.
"""

from __future__ import annotations

import functools
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, insert, literal_column, select, update
from sqlalchemy.orm import Session

from engine.dice import Dice, seed_from_text
from engine.flungo.formats import Format
from engine.flungo.squad import Team, generate_squad
from pbm.core.clock import Clock
from pbm.core.errors import GameError, NotFound
from pbm.core.events import record
from pbm.db.models import (
    Competition,
    CompetitionKind,
    CompetitionStatus,
    Player,
    Seat,
    Standby,
    table_of,
)
from pbm.secrets.seats import SecretBox, secret_placeholder

__all__ = [
    "CODE_RE",
    "JoinResult",
    "base_squad",
    "create_competition",
    "find_competition",
    "join",
    "placeholder_team_name",
    "record_event",
    "reissue_secret",
]

CODE_RE = re.compile(r"^[A-Z][A-Z0-9]{1,11}$")
MAX_TEAMS = 1024  # "the postal game is for any number of players"


#: The audit log's one writer (:func:`pbm.core.events.record`), under the name the game's
#: modules import it by.
record_event = record


def validate_competition(
    code: str, fmt: str, teams: int, kind: str = "league", schedule: str | None = None
) -> str | None:
    """Why these settings are wrong, or None."""
    if kind not in {k.value for k in CompetitionKind}:
        return f"kind {kind!r}: choose one of {', '.join(k.value for k in CompetitionKind)}"
    if kind == CompetitionKind.MINI and teams != 4:
        return f"teams {teams}: the mini-tournament is for four teams"
    if schedule is not None:
        from pbm.games.flungo.schedule import parse_schedule

        try:
            parse_schedule(schedule)
        except ValueError as exc:
            return f"schedule {schedule!r}: {exc}"
    if not CODE_RE.match(code):
        return f"code {code!r}: use 2-12 capital letters and digits, starting with a letter"
    if fmt not in {f.value for f in Format}:
        return f"format {fmt!r}: choose one of {', '.join(f.value for f in Format)}"
    if not 2 <= teams <= MAX_TEAMS:
        return f"teams {teams}: a competition has 2 to {MAX_TEAMS} teams"
    return None


def create_competition(
    session: Session,
    clock: Clock,
    *,
    code: str,
    name: str,
    fmt: str,
    teams: int,
    naming_deadline: datetime,
    seed: str | None = None,
    kind: str = "league",
    schedule: str | None = None,
    settings: dict[str, Any] | None = None,
) -> Competition:
    """A new open Flungo competition; raises ``GameError`` on bad settings or a taken code."""
    code = code.upper()
    problem = validate_competition(code, fmt, teams, kind, schedule)
    if problem:
        raise GameError(problem)
    if find_competition(session, code) is not None:
        raise GameError(f"code {code!r} is already taken")
    from pbm.games.flungo.house_rules import check_settings

    check_settings(settings or {}, fmt)
    comp = Competition(
        code=code,
        name=" ".join(name.split())[:120] or code,
        game="flungo",
        format=fmt,
        teams=teams,
        naming_deadline=naming_deadline,  # its column stores the instant as UTC, or refuses it
        seed=seed or secrets.token_hex(16),
        status=CompetitionStatus.OPEN,
        state={},
        created_at=clock.now(),
        kind=kind,
        schedule=schedule,
        settings=settings or None,
        issue=0,
    )
    session.add(comp)
    session.flush()
    record_event(session, clock, "competition-created", comp, code=code, teams=teams)
    return comp


def find_competition(session: Session, code: str) -> Competition | None:
    """The competition with this code (any case), or None."""
    return session.scalars(select(Competition).where(Competition.code == code.upper())).first()


def placeholder_team_name(number: int) -> str:
    """The name a team carries until its manager names it."""
    return f"Team {number}"


def base_squad(comp: Competition, number: int) -> Team:
    """Seat ``number``'s squad as generated: deterministic from the competition seed."""
    return _generated_squad(comp.seed, number)


@functools.lru_cache(maxsize=4096)
def _generated_squad(seed: str, number: int) -> Team:
    # A pure function of its arguments returning a frozen Team: every naming mail needs the
    # seat's base squad, and rolling it again each time was a visible part of that mail.
    dice = Dice(seed_from_text(seed)).derive(f"seat:{number}")
    return generate_squad(dice, placeholder_team_name(number))


@dataclass(frozen=True, slots=True)
class JoinResult:
    """``outcome``: joined, already, full, closed (or offered: the standby list offered the
    address a team, which it takes instead, when ``offers`` asked); the seat taken (or
    already held): its id, number and squad JSON. ``secret`` is a placeholder (see auth)."""

    outcome: str
    seat_id: int | None = None
    number: int = 0
    team: dict[str, Any] | None = None
    secret: str = ""
    squad: Team | None = None  # the squad as rolled, for a reply (a seat just taken)

    def seat(self, session: Session) -> Seat | None:
        """The seat as a model, for a caller that changes it (the GM's house team)."""
        return None if self.seat_id is None else session.get(Seat, self.seat_id)


def naming_open(comp: Competition, now: datetime) -> bool:
    """Whether squads may still be named."""
    open_ = comp.status in (CompetitionStatus.OPEN, CompetitionStatus.FULL)
    return open_ and now < comp.naming_deadline


def join(
    session: Session,
    clock: Clock,
    box: SecretBox,
    comp: Competition,
    address: str,
    after_full: timedelta | None = None,
    *,
    offers: bool = False,
) -> JoinResult:
    """Give ``address`` the next seat, unless the competition is full or closed. When this
    seat fills it and ``after_full`` is set, the naming deadline (and so the draw) moves to
    that long from now, if that is earlier. ``offers``: first, an address the standby list
    offered a team to is answered "offered" (it takes that team, not a new seat)."""
    address = address.lower()
    # Core statements on the tables, built once: the ORM's loads and flushes of the player
    # and the seat were most of a JOIN's cost.
    found = session.execute(_HELD, {"b_comp": comp.id, "b_address": address}).one()
    if offers and found.offered is not None:
        return JoinResult("offered")
    player_id = found.player_id
    if found.seat_id is not None:
        return JoinResult("already", found.seat_id, found.number, found.team)
    if not naming_open(comp, clock.now()):
        return JoinResult("closed")
    taken = found.taken or 0
    if taken >= comp.teams:
        return JoinResult("full")
    if player_id is None:
        player_id = session.execute(
            _NEW_PLAYER, {"address": address, "created_at": clock.now()}
        ).scalar_one()
    number = taken + 1
    squad = base_squad(comp, number)
    team = squad.to_json()
    seat = {
        "competition_id": comp.id,
        "player_id": player_id,
        "number": number,
        "secret_hash": "",
        "secret_version": 1,
        "team": team,
        "named": False,
        "naming_version": 0,
        "joined_at": clock.now(),
    }
    seat_id = session.execute(_NEW_SEAT, seat).scalar_one()
    # The id is known only now; the secret derives from it and is hashed at once.
    secret_hash = box.hash(box.derive(seat_id, 1))
    session.execute(_SEAT_HASH, {"b_id": seat_id, "secret_hash": secret_hash})
    if number >= comp.teams:
        comp.status = CompetitionStatus.FULL
    record_event(session, clock, "join", comp, seat=number, address=address)
    if comp.status == CompetitionStatus.FULL:
        record_event(session, clock, "competition-full", comp, teams=comp.teams)
        if after_full is not None:  # the draw comes this long after the last seat is taken
            comp.naming_deadline = min(comp.naming_deadline, clock.now() + after_full)
    return JoinResult("joined", seat_id, number, team, secret_placeholder(seat_id, 1), squad)


_PLAYERS, _SEATS, _STANDBYS = table_of(Player), table_of(Seat), table_of(Standby)
#: The seats taken in the competition, the team the standby list offered the address (if
#: any), and the address's player and its seat there if it has them: one row always (the
#: players are joined to a row of nothing), one statement where a JOIN ran three.
_ASKED = select(literal_column("1").label("one")).subquery("asked")
_HELD = select(
    select(func.count())
    .where(_SEATS.c.competition_id == bindparam("b_comp"))
    .scalar_subquery()
    .label("taken"),
    select(_STANDBYS.c.offered_seat)
    .where(
        _STANDBYS.c.competition_id == bindparam("b_comp"),
        _STANDBYS.c.address == bindparam("b_address"),
        _STANDBYS.c.offered_seat.is_not(None),
    )
    .limit(1)
    .scalar_subquery()
    .label("offered"),
    _PLAYERS.c.id.label("player_id"),
    _SEATS.c.id.label("seat_id"),
    _SEATS.c.number,
    _SEATS.c.team,
).select_from(
    _ASKED.outerjoin(_PLAYERS, _PLAYERS.c.address == bindparam("b_address")).outerjoin(
        _SEATS,
        (_SEATS.c.player_id == _PLAYERS.c.id) & (_SEATS.c.competition_id == bindparam("b_comp")),
    )
)
_NEW_PLAYER = insert(_PLAYERS).returning(_PLAYERS.c.id)
_NEW_SEAT = insert(_SEATS).returning(_SEATS.c.id)
_SEAT_HASH = update(_SEATS).where(_SEATS.c.id == bindparam("b_id"))


def reissue_secret(
    session: Session, clock: Clock, box: SecretBox, comp: Competition, number: int
) -> tuple[Seat, str]:
    """Give seat ``number`` a new secret (the old one stops working); returns the seat and the
    new secret's placeholder for the mail that carries it. Raises ``NotFound`` if no seat."""
    seat = session.scalars(
        select(Seat).where(Seat.competition_id == comp.id, Seat.number == number)
    ).first()
    if seat is None:
        raise NotFound(f"{comp.code} has no team {number}")
    seat.secret_version += 1
    seat.secret_hash = box.hash(box.derive(seat.id, seat.secret_version))
    record_event(session, clock, "secret-reissued", comp, seat=number)
    return seat, secret_placeholder(seat.id, seat.secret_version)
