"""The GM's Flungo controls, by mail and by CLI (both call the services here or in
:mod:`pbm.games.flungo.turns`): extend a deadline, run a stage now (PROCESS), hold and resume,
rerun and roll back, hand a seat to a new address (the standby list), retire a team, reject a
squad name with a reason mailed to the player, resolve flags, post an editorial.

Mail commands name the competition as their first argument (``EXTEND DEMO 1d``), or by the
subject tag / plus-address as every mail may.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.flungo.squad import Team
from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.core.errors import GameError, NotFound
from pbm.core.types import parse_utc
from pbm.db.models import (
    Competition,
    Flag,
    FlagStatus,
    Player,
    Seat,
    Standby,
)
from pbm.games.flungo.celebrities import celebrity_squad
from pbm.games.flungo.competitions import (
    base_squad,
    find_competition,
    placeholder_team_name,
    record_event,
    reissue_secret,
)
from pbm.games.flungo.schedule import format_deadline, parse_duration
from pbm.games.flungo.standing import resolve_flag
from pbm.games.flungo.turns import extend, hold, rerun, resume, rollback, run_now
from pbm.games.flungo.views import competition_ctx
from pbm.inbound.commands import Audience, Command, CommandLine, command, command_of
from pbm.inbound.context import Handled, MailContext, Status
from pbm.outbound.replies import queue_mail
from pbm.secrets.seats import SecretBox

__all__ = [
    "Outcome",
    "add_house_team",
    "add_standby",
    "finish_flag",
    "hand_seat",
    "post_editorial",
    "reject_name",
    "retire",
    "seat_by_number",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a GM service did, in a sentence for the GM."""

    text: str


def seat_by_number(session: Session, comp: Competition, number: int) -> Seat:
    """Team ``number`` of ``comp`` (``NotFound`` if none)."""
    seat = session.scalars(
        select(Seat).where(Seat.competition_id == comp.id, Seat.number == number)
    ).first()
    if seat is None:
        raise NotFound(f"{comp.code} has no team {number}")
    return seat


def _player(session: Session, clock: Clock, address: str) -> Player:
    address = address.lower()
    player = session.scalars(select(Player).where(Player.address == address)).first()
    if player is None:
        player = Player(address=address, created_at=clock.now())
        session.add(player)
        session.flush()
    return player


def add_standby(session: Session, clock: Clock, comp: Competition, address: str) -> Outcome:
    """Put ``address`` on the competition's standby list."""
    address = address.lower()
    if "@" not in address:
        raise GameError(f"{address!r} is not a mail address")
    exists = session.scalars(
        select(Standby).where(Standby.competition_id == comp.id, Standby.address == address)
    ).first()
    if exists is None:
        session.add(Standby(competition_id=comp.id, address=address, created_at=clock.now()))
    record_event(session, clock, "standby", comp, address=address)
    return Outcome(f"{address} is on the standby list of {comp.code}")


def hand_seat(
    session: Session,
    config: Config,
    clock: Clock,
    box: SecretBox,
    comp: Competition,
    number: int,
    address: str | None,
    *,
    note: str | None = None,
) -> Outcome:
    """Hand team ``number`` to ``address`` (None: the first on the standby list) with a new
    secret mailed to the new manager (``note`` says why; by default, that the GM did); the
    old manager's secret stops working."""
    seat = seat_by_number(session, comp, number)
    if address is None:
        first = session.scalars(
            select(Standby).where(Standby.competition_id == comp.id).order_by(Standby.id)
        ).first()
        if first is None:
            raise GameError(f"the standby list of {comp.code} is empty")
        address = first.address
    address = address.lower()
    if "@" not in address:
        raise GameError(f"{address!r} is not a mail address")
    player = _player(session, clock, address)
    taken = session.scalars(
        select(Seat).where(Seat.competition_id == comp.id, Seat.player_id == player.id)
    ).first()
    if taken is not None and taken.id != seat.id:
        raise GameError(f"{address} already manages team {taken.number} of {comp.code}")
    seat.player_id = player.id
    seat.retired = False
    seat.house = False
    seat.missed = 0
    seat.away_until = None
    for row in session.scalars(
        select(Standby).where(Standby.competition_id == comp.id, Standby.address == address)
    ):
        session.delete(row)
    seat, secret = reissue_secret(session, clock, box, comp, number)
    team = Team.from_json(seat.team).name
    queue_mail(
        session,
        config,
        clock,
        kind="new-secret",
        to=address,
        ctx={
            "competition": competition_ctx(comp),
            "team_name": team,
            "secret": secret,
            "notes": [note or f"The GM has handed you the management of {team}."],
        },
    )
    record_event(session, clock, "seat-handed", comp, seat=number, address=address)
    return Outcome(f"team {number} ({team}) of {comp.code} is now managed by {address}")


