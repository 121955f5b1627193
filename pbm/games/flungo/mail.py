"""Flungo by mail: JOIN, naming and standing orders, and the GM's NEWGAME.

Each handler is one entry in the registry (:mod:`pbm.inbound.commands`); a mail for a Flungo
competition with no command word is its orders (squad naming while open, and the standing
orders for the next match). Handlers run inside the message's one transaction and queue their
reply there too.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    Row,
    Select,
    Subquery,
    bindparam,
    func,
    insert,
    literal,
    select,
    true,
    union_all,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine.flungo.competition import fixture_text, next_fixtures
from engine.flungo.fitness import FitnessStatus
from engine.flungo.language import canonical
from engine.flungo.merge import kept_sentences
from engine.flungo.orders import Orders, SquadNaming
from engine.flungo.squad import Team
from engine.flungo.turn import SeasonState, Stage
from engine.lookalike import lookalike_key
from pbm.core.errors import GameError
from pbm.core.types import parse_utc
from pbm.db.kept import ShelfOf, kept
from pbm.db.models import (
    Competition,
    Flag,
    FlagStatus,
    NamingVersion,
    OrdersVersion,
    Player,
    Seat,
    Turn,
    TurnStatus,
    table_of,
)
from pbm.db.session import is_postgres
from pbm.games.flungo.competitions import (
    base_squad,
    create_competition,
    join,
    naming_open,
    placeholder_team_name,
)
from pbm.games.flungo.house_rules import SETTING_KEYS, parse_settings
from pbm.games.flungo.naming import (
    apply_slots,
    diff_teams,
    is_fully_named,
    lookalike_of,
    still_unnamed,
)
from pbm.games.flungo.outlook import Outlook, outlook_of
from pbm.games.flungo.practice import practice_for
from pbm.games.flungo.standing import (
    MailMerge,
    MailOrders,
    Standing,
    merge_mail,
    read_standing,
    standing_of,
    store_orders,
    supersede_flags,
    without_naming,
)
from pbm.games.flungo.team_names import other_team_names
from pbm.games.flungo.views import competition_ctx, squad_rows
from pbm.inbound.commands import Audience, CommandLine, command
from pbm.inbound.context import Handled, MailContext, Status
from pbm.mail.limits import too_many_flags
from pbm.secrets.scrub import redact

__all__ = ["join_command", "new_game", "orders_mail"]

GAME = "flungo"


@command(
    "JOIN",
    help="take a team in the competition; the reply gives your secret and squad",
    needs_code=True,
    priority=90,
)
def join_command(ctx: MailContext, line: CommandLine) -> Handled:
    """``JOIN``: the next seat, with its secret and squad."""
    comp = ctx.competition
    assert comp is not None
    from pbm.games.flungo.managers import accept_offer
    from pbm.games.flungo.turns import settings_for

    after = settings_for(comp, ctx.config.turns).naming_after_full
    address = ctx.msg.from_addr
    # The standby list's offer is read with the seats (one statement): nearly no JOIN has one
    result = join(ctx.session, ctx.clock, ctx.box, comp, address, after, offers=True)
    if result.outcome == "offered":
        taken = accept_offer(ctx, comp)  # an address the standby list offered a team takes it
        if taken is not None:
            return taken
        result = join(ctx.session, ctx.clock, ctx.box, comp, address, after)
    if result.outcome != "joined":
        ctx.reply(
            "join-refused",
            competition=competition_ctx(comp),
            outcome=result.outcome,
            team_name=Team.from_json(result.team).name if result.team else "",
        )
        return Handled(Status.REJECTED, f"join {result.outcome}")
    assert result.squad is not None
    team = result.squad
    ctx.reply(
        "join",
        competition=competition_ctx(comp),
        seat=result.number,
        team_name=team.name,
        secret=result.secret,
        squad=squad_rows(team),
    )
    return Handled(Status.APPLIED, f"joined seat {result.number}")


def orders_mail(ctx: MailContext, line: CommandLine) -> Handled:
    """A seat's orders: squad naming (while open) and standing orders for the next match."""
    comp = ctx.competition
    assert comp is not None
    seat, latest, flagged, stages = _read_seat(ctx, comp)
    secrets = ctx.secrets
    text = redact(ctx.msg.body, secrets)
    outlook = outlook_of(ctx.session, comp, seat.team["name"]) if comp.season_version else None
    # after the draw the orders are read against the squad as it stands in the season
    # (boosts, injuries), as its next selection will read them: a "treat" is checked
    # against the injuries he really has
    current = outlook.order_squad() if outlook is not None else Team.from_json(seat.team)
    base = base_squad(comp, seat.number)
    placeholder = placeholder_team_name(seat.number)
    placeholders = [p.name for p in base.players]
    # The mail replaces only the parts it gives; names change by slot.
    got = merge_mail(text, current, base, comp.format, latest, ctx.session)
    mail = got.mail
    naming = got.merged.orders.naming
    if naming is not None and naming.team_name is None and not naming.names:
        naming = None
    tried_naming = any(
        p.part.startswith("name ") or p.part == "team name" for p in got.merged.parts
    )
    if tried_naming and not naming_open(comp, ctx.clock.now()):
        ctx.reply("naming-closed", competition=competition_ctx(comp))
        return ctx.handled(Status.REJECTED, "naming closed")
    naming, clash = _refuse_lookalike(ctx.session, comp, seat, current, naming, got)
    match = got.changed
    if (too_many := too_many_flags(len(mail.not_understood))) is not None:
        ctx.reply("refused", reason=too_many)
        return ctx.handled(Status.REJECTED, "too many unreadable sentences")
    errors = [
        {"text": redact(str(e), secrets), "line": e.span.line if e.span else None}
        for e in mail.errors
    ]
    if clash is not None:
        errors.append(clash)
    if naming is None and not match and not errors:
        return ctx.not_understood("no orders")
    note_chatter(ctx, mail)
    if outlook is not None:
        note_sitting_out(ctx, outlook, mail)
    reply: dict[str, Any] = {
        "competition": competition_ctx(comp),
        "echo": mail.parsed.echo_text(),
        # a typo read as the word it is one edit from: shown beside the reading it changed
        "read_as": [redact(f"Line {n.line}: {n.text}.", secrets) for n in mail.parsed.notes],
        "named": seat.named,
        "version": seat.naming_version,
        "naming": naming is not None,
        "orders_version": 0,
        "standing": "",
        "flags": [],
        "errors": errors,
        "still_stands": still_stands(got, latest)
        + (["Your team name had an error: the name that stood before stands."] if clash else []),
        "kept": list(kept_sentences(got.merged)),
        "will_play": None,
        "deadline": "",
        "fixture": None,
    }
    if naming is None and not match:
        # every part the mail gave had an error: nothing changed
        ctx.reply(
            "naming",
            accepted=False,
            changes=[],
            squad=squad_rows(current),
            team_name=current.name,
            unnamed=still_unnamed(current, placeholders, placeholder),
            **{**reply, "naming": tried_naming},
        )
        return ctx.handled(Status.REJECTED, f"orders with {len(errors)} error(s)")
    notes = []
    team = current
    changes: list[dict[str, str]] = []
    if naming is not None:
        team = apply_slots(current, naming)
        changes = [{"what": c.what, "old": c.old, "new": c.new} for c in diff_teams(current, team)]
        _set_naming(
            ctx.session,
            seat,
            team=team.to_json(),
            named=is_fully_named(team, placeholders, placeholder),
            naming_version=seat.naming_version + 1,
        )
        version = {
            "seat_id": seat.id,
            "version": seat.naming_version,
            "team": seat.team,
            "inbound_id": ctx.mail.id,
            "created_at": ctx.clock.now(),
        }
        ctx.session.execute(_NAMING_INSERT, version)  # Core: no object for the unit of work
        ctx.record("naming", seat=seat.number, version=seat.naming_version)
        reply.update(named=seat.named, version=seat.naming_version)
        notes.append(f"naming v{seat.naming_version}")
    if match:
        replaced = got.merged.status("conditional orders") != "kept"
        supersede = replaced and flagged
        keep_orders(ctx, comp, seat, mail, reply, got.standing, supersede=supersede, latest=latest)
        notes.append(f"orders v{reply['orders_version']}")
    elif changes and latest is not None:
        check_standing(ctx, comp, seat, team, latest)
    if not match and latest is not None:
        # every acknowledgement shows the whole of what stands, changed or not
        reply["unchanged"] = {"version": latest.version, "text": latest.text}
    read = None
    if match:
        now_standing = {seat.id: (reply["orders_version"], reply["standing"])}
        if team is current:
            # what the stored text reads as (the round trip): read against the same squad
            read = (reply["orders_version"], without_naming(got.merged.orders))
    else:
        now_standing = {seat.id: (latest.version, latest.text)} if latest is not None else {}
    # the outlook is the team's: read again only if the mail renamed the team
    known = outlook if team.name == current.name else True
    reply.update(_whats_next(ctx, comp, seat, team, now_standing, read, stages, known))
    ctx.reply(
        "naming",
        accepted=True,
        changes=changes,
        squad=squad_rows(team),
        team_name=team.name,
        unnamed=still_unnamed(team, placeholders, placeholder),
        **reply,
    )
    return ctx.handled(Status.APPLIED, ", ".join(notes))


