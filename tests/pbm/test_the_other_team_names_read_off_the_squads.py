"""The other teams' names a naming mail's look-alike check reads: on SQLite off the head of
each squad's JSON text, on PostgreSQL by path; the same names either way, whatever they hold
(quotes, backslashes, letters written as escapes, a name longer than the head), and a squad
whose text does not start with its name sends the read back to the path."""

from __future__ import annotations

import json

from sqlalchemy import select, text, update

from engine.flungo.squad import Team
from pbm.app import App
from pbm.db.models import Seat, table_of
from pbm.db.session import transaction
from pbm.games.flungo import team_names
from pbm.games.flungo.competitions import join
from pbm.games.flungo.team_names import other_team_names

NAMES = [
    'Rock & Roll\'s "Best"',
    "Back\\slash \\u0041",
    "Зенит Ωmega ✓ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "𝔐" * 40,  # forty letters, each two escapes in the JSON: longer than the head
    "Team 5",
]


def _seated(app: App, demo: str) -> list[int]:
    """Five seats of DEMO named NAMES; their ids."""
    from pbm.db.models import Competition

    ids = []
    with transaction(app.sessions) as s:
        comp = s.scalars(select(Competition).where(Competition.code == demo)).one()
        comp.teams = len(NAMES)
        for k, name in enumerate(NAMES):
            result = join(s, app.clock, app.box, comp, f"p{k}@example.test")
            seat = result.seat(s)
            assert seat is not None
            seat.team = {**Team.from_json(seat.team).to_json(), "name": name}
            s.flush()
            ids.append(seat.id)
    return ids


def test_the_names_are_the_stored_ones_on_either_database(app: App, demo: str) -> None:
    """Every other seat's name comes back exactly as stored, by seat number, on both
    databases; on SQLite a name longer than the head is read by path, the rest off it."""
    ids = _seated(app, demo)
    with transaction(app.sessions) as s:
        got = other_team_names(s, 1, ids[0])
    assert got == [(k + 1, name) for k, name in enumerate(NAMES)][1:]
    if app.db_engine.dialect.name == "sqlite":
        with transaction(app.sessions) as s:
            heads = s.execute(team_names._OTHER_HEADS, {"b_comp": 1, "b_seat": ids[3]})
            assert team_names._from_heads(heads) is not None  # no long name among these
            heads = s.execute(team_names._OTHER_HEADS, {"b_comp": 1, "b_seat": ids[0]})
            assert team_names._from_heads(heads) is None  # the long one is cut


def test_a_squad_that_does_not_start_with_its_name_is_read_by_path(app: App, demo: str) -> None:
    """A squad written with its players first (not by ``Team.to_json``) still gives its name:
    the head is not a name, so the read goes back to the JSON path."""
    ids = _seated(app, demo)
    with transaction(app.sessions) as s:
        team = s.get(Seat, ids[1])
        assert team is not None
        data = dict(team.team)
        turned = json.dumps({"players": data["players"], "name": data["name"]})
        seats = table_of(Seat)
        if app.db_engine.dialect.name == "sqlite":
            s.execute(text("UPDATE seats SET team = :t WHERE id = :i"), {"t": turned, "i": ids[1]})
        else:
            s.execute(update(seats).where(seats.c.id == ids[1]).values(team=json.loads(turned)))
    with transaction(app.sessions) as s:
        got = other_team_names(s, 1, ids[4])
    assert got == [(k + 1, name) for k, name in enumerate(NAMES)][:4]