def add_house_team(
    session: Session, config: Config, clock: Clock, comp: Competition, name: str
) -> Outcome:
    """Seat a house team (the demo's): a seat named ``name`` whose players are celebrities of
    TV and radio, managed by nobody (``house``, and so retired), that plays on the defaults
    and is never mailed nor waited for."""
    from pbm.games.flungo.competitions import join
    from pbm.games.flungo.turns import settings_for

    session.flush()
    session.expire(comp, ["seats"])  # seats added in this session
    number = len(comp.seats) + 1
    domain = config.server.address.rpartition("@")[2]
    address = f"house-{comp.code.lower()}-{number}@{domain}"
    after = settings_for(comp, config.turns).naming_after_full
    result = join(session, clock, SecretBox(config.security), comp, address, after)
    seat = result.seat(session)
    if seat is None or result.outcome != "joined":
        raise GameError(f"{comp.code} takes no more teams ({result.outcome})")
    team = Team.from_json(seat.team)
    team = celebrity_squad(team, comp.seed, seat.number)  # a zine that reads as a story
    seat.team = replace(team, name=" ".join(name.split())[:40] or team.name).to_json()
    seat.named = True
    seat.retired = True
    seat.house = True
    record_event(session, clock, "house-team", comp, seat=seat.number)
    return Outcome(f"house team {seat.number} of {comp.code}: {name}")


def retire(session: Session, clock: Clock, comp: Competition, number: int) -> Outcome:
    """Retire team ``number``: it plays on the defaults, is not mailed, not waited for."""
    seat = seat_by_number(session, comp, number)
    seat.retired = True
    record_event(session, clock, "retired", comp, seat=number)
    return Outcome(f"team {number} of {comp.code} is retired: it plays on the defaults")


def reject_name(
    session: Session,
    config: Config,
    clock: Clock,
    comp: Competition,
    number: int,
    what: str,
    reason: str,
) -> Outcome:
    """Reject the team's name (``what`` = TEAM) or squad member ``what`` (a slot 1-18)'s name,
    before the draw: it returns to its placeholder and the player is mailed the reason (the
    seed's "must have appeared on TV or radio" is the GM's call)."""
    if comp.season is not None:
        raise GameError(f"{comp.code} has begun: names are fixed once the fixtures are drawn")
    seat = seat_by_number(session, comp, number)
    team = Team.from_json(seat.team)
    base = base_squad(comp, number)
    if what.upper() == "TEAM":
        old = team.name
        team = replace(team, name=placeholder_team_name(number))
    else:
        try:
            slot = int(what)
        except ValueError as exc:
            raise GameError(f"{what!r}: give TEAM or a squad slot 1-18") from exc
        if not 1 <= slot <= len(team.players):
            raise GameError(f"slot {slot}: a squad has slots 1-{len(team.players)}")
        old = team.players[slot - 1].name
        team = team.with_player(
            slot, replace(team.players[slot - 1], name=base.players[slot - 1].name)
        )
    seat.team = team.to_json()
    seat.named = False
    player = session.get(Player, seat.player_id)
    assert player is not None
    queue_mail(
        session,
        config,
        clock,
        kind="name-rejected",
        to=player.address,
        ctx={
            "competition": competition_ctx(comp),
            "team_name": team.name,
            "old": old,
            "reason": reason,
            "naming_deadline": format_deadline(comp.naming_deadline, player.time_zone),
            "notes": [],
        },
    )
    record_event(session, clock, "name-rejected", comp, seat=number, name=old)
    return Outcome(f"{old!r} of team {number} rejected; the player is told why")


def post_editorial(session: Session, clock: Clock, comp: Competition, text: str) -> Outcome:
    """Add ``text`` to the editorial of the competition's next issue."""
    text = text.strip()
    if not text:
        raise GameError("an empty editorial")
    comp.editorial = f"{comp.editorial}\n\n{text}" if comp.editorial else text
    record_event(session, clock, "editorial", comp, chars=len(text))
    return Outcome(f"editorial for the next issue of {comp.code}: {len(comp.editorial)} chars")