def _read_seat(
    ctx: MailContext, comp: Competition
) -> tuple[Seat, Standing | None, bool, Mapping[bool, Any] | None]:
    """The sender's seat (authenticated), its standing orders, whether any of its flags is
    open, and the competition's stages as ``_STAGES`` reads them (None: not read yet).

    On SQLite, one statement: the transaction holds the database's write lock before it
    reads, so nothing joined to the seat can change under it. On PostgreSQL (read committed)
    a locking read that waited sees the rows it joins as they were before it waited, so a
    version another mail of the seat just stored would be missed: the standing orders are
    read in a statement after the seat's lock, and the flags are closed unread."""
    if is_postgres(ctx.session):
        seat = ctx.authenticate_seat(comp)
        return seat, standing_of(ctx.session, seat), True, None
    row = ctx.authenticate_row(comp, _SEAT_READ)
    seat, version, text, flagged = row[0], row[2], row[3], row[4]
    stages = {}
    for at in (5, 11):
        stage = _Stage(*row[at : at + 6])
        if stage.open is not None:
            stages[bool(stage.open)] = stage
    return seat, Standing(version, text) if version is not None else None, bool(flagged), stages


class _Stage(NamedTuple):
    """A row of ``_STAGES``."""

    round: int
    turn: int
    selection: bool
    deadline: datetime
    resolved_at: datetime | None
    open: bool | None


