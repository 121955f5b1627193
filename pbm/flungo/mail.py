"""Flungo by mail: JOIN, naming and standing orders, and the GM's NEWGAME.

Each handler is one entry in the registry (:mod:`pbm.inbound.commands`); a mail for a Flungo
competition with no command word is its orders (squad naming while open, and the standing
orders for the next match). Handlers run inside the message's one transaction and queue their
reply there too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from engine.flungo.formats import Format
from engine.flungo.language import canonical, parse_orders
from engine.flungo.squad import Team
from pbm.auth import redact
from pbm.db.models import Competition, Flag, NamingVersion, Seat
from pbm.errors import GameError
from pbm.flungo.competitions import (
    base_squad,
    create_competition,
    join,
    naming_open,
    placeholder_team_name,
)
from pbm.flungo.naming import apply_naming, diff_teams, is_fully_named
from pbm.flungo.standing import (
    MailOrders,
    carries_match_orders,
    current_orders,
    read_mail_orders,
    store_orders,
    supersede_flags,
    without_naming,
)
from pbm.flungo.views import competition_ctx, squad_rows
from pbm.inbound.commands import Audience, CommandLine, command, fallback
from pbm.inbound.context import Handled, MailContext, Status
from pbm.mail.limits import too_many_flags

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
    result = join(ctx.session, ctx.clock, ctx.box, comp, ctx.msg.from_addr)
    if result.outcome != "joined":
        seat = result.seat
        ctx.reply(
            "join-refused",
            competition=competition_ctx(comp),
            outcome=result.outcome,
            team_name=Team.from_json(seat.team).name if seat else "",
        )
        return Handled(Status.REJECTED, f"join {result.outcome}")
    assert result.seat is not None
    team = Team.from_json(result.seat.team)
    ctx.reply(
        "join",
        competition=competition_ctx(comp),
        seat=result.seat.number,
        team_name=team.name,
        secret=result.secret,
        squad=squad_rows(team),
    )
    return Handled(Status.APPLIED, f"joined seat {result.seat.number}")


@fallback(GAME)
def orders_mail(ctx: MailContext, line: CommandLine) -> Handled:
    """A seat's orders: squad naming (while open) and standing orders for the next match."""
    comp = ctx.competition
    assert comp is not None
    seat = ctx.authenticate_seat(comp)
    secrets = ctx.secrets
    text = redact(ctx.msg.body, secrets)
    current = Team.from_json(seat.team)
    placeholder = placeholder_team_name(seat.number)
    base = base_squad(comp, seat.number)
    # Names are given against the squad as generated; without them, the orders name the
    # squad as it stands.
    mail = read_mail_orders(text, base, comp.format)
    naming = mail.parsed.orders.naming
    if naming is not None and naming.team_name is None and not naming.names:
        naming = None
    if naming is not None and not naming_open(comp, ctx.clock.now()):
        ctx.reply("naming-closed", competition=competition_ctx(comp))
        return ctx.handled(Status.REJECTED, "naming closed")
    if naming is None and current != base:
        mail = read_mail_orders(text, current, comp.format)
    match = carries_match_orders(mail)
    if (too_many := too_many_flags(len(mail.not_understood))) is not None:
        ctx.reply("refused", reason=too_many)
        return ctx.handled(Status.REJECTED, "too many unreadable sentences")
    errors = [
        {"text": redact(str(e), secrets), "line": e.span.line if e.span else None}
        for e in mail.errors
    ]
    if naming is None and not match and not errors:
        return ctx.not_understood("no orders")
    reply: dict[str, Any] = {
        "competition": competition_ctx(comp),
        "echo": mail.parsed.echo_text(),
        "named": seat.named,
        "version": seat.naming_version,
        "naming": naming is not None,
        "orders_version": 0,
        "standing": "",
        "flags": [],
    }
    if errors:
        if mail.not_understood:  # the whole mail is refused, so nothing goes to the GM
            errors = [
                {"text": redact(str(e), secrets), "line": e.span.line if e.span else None}
                for e in mail.parsed.errors
            ]
        ctx.reply(
            "naming",
            accepted=False,
            errors=errors,
            changes=[],
            squad=squad_rows(current),
            team_name=current.name,
            **reply,
        )
        return ctx.handled(Status.REJECTED, f"orders with {len(errors)} error(s)")
    notes = []
    team = current
    changes: list[dict[str, str]] = []
    if naming is not None:
        team = apply_naming(base, naming, placeholder)
        changes = [{"what": c.what, "old": c.old, "new": c.new} for c in diff_teams(current, team)]
        seat.naming_version += 1
        seat.team = team.to_json()
        seat.named = is_fully_named(team, (p.name for p in base.players), placeholder)
        ctx.session.add(
            NamingVersion(
                seat_id=seat.id,
                version=seat.naming_version,
                team=seat.team,
                inbound_id=ctx.mail.id,
                created_at=ctx.clock.now(),
            )
        )
        ctx.record("naming", seat=seat.number, version=seat.naming_version)
        reply.update(named=seat.named, version=seat.naming_version)
        notes.append(f"naming v{seat.naming_version}")
    if match:
        keep_orders(ctx, comp, seat, mail, reply)
        notes.append(f"orders v{reply['orders_version']}")
    elif changes:
        check_standing(ctx, comp, seat, team)
    ctx.reply(
        "naming",
        accepted=True,
        errors=[],
        changes=changes,
        squad=squad_rows(team),
        team_name=team.name,
        **reply,
    )
    return ctx.handled(Status.APPLIED, ", ".join(notes))