def finish_flag(
    session: Session,
    config: Config,
    clock: Clock,
    flag_id: int,
    text: str | None,
    drop: str | None,
) -> Outcome:
    """Resolve flag ``flag_id`` with canonical ``text`` (appended to the standing orders), or
    ``drop`` it with a reason; the player is mailed either way."""
    flag = session.get(Flag, flag_id)
    if flag is None:
        raise NotFound(f"no flag {flag_id}")
    if flag.status != FlagStatus.OPEN:
        raise GameError(f"flag {flag_id} is {flag.status}, not open")
    seat = session.get(Seat, flag.seat_id)
    comp = session.get(Competition, flag.competition_id)
    assert seat is not None and comp is not None
    team = Team.from_json(seat.team)
    ctx: dict[str, Any] = {
        "competition": competition_ctx(comp),
        "team_name": team.name,
        "line": flag.line,
        "text": flag.text,
        "resolution": None,
        "version": 0,
        "note": drop,
        "notes": [],
    }
    if drop is not None:
        flag.status = FlagStatus.DROPPED
        flag.note = drop
        flag.resolved_at = clock.now()
        done = f"flag {flag_id} dropped"
    else:
        assert text is not None
        result = resolve_flag(session, clock, flag, text, team, comp.format)
        if result.errors:
            raise GameError("not resolved: the text has errors\n\n" + "\n\n".join(result.errors))
        ctx.update(resolution=result.lines, version=result.version)
        done = f"flag {flag_id} resolved: standing orders version {result.version}"
    player = session.get(Player, seat.player_id)
    assert player is not None
    queue_mail(session, config, clock, kind="flag-resolved", to=player.address, ctx=ctx)
    return Outcome(f"{done}; mail queued to {player.address}")


def parse_when(value: str) -> tuple[Any, datetime | None]:
    """``1d``/``90m`` (a delay) or ``YYYY-MM-DDTHH:MM`` (UTC unless zoned)."""
    try:
        return parse_duration(value), None
    except ValueError:
        pass
    try:
        return None, parse_utc(value)
    except ValueError as exc:
        raise GameError(f"{value!r}: give a delay (2h, 1d) or a time YYYY-MM-DDTHH:MM") from exc


# -- by mail ----------------------------------------------------------------------------------


def _target(ctx: MailContext, line: CommandLine) -> tuple[Competition, list[str]]:
    """The competition named first on the line (or by the mail's code), and the rest."""
    words = line.rest.split()
    if words and (comp := find_competition(ctx.session, words[0])) is not None:
        return comp, words[1:]
    if ctx.competition is not None:
        return ctx.competition, words
    raise GameError(f"{line.word} needs the competition's code: {line.word} <CODE> ...")


def _done(ctx: MailContext, line: CommandLine, text: str, ok: bool = True) -> Handled:
    ctx.reply("gm-done", command=line.word, line=line.text.strip(), ok=ok, text=text)
    return ctx.handled(
        Status.APPLIED if ok else Status.REJECTED, f"{line.word.lower()}: {text}"[:200]
    )


GmBody = Callable[[MailContext, CommandLine], str]

#: The GM's commands, in the order they are defined (their handlers wrap the bodies below, so
#: they are not the module's names: the game lists them from here).
COMMANDS: list[Command] = []


def _gm(word: str, usage: str, help: str) -> Callable[[GmBody], GmBody]:
    """Register a GM command whose body raises :class:`GameError`/:class:`NotFound` to refuse."""

    def wrap(fn: GmBody) -> GmBody:
        def handler(ctx: MailContext, line: CommandLine) -> Handled:
            try:
                return _done(ctx, line, fn(ctx, line))
            except (GameError, NotFound) as exc:
                return _done(ctx, line, exc.message, ok=False)

        handler.__name__ = handler.__qualname__ = f"gm_{word.lower()}"
        handler.__doc__ = fn.__doc__
        marked = command(
            word, help=help, usage=usage, audience=Audience.GM, game="flungo", priority=100
        )(handler)
        cmd = command_of(marked)
        assert cmd is not None
        COMMANDS.append(cmd)
        return fn

    return wrap