def _refuse_lookalike(
    session: Session,
    comp: Competition,
    seat: Seat,
    current: Team,
    naming: SquadNaming | None,
    got: MailMerge,
) -> tuple[SquadNaming | None, dict[str, Any] | None]:
    """The naming without its team name when that name looks like another team's in the
    competition (a reader could not tell the two apart in a table), and the error saying
    whose; the slot names stand. A team keeps the name it has (its own is never "taken"), and
    a placeholder is no one's choice, so it takes no name from anyone."""
    if naming is None or naming.team_name is None or naming.team_name == current.name:
        return naming, None
    # a team still on its placeholder ("Team 3") has chosen no name: none is taken from it.
    # The names alone (team_names): loading every seat's squad cost more than the mail.
    rows = other_team_names(session, comp.id, seat.id)
    others = ((n, name) for n, name in rows if name != placeholder_team_name(n))
    shelf = kept(session).shelf(_LOOKALIKE_KEYS)
    found = lookalike_of(
        naming.team_name,
        others,
        lambda name: shelf.get(name, None, lambda: lookalike_key(name)),
    )
    if found is None:
        return naming, None
    number, other = found
    report = next((p for p in got.merged.parts if p.part == "team name"), None)
    line = report.lines[0] if report is not None and report.lines else None
    text = (
        f'the team name "{naming.team_name}" looks just like "{other}", the name of team '
        f"{number} in this competition: tables and scorecards could not tell the two apart. "
        "Choose a name that reads differently."
    )
    if line is not None:
        text = f"line {line}: {text}"
    without = replace(naming, team_name=None)
    return (without if without.names else None), {"text": text, "line": line}