def check_standing(ctx: MailContext, comp: Competition, seat: Seat, team: Team) -> None:
    """Warn when new names leave the standing orders naming squad members who are gone."""
    latest = current_orders(ctx.session, seat)
    if latest is None:
        return
    if parse_orders(latest.text, team, Format(comp.format)).errors:
        ctx.notes.append(
            f"Your standing orders (version {latest.version}) name squad members by names "
            "they no longer have, so they will not read as you meant: send your orders "
            "again with the new names."
        )


def keep_orders(
    ctx: MailContext, comp: Competition, seat: Seat, mail: MailOrders, reply: dict[str, Any]
) -> None:
    """Store the mail's match orders as the seat's standing orders; flag each sentence not
    understood for the GM (the flags of the orders it replaces are superseded)."""
    now = ctx.clock.now()
    supersede_flags(ctx.session, seat, now)
    row = store_orders(
        ctx.session,
        ctx.clock,
        seat,
        canonical(without_naming(mail.parsed.orders)),
        inbound_id=ctx.mail.id,
    )
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
                status="open",
                created_at=now,
            )
        )
        flags.append({"line": n.line, "text": n.text})
    ctx.record("orders", seat=seat.number, version=row.version, flags=len(flags))
    reply.update(orders_version=row.version, standing=row.text, flags=flags)


@command(
    "NEWGAME",
    help="create a competition",
    usage="NEWGAME <CODE> <format> <teams> <naming deadline YYYY-MM-DD[THH:MM]> <name>",
    audience=Audience.GM,
    game=GAME,
    priority=100,
)
def new_game(ctx: MailContext, line: CommandLine) -> Handled:
    """``NEWGAME <CODE> <format> <teams> <deadline YYYY-MM-DD[THH:MM]> <name...>``."""
    parts = line.rest.split(None, 4)
    problem = None
    comp = None
    if len(parts) < 5:
        problem = "expected NEWGAME <CODE> <format> <teams> <naming deadline YYYY-MM-DD> <name>"
    else:
        code, fmt, teams, deadline, name = parts
        try:
            when = datetime.fromisoformat(deadline)
            when = when if when.tzinfo else when.replace(tzinfo=UTC)
            comp = create_competition(
                ctx.session,
                ctx.clock,
                code=code,
                name=name,
                fmt=fmt.lower(),
                teams=int(teams),
                naming_deadline=when,
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