@_gm("EXTEND", "EXTEND <CODE> <delay 2h|1d or YYYY-MM-DDTHH:MM>", "move the deadline later")
def _extend(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    if not args:
        raise GameError("EXTEND <CODE> <delay or time>")
    by, to = parse_when(args[0])
    turn = extend(ctx.session, ctx.clock, comp, by, to)
    return f"{comp.code} {turn.stage_key}: the deadline is now {format_deadline(turn.deadline)}"


@_gm("PROCESS", "PROCESS <CODE>", "run the stage that is next, now (the pre-run check waived)")
def _process(ctx: MailContext, line: CommandLine) -> str:
    comp, _ = _target(ctx, line)
    turn = run_now(ctx.session, ctx.clock, comp)
    what = "joining closes and the draw" if turn is None else turn.stage_key
    return f"{comp.code}: {what} runs at the next pass"


@_gm("HOLD", "HOLD <CODE> [reason]", "hold the competition: no stage runs until RESUME")
def _hold(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    hold(ctx.session, ctx.clock, comp, " ".join(args) or "held by the GM")
    return f"{comp.code} is held"


@_gm("RESUME", "RESUME <CODE>", "resume a held competition")
def _resume(ctx: MailContext, line: CommandLine) -> str:
    comp, _ = _target(ctx, line)
    resume(ctx.session, ctx.clock, comp)
    return f"{comp.code} runs again"


@_gm("RERUN", "RERUN <CODE> [stage]", "resolve a played stage again and compare byte for byte")
def _rerun(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    r = rerun(ctx.session, comp, args[0] if args else None)
    verdict = "identical, byte for byte" if r.identical else "DIFFERENT"
    return f"{comp.code} {r.stage_key} (issue {r.issue}) rerun: {verdict}"


@_gm("ROLLBACK", "ROLLBACK <CODE> [NEWSEED]", "undo the latest stage and reopen its orders")
def _rollback(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    new_seed = bool(args) and args[0].upper() == "NEWSEED"
    turn = rollback(ctx.session, ctx.config, ctx.clock, comp, new_seed=new_seed)
    return f"{comp.code} {turn.stage_key} is open again until {format_deadline(turn.deadline)}" + (
        " with a new seed" if new_seed else ""
    )


@_gm("SEAT", "SEAT <CODE> <team number> <address|STANDBY>", "hand a team to a new manager")
def _seat(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    if len(args) < 2 or not args[0].isdigit():
        raise GameError("SEAT <CODE> <team number> <address or STANDBY>")
    address = None if args[1].upper() == "STANDBY" else args[1]
    return hand_seat(ctx.session, ctx.config, ctx.clock, ctx.box, comp, int(args[0]), address).text


@_gm("STANDBY", "STANDBY <CODE> <address>", "put an address on the standby list")
def _standby(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    if not args:
        raise GameError("STANDBY <CODE> <address>")
    return add_standby(ctx.session, ctx.clock, comp, args[0]).text


@_gm("RETIRE", "RETIRE <CODE> <team number>", "retire a team: it plays on the defaults")
def _retire(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    if not args or not args[0].isdigit():
        raise GameError("RETIRE <CODE> <team number>")
    return retire(ctx.session, ctx.clock, comp, int(args[0])).text


@_gm(
    "REJECT",
    "REJECT <CODE> <team number> <TEAM|slot> <reason>",
    "reject a squad name, with the reason mailed to the player",
)
def _reject(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    if len(args) < 3 or not args[0].isdigit():
        raise GameError("REJECT <CODE> <team number> <TEAM or slot> <reason>")
    return reject_name(
        ctx.session, ctx.config, ctx.clock, comp, int(args[0]), args[1], " ".join(args[2:])
    ).text


@_gm("RESOLVE", "RESOLVE <flag> <canonical orders>", "enter the meaning of a flagged sentence")
def _resolve(ctx: MailContext, line: CommandLine) -> str:
    words = line.rest.split(None, 1)
    if len(words) < 2 or not words[0].lstrip("#").isdigit():
        raise GameError("RESOLVE <flag number> <canonical orders>")
    return finish_flag(
        ctx.session, ctx.config, ctx.clock, int(words[0].lstrip("#")), words[1], None
    ).text


@_gm("DROP", "DROP <flag> <reason>", "dismiss a flagged sentence, telling the player why")
def _drop(ctx: MailContext, line: CommandLine) -> str:
    words = line.rest.split(None, 1)
    if len(words) < 2 or not words[0].lstrip("#").isdigit():
        raise GameError("DROP <flag number> <reason>")
    return finish_flag(
        ctx.session, ctx.config, ctx.clock, int(words[0].lstrip("#")), None, words[1]
    ).text


@_gm(
    "EDITORIAL",
    "EDITORIAL <CODE> <text...> (the lines after it are part of it)",
    "post an editorial for the next issue of the zine",
)
def _editorial(ctx: MailContext, line: CommandLine) -> str:
    comp, args = _target(ctx, line)
    body = ctx.msg.body.replace("\r\n", "\n").split("\n")
    following = "\n".join(body[line.line_no :]).strip() if line.line_no else ""
    text = " ".join(args)
    if following:
        text = f"{text}\n{following}".strip()
    return post_editorial(ctx.session, ctx.clock, comp, text).text