#: The look-alike keys of the team names a naming mail is compared with: a competition's
#: other names are the same from mail to mail, and each key is some twenty skeletons' work.
_LOOKALIKE_KEYS: ShelfOf[tuple[str, str]] = ShelfOf("lookalike keys", 4096)

_NAMING_INSERT = insert(table_of(NamingVersion))
_SEAT_NAMING = (
    update(table_of(Seat))
    .where(table_of(Seat).c.id == bindparam("b_id"))
    .values(team=bindparam("b_team"), named=bindparam("b_named"), naming_version=bindparam("b_v"))
)


def _set_naming(
    session: Session, seat: Seat, *, team: dict[str, Any], named: bool, naming_version: int
) -> None:
    """The seat's new squad, by one Core UPDATE: the unit of work's flush of the same three
    columns cost more than the statement itself, for every naming mail. The loaded seat is given the
    values as committed, so nothing is left for a flush to write twice."""
    session.execute(
        _SEAT_NAMING, {"b_id": seat.id, "b_team": team, "b_named": named, "b_v": naming_version}
    )
    set_committed_value(seat, "team", team)
    set_committed_value(seat, "named", named)
    set_committed_value(seat, "naming_version", naming_version)


def still_stands(got: MailMerge, latest: Standing | None) -> list[str]:
    """The first lines of the reply: each part the mail got wrong, and what stands."""
    out = []
    for p in got.merged.blocked:
        if p.part.startswith("name ") or p.part == "team name":
            out.append(f"Your {p.part} had an error: the name that stood before stands.")
        elif latest is not None:
            out.append(
                f"Your {p.part} had an error: the {p.part} of version {latest.version} "
                "still stands."
            )
        else:
            out.append(f"Your {p.part} had an error: none stood before, so the default applies.")
    return out


def note_chatter(ctx: MailContext, mail: MailOrders) -> None:
    """Lines that are no order (greetings, remarks, quoted text) are noted, never errors."""
    if mail.parsed.chatter:
        lines = ", ".join(str(c.line) for c in mail.parsed.chatter)
        ctx.notes.append(f"Not read as orders (greetings, remarks, quoted text): line(s) {lines}.")


def note_sitting_out(ctx: MailContext, outlook: Outlook, mail: MailOrders) -> None:
    """A treatment refused for a player who sits out the match on the field says why: he is
    healed after it, so the points would be wasted (the squad still shows his injury)."""
    if not mail.errors:  # the squad's fitness is read only for an error it could explain
        return
    for f in outlook.fitness():
        if f.status is FitnessStatus.SITTING_OUT and any(
            str(e.message).startswith(f"{f.player} is not injured") for e in mail.errors
        ):
            ctx.notes.append(
                f"{f.player} sits out this match ({outlook.label}) injured and is healed "
                "after it, so he needs no treatment: the treatment for him was not taken."
            )


def _whats_next(
    ctx: MailContext,
    comp: Competition,
    seat: Seat,
    team: Team,
    latest: Mapping[int, tuple[int, str]],
    read: tuple[int, Orders] | None = None,
    stages: Mapping[bool, Any] | None = None,
    outlook: Outlook | bool | None = True,
) -> dict[str, Any]:
    """The acknowledgement's ending: the next match, the deadline, what pbm will play for
    ``team`` (the seat's squad as it now stands). ``latest``: the seat's standing orders as
    they now stand, {} for none; ``read``: their version and what the text reads as, when
    the mail just merged them; ``stages``: ``_STAGES``'s rows by ``open``, when read with
    the seat; ``outlook``: the team's, when the caller has it (True: look it up)."""
    from pbm.games.flungo.reports import deadline_text, will_play_ctx
    from pbm.games.flungo.turns import season_of

    if stages is None:
        stages = {row.open: row for row in ctx.session.execute(_STAGES, {"b_comp": comp.id})}
    turn = stages.get(True)
    late = None
    fixtures = _fixture_lines(ctx.session, comp, season_of)
    player = ctx.player if ctx.player is not None else ctx.session.get(Player, seat.player_id)
    name = team.name
    if outlook is True or outlook is False:
        outlook = outlook_of(ctx.session, comp, name) if comp.season_version else None
    if turn is not None:
        deadline = deadline_text(turn.deadline, player)
        late = _too_late_note(ctx, turn, stages.get(False), player)
    elif fixtures is None:
        deadline = "the naming deadline, " + deadline_text(comp.naming_deadline, player)
    else:
        deadline = ""
    return {
        "too_late": late,
        "will_play": will_play_ctx(
            ctx.session, seat, comp, latest=latest, read=read, team=team, outlook=outlook
        ),
        "deadline": deadline,
        "fixture": fixtures.get(name) if fixtures is not None else None,
        "practice": _practice(ctx.session, comp, seat, outlook, latest, read),
    }


def _stage_columns(is_open: bool, where: ColumnElement[bool]) -> Subquery:
    """The newest stage ``where`` picks, with only what the answer reads (a done stage's row
    also holds the season before and after it and its report, each as long as the season),
    and ``open``, which of the two it is."""
    t = table_of(Turn)
    return (
        select(
            t.c.round,
            t.c.turn,
            t.c.selection,
            t.c.deadline,
            t.c.resolved_at,
            literal(is_open).label("open"),
        )
        .where(t.c.competition_id == bindparam("b_comp"), where)
        .order_by(t.c.position.desc(), t.c.generation.desc())
        .limit(1)
        .subquery()
    )


#: Built once, one statement for both (every orders mail asks both): the stage taking orders
#: (or frozen, being resolved), as ``current_turn`` finds it, and the latest resolved one, as
#: ``latest_done``, for the note on a mail that came too late for it.
_OPEN_STAGE = _stage_columns(
    True, table_of(Turn).c.status.in_((TurnStatus.OPEN, TurnStatus.FROZEN))
)
_DONE_STAGE = _stage_columns(False, table_of(Turn).c.status == TurnStatus.DONE)
_STAGES = union_all(select(_OPEN_STAGE), select(_DONE_STAGE))


def _seat_read() -> Select[*tuple[Any, ...]]:
    """``_SEAT_READ``: the seat and its player as ``MailContext.authenticate_seat`` reads
    them (locked), its newest orders version and text, whether a flag of it is open, and
    the two stages of ``_STAGES`` side by side (NULLs for a stage there is none of)."""
    seats, orders, flags = table_of(Seat), table_of(OrdersVersion), table_of(Flag)
    mine = orders.alias("mine")
    newest = select(func.max(mine.c.version)).where(mine.c.seat_id == seats.c.id).scalar_subquery()
    flagged = (
        select(flags.c.id)
        .where(flags.c.seat_id == seats.c.id, flags.c.status == FlagStatus.OPEN)
        .exists()
    )
    stage = ("round", "turn", "selection", "deadline", "resolved_at", "open")
    return (
        select(Seat, Player, orders.c.version, orders.c.text, flagged)
        .add_columns(*(_OPEN_STAGE.c[c] for c in stage), *(_DONE_STAGE.c[c] for c in stage))
        .join(Player, Seat.player_id == Player.id)
        .outerjoin(orders, (orders.c.seat_id == Seat.id) & (orders.c.version == newest))
        .outerjoin(_OPEN_STAGE, true())
        .outerjoin(_DONE_STAGE, true())
        .where(Seat.competition_id == bindparam("b_comp"), Player.address == bindparam("b_addr"))
        .with_for_update(key_share=True, of=Seat)
    )


#: Built once: every orders mail on SQLite reads its seat with it (see ``_read_seat``).
_SEAT_READ = _seat_read()


def _practice(
    session: Session,
    comp: Competition,
    seat: Seat,
    outlook: Outlook | None,
    latest: Mapping[int, tuple[int, str]],
    read: tuple[int, Orders] | None,
) -> list[str] | None:
    """The answer's practice: the orders now in force played against the next opponent
    (None between seasons, or before the opponent is known)."""
    from pbm.games.flungo.defaults import standing_orders

    if outlook is None or outlook.opponent is None:
        return None
    if read is not None:
        orders: Orders | None = read[1]
    else:
        text = latest[seat.id][1] if seat.id in latest else None
        orders = standing_orders(text, outlook.order_squad(), comp.format, session)
    return practice_for(outlook, orders, f"{comp.code}:{seat.number}")


#: How long after a stage's deadline a mail may still have been meant for it (at most).
LATE_WINDOW = timedelta(hours=1)


def _too_late_note(
    ctx: MailContext, turn: Row[Any], done: Row[Any] | None, player: Player | None
) -> str | None:
    """A plain word for a mail that came after the stage before had run: early, once every
    team's orders were in (the sender still had time on the clock), or just after its deadline.
    The mail is not lost: it counts for the stage open now."""
    from pbm.games.flungo.reports import deadline_text

    if done is None or done.resolved_at is None:
        return None
    now = ctx.clock.now()
    ran, due = done.resolved_at, done.deadline
    # A quarter of the stage now open, at most an hour: a mail later than that was sent
    # knowing the stage before was over.
    window = min(LATE_WINDOW, (turn.deadline - due) / 4)
    if not ran <= now < due + window:
        return None
    label = Stage(done.round, done.turn, done.selection).label
    why = (
        "early, as every team's orders were in"
        if ran < due
        else f"at its deadline, {deadline_text(due, player)}"
    )
    nxt = Stage(turn.round, turn.turn, turn.selection).label
    return (
        f"Too late for {label}: it was played {why}, before this mail arrived. "
        f"Your orders count for {nxt} (deadline {deadline_text(turn.deadline, player)})."
    )


#: Per competition, each team's next-fixture line in its season, or None before the draw,
#: kept under the season's version (another process may advance it; each write raises it):
#: one line of every orders mail's reply, and reading a large league's season for it would
#: be most of that mail's cost. Only the lines are kept, a few kilobytes a competition, so
#: every competition of a large site stays (a shelf of whole seasons had to be small, and
#: mail spread over more competitions than it held read a season for every mail).
FIXTURE_LINES: ShelfOf[Mapping[str, str] | None] = ShelfOf("flungo.fixture_lines", 1024)


def _fixture_lines(
    session: Session, comp: Competition, read: Callable[[Competition], SeasonState | None]
) -> Mapping[str, str] | None:
    """Each team's next-fixture line in the season as it stands (None before the draw), read
    again only when the season's version changed; the season's text is loaded only then."""

    def derive() -> Mapping[str, str] | None:
        state = read(comp) if comp.season else None
        if state is None:
            return None
        ecomp = state.competition
        return {team: fixture_text(ecomp, f) for team, f in next_fixtures(ecomp).items()}

    # The id and the creation time: a competition deleted and made again under the same id
    # (a restored backup) is another competition.
    key = (comp.id, comp.created_at)
    return kept(session).shelf(FIXTURE_LINES).get(key, comp.season_version, derive)


def check_standing(
    ctx: MailContext, comp: Competition, seat: Seat, team: Team, latest: Standing
) -> None:
    """Warn when new names leave the standing orders (``latest``) naming squad members who
    are gone."""
    if read_standing(latest.text, team, comp.format, ctx.session).errors:
        ctx.notes.append(
            f"Your standing orders (version {latest.version}) name squad members by names "
            "they no longer have, so they will not read as you meant: send your orders "
            "again with the new names."
        )


def keep_orders(
    ctx: MailContext,
    comp: Competition,
    seat: Seat,
    mail: MailOrders,
    reply: dict[str, Any],
    text: str | None = None,
    *,
    supersede: bool = True,
    latest: Standing | bool | None = True,
) -> None:
    """Store ``text`` (the mail merged into what stood) as the seat's standing orders; flag
    each sentence not understood for the GM (the open flags go with the conditional orders
    they belonged to when the mail replaces those). ``latest``: the version that stood, when
    the caller has read it (True: read it here)."""
    now = ctx.clock.now()
    if supersede:
        supersede_flags(ctx.session, seat, now)
    if text is None:
        text = canonical(without_naming(mail.parsed.orders))
    row = store_orders(ctx.session, ctx.clock, seat, text, inbound_id=ctx.mail.id, latest=latest)
    flags = []
    for n in mail.not_understood:
        ctx.session.add(
            Flag(
                competition_id=comp.id,
                seat_id=seat.id,
                inbound_id=ctx.mail.id,
                line=n.line,
                text=n.text,  # read from the redacted body: no secret in it
                reason=n.reason,
                status=FlagStatus.OPEN,
                created_at=now,
            )
        )
        # the GM's reason goes to the player too, unless an error on the line says it
        said = any(
            e.span is not None and e.span.line == n.line and e.message in n.reason
            for e in mail.errors
        )
        flags.append(
            {
                "line": n.line,
                "text": n.text,
                "readings": list(n.readings),
                "reason": "" if said else n.reason,
            }
        )
    ctx.record("orders", seat=seat.number, version=row.version, flags=len(flags))
    reply.update(orders_version=row.version, standing=row.text, flags=flags)


@command(
    "NEWGAME",
    help="create a competition (kind= league, double, knockout or mini; schedule= a cadence)",
    usage="NEWGAME <CODE> <format> <teams> <naming deadline YYYY-MM-DD[THH:MM]> "
    '[kind=mini] [schedule="mon,thu 20:00 Europe/London"] [KEY=VALUE ...] <name> (the keys '
    "of pbm gm new --set: nmr_limit=3, no_consecutive_overs=yes, hundred_tiebreak=yes, ...)",
    audience=Audience.GM,
    game=GAME,
    priority=100,
)
def new_game(ctx: MailContext, line: CommandLine) -> Handled:
    """``NEWGAME <CODE> <format> <teams> <deadline> [kind=...] [schedule="..."] <name...>``."""
    try:
        words = shlex.split(line.rest)
    except ValueError:
        words = line.rest.split()
    options: dict[str, str] = {}
    pairs: list[str] = []
    rest: list[str] = []
    for w in words[4:]:
        key, eq, value = w.partition("=")
        if eq and key.lower() in ("kind", "schedule") and not rest:
            options[key.lower()] = value
        elif eq and key.lower() in SETTING_KEYS and not rest:
            pairs.append(w)
        else:
            rest.append(w)
    problem = None
    comp = None
    if len(words) < 4 or not rest:
        problem = "expected NEWGAME <CODE> <format> <teams> <naming deadline YYYY-MM-DD> <name>"
    else:
        code, fmt, teams, deadline = words[:4]
        try:
            when = parse_utc(deadline)
            settings = parse_settings(pairs, fmt.lower())
            comp = create_competition(
                ctx.session,
                ctx.clock,
                code=code,
                name=" ".join(rest),
                fmt=fmt.lower(),
                teams=int(teams),
                naming_deadline=when,
                kind=options.get("kind", "league").lower(),
                schedule=options.get("schedule"),
                settings=settings,
            )
        except ValueError as exc:
            problem = f"{deadline!r} or {teams!r}: {exc}"
        except GameError as exc:
            problem = exc.message
    ctx.reply(
        "gm-created",
        problem=problem,
        competition=competition_ctx(comp) if comp else None,
        address=ctx.config.server.address,
    )
    if comp is None:
        return ctx.handled(Status.REJECTED, f"newgame: {problem}")
    return ctx.handled(Status.APPLIED, f"created {comp.code}")
