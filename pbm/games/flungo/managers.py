"""What managers of postal games expect (judges, Eressea): RESIGN, AWAY until a date and BACK,
REPORT (a turn report again), and the GM's policy for a team that sends nothing stage after
stage (``[turns] nmr_limit``: the GM is alerted and the standby list offered the team).

A team whose manager resigns goes to the first address on the standby list (mailed its new
secret), or, with nobody waiting, plays on its standing orders and the defaults; the GM is told
either way. An address offered a team (after ``nmr_limit`` silent stages) takes it by mailing
JOIN to the competition, unless its manager has sent orders since.
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from engine.flungo.squad import Team
from engine.flungo.turn import Stage, TurnReport
from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.db.models import Competition, CompetitionStatus, Player, Seat, Standby, Turn, TurnStatus
from pbm.games.flungo.competitions import record_event, reissue_secret
from pbm.games.flungo.dates import DATE_FORMS, parse_date
from pbm.games.flungo.schedule import zone
from pbm.games.flungo.views import competition_ctx
from pbm.games.flungo.zine.story import possessive
from pbm.inbound.commands import Audience, CommandLine, command
from pbm.inbound.context import Handled, MailContext, Status
from pbm.outbound.replies import queue_mail
from pbm.secrets.seats import SecretBox

__all__ = [
    "accept_offer",
    "away",
    "back",
    "count_silence",
    "report",
    "resign",
    "resign_seat",
]

GAME = "flungo"


def _team(seat: Seat) -> str:
    return Team.from_json(seat.team).name


def _answer(ctx: MailContext, title: str, text: str, *, will_play: Any = None) -> None:
    comp = ctx.competition
    assert comp is not None
    ctx.reply(
        "answer",
        competition=competition_ctx(comp),
        title=title,
        sections=[{"heading": title, "text": text}],
        will_play=will_play,
        deadline=None,
    )


def tell_gm(
    session: Session,
    config: Config,
    clock: Clock,
    comp: Competition,
    headline: str,
    lines: list[str],
) -> None:
    """A mail to the GM about a team's manager (a resignation, a silent team, a seat taken)."""
    queue_mail(
        session,
        config,
        clock,
        kind="gm-notice",
        to=config.gm.address,
        ctx={"competition": competition_ctx(comp), "headline": headline, "lines": lines},
    )


def notice(
    session: Session,
    config: Config,
    clock: Clock,
    comp: Competition,
    to: str,
    title: str,
    lines: list[str],
) -> None:
    """A mail to a manager (or an address on the standby list) that is no reply."""
    queue_mail(
        session,
        config,
        clock,
        kind="notice",
        to=to,
        ctx={"competition": competition_ctx(comp), "title": title, "lines": lines, "notes": []},
    )


def _first_standby(session: Session, comp: Competition, besides: str = "") -> Standby | None:
    return session.scalars(
        select(Standby)
        .where(Standby.competition_id == comp.id, Standby.address != besides.lower())
        .order_by(Standby.id)
    ).first()


# -- RESIGN -----------------------------------------------------------------------------------


def resign_seat(
    session: Session,
    config: Config,
    clock: Clock,
    box: SecretBox,
    comp: Competition,
    seat: Seat,
    address: str,
) -> str:
    """``address`` gives up team ``seat``: it goes to the first on the standby list, or plays
    on the defaults (retired); the old secret stops working and the GM is told. Returns what
    became of the team, in a sentence for the manager who left."""
    from pbm.games.flungo.gm import hand_seat

    team = _team(seat)
    seat.away_until = None
    seat.missed = 0
    first = _first_standby(session, comp, besides=address)
    if first is not None:
        heir = first.address
        hand_seat(
            session,
            config,
            clock,
            box,
            comp,
            seat.number,
            heir,
            note=f"{possessive(team)} manager resigned; you were first on the standby list, so "
            "the team is yours.",
        )
        done = f"{team} goes to the next manager on the GM's standby list."
        lines = [f"It is handed to {heir}, first on the standby list, with a new secret."]
    else:
        seat.retired = True
        reissue_secret(session, clock, box, comp, seat.number)
        done = (
            f"Nobody is waiting for a team, so {team} plays on its standing orders and the "
            "defaults until the GM hands it to a new manager."
        )
        lines = [
            "The standby list is empty: the team plays on its standing orders and the defaults.",
            f"To hand it to a new manager: SEAT {comp.code} {seat.number} <address> (or "
            f"STANDBY {comp.code} <address>, then SEAT {comp.code} {seat.number} STANDBY).",
        ]
    session.execute(
        update(Standby)
        .where(Standby.competition_id == comp.id, Standby.offered_seat == seat.number)
        .values(offered_seat=None)
    )
    record_event(session, clock, "resigned", comp, seat=seat.number, address=address)
    tell_gm(
        session,
        config,
        clock,
        comp,
        f"{address} resigned from {team} (team {seat.number})",
        lines,
    )
    return done


@command(
    "RESIGN",
    help="give up your team: the next manager on the GM's standby list takes it, or it plays "
    "on the defaults; the GM is told",
    usage="RESIGN",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=70,
)
def resign(ctx: MailContext, line: CommandLine) -> Handled:
    """``RESIGN``, alone on its line (a remark that starts with the word is no resignation)."""
    comp = ctx.competition
    assert comp is not None
    seat = ctx.authenticate_seat(comp)
    rest = line.rest.strip().rstrip(".!").strip()
    if rest and rest.upper() != comp.code:
        _answer(
            ctx,
            "Not resigned",
            f"pbm read {line.text.strip()!r}, which is more than RESIGN: to give up your team, "
            "send a line with the word RESIGN alone.",
        )
        return ctx.handled(Status.REJECTED, "resign: not alone on its line")
    if comp.status == CompetitionStatus.FINISHED:
        _answer(ctx, "Not resigned", f"{comp.name} is over: there is nothing to resign from.")
        return ctx.handled(Status.REJECTED, "resign: over")
    done = resign_seat(ctx.session, ctx.config, ctx.clock, ctx.box, comp, seat, ctx.msg.from_addr)
    _answer(
        ctx,
        "Resigned",
        f"You have resigned as manager of {_team(seat)}. {done} Your secret no longer works. "
        "Thank you for playing.",
    )
    return ctx.handled(Status.APPLIED, f"resigned team {seat.number}")


# -- AWAY and BACK ----------------------------------------------------------------------------


def _when(dt: datetime, tz_name: str | None) -> str:
    """A moment as a manager reads it: the day and time in his zone (UTC if none)."""
    local = dt.astimezone(zone(tz_name)) if tz_name else dt.astimezone(UTC)
    return f"{local:%A %d %B %Y}, {local:%H:%M} {local.tzname()}"


@command(
    "AWAY",
    help="you are away until a date: your standing orders and the defaults play, no "
    "reminders, no stage waits for you (BACK ends it early)",
    usage="AWAY until <date>",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=70,
)
def away(ctx: MailContext, line: CommandLine) -> Handled:
    """``AWAY until 12 April``: the date in the manager's zone (ZONE), UTC if he set none; he
    is back at the start of that day."""
    from pbm.games.flungo.reports import will_play_ctx

    comp = ctx.competition
    assert comp is not None
    seat = ctx.authenticate_seat(comp)
    tz_name = ctx.player.time_zone if ctx.player is not None else None
    tz = zone(tz_name) if tz_name else UTC
    now = ctx.clock.now()
    try:
        day = parse_date(line.rest, now.astimezone(tz).date())
        if (day - now.astimezone(tz).date()).days > 366:
            raise ValueError(f"{day:%d %B %Y} is more than a year away: resign instead?")
    except ValueError as exc:
        _answer(
            ctx,
            "Not understood",
            f"AWAY needs the date you are back, as in AWAY until 12 April. {exc}. "
            f"The forms pbm reads: {DATE_FORMS}. Nothing has changed.",
        )
        return ctx.handled(Status.REJECTED, "away: no date understood")
    until = datetime.combine(day, time(0), tz).astimezone(UTC)
    seat.away_until = until
    ctx.record("away", seat=seat.number, until=until.isoformat())
    _answer(
        ctx,
        "Away",
        f"You are away until {_when(until, tz_name)}. Until then {_team(seat)} plays on its "
        "standing orders and the defaults (what follows), you get no reminders, and no stage "
        "waits for your orders. The turn reports still come, and orders you send still count. "
        "Send BACK if you return sooner.",
        will_play=will_play_ctx(ctx.session, seat, comp),
    )
    return ctx.handled(Status.APPLIED, f"away until {day.isoformat()}")


@command(
    "BACK",
    help="you are back: reminders again, and stages wait for your orders",
    usage="BACK",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=70,
)
def back(ctx: MailContext, line: CommandLine) -> Handled:
    """``BACK``: the end of an AWAY."""
    comp = ctx.competition
    assert comp is not None
    seat = ctx.authenticate_seat(comp)
    was = seat.away_until is not None and seat.away_until > ctx.clock.now()
    seat.away_until = None
    ctx.record("back", seat=seat.number, was_away=was)
    text = (
        "Welcome back: you get reminders again, and stages wait for your orders."
        if was
        else "You were not away: nothing has changed."
    )
    _answer(ctx, "Back", text)
    return ctx.handled(Status.APPLIED, "back")


# -- REPORT -----------------------------------------------------------------------------------


def _played(session: Session, comp: Competition) -> list[Turn]:
    return list(
        session.scalars(
            select(Turn)
            .where(Turn.competition_id == comp.id, Turn.status == TurnStatus.DONE)
            .order_by(Turn.position, Turn.generation)
        )
    )


def _pick(played: list[Turn], wanted: str) -> Turn | None:
    """The played stage ``wanted`` names: an issue number (``5``, ``#5``, ``issue 5``), a
    stage key (``T3``, ``R1-select``) or its label (``turn 3``); the latest if empty."""
    words = " ".join(wanted.lower().replace("#", " ").split())
    if not words:
        return played[-1] if played else None
    words = words.removeprefix("issue ").strip()
    for t in reversed(played):
        stage = Stage(t.round, t.turn, t.selection)
        if words.isdigit() and t.issue == int(words):
            return t
        if words in (stage.key.lower(), stage.label.lower()):
            return t
        if not t.selection and words in (f"turn {t.turn}", f"t {t.turn}"):
            return t
        if t.selection and words in (
            f"round {t.round}",
            f"r{t.round}",
            f"round {t.round} selection",
        ):
            return t
    return None


@command(
    "REPORT",
    help="the last turn report again, or a given stage's (its issue number or key, as T3)",
    usage="REPORT [stage]",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=60,
)
def report(ctx: MailContext, line: CommandLine) -> Handled:
    """``REPORT`` / ``REPORT 5`` / ``REPORT T3``: a copy of the team's turn report."""
    from pbm.games.flungo.reports import turn_mails
    from pbm.games.flungo.turns import current_turn

    comp = ctx.competition
    assert comp is not None
    seat = ctx.authenticate_seat(comp)
    played = _played(ctx.session, comp)
    if not played:
        _answer(
            ctx,
            "No report yet",
            "No stage has been played yet: the first report comes "
            "when the first selection is played.",
        )
        return ctx.handled(Status.REJECTED, "report: none yet")
    turn = _pick(played, line.rest)
    if turn is None or turn.report is None:
        listing = "\n".join(
            f"issue {t.issue}: {Stage(t.round, t.turn, t.selection).label} "
            f"(REPORT {Stage(t.round, t.turn, t.selection).key})"
            for t in played
        )
        _answer(
            ctx,
            "No such stage",
            f"pbm found no played stage {line.rest.strip()!r}. The stages played so far:\n"
            + listing,
        )
        return ctx.handled(Status.REJECTED, "report: no such stage")
    stored = TurnReport.from_text(turn.report)
    [mail] = turn_mails(
        ctx.session, ctx.config, comp, turn, stored, current_turn(ctx.session, comp), only=seat
    )
    body = dict(mail.ctx)
    body.pop("notes", None)
    ctx.notes.append(
        f"A copy of the report of issue {turn.issue}, sent again as you asked (REPORT); "
        "what comes next, the deadline and what pbm will play are as they stand now."
    )
    ctx.reply("turn-report", **body)
    return ctx.handled(Status.APPLIED, f"report of issue {turn.issue}")


# -- the GM's policy for silent teams ---------------------------------------------------------


def count_silence(
    session: Session, config: Config, clock: Clock, comp: Competition, turn: Turn, now: datetime
) -> None:
    """In the freeze's transaction: each waited-for team's stages in a row with nothing sent.
    A team that reaches ``nmr_limit`` is reported to the GM, its manager is told, and the
    first address on the standby list not yet offered a team is offered it. A team that sent
    orders starts again from none, and any offer of it is withdrawn."""
    from pbm.games.flungo.turns import is_away, orders_sent, settings_for

    limit = settings_for(comp, config.turns).nmr_limit
    sent = orders_sent(session, comp, turn)
    stage = Stage(turn.round, turn.turn, turn.selection).label
    # A stage played again after a ROLLBACK is the same stage: a team silent in the generation
    # rolled back was counted then, and is not counted twice for one stage.
    counted = _counted_silent(session, turn)
    silent: list[int] = []
    for seat in comp.seats:
        if seat.retired or is_away(seat, now):
            continue  # nobody to wait for, or a manager who said he is away
        if seat.id in sent:
            if seat.missed >= limit > 0:
                _withdraw(session, config, clock, comp, seat)
            seat.missed = 0
            continue
        silent.append(seat.id)
        if seat.id in counted:
            continue
        seat.missed += 1
        if limit and seat.missed == limit:
            _silent(session, config, clock, comp, seat, limit, stage)
    turn.reminders = {**(turn.reminders or {}), SILENT_KEY: silent}


#: In a stage's ``reminders`` bookkeeping: the seat ids its freeze counted as silent.
SILENT_KEY = "silent"


def _counted_silent(session: Session, turn: Turn) -> set[int]:
    """The seats counted silent by the freezes of this stage's earlier generations."""
    if not turn.generation:
        return set()
    rows = session.scalars(
        select(Turn.reminders).where(
            Turn.competition_id == turn.competition_id,
            Turn.position == turn.position,
            Turn.generation < turn.generation,
        )
    )
    return {int(i) for r in rows for i in (r or {}).get(SILENT_KEY, ())}


def _withdraw(
    session: Session, config: Config, clock: Clock, comp: Competition, seat: Seat
) -> None:
    """The silent manager sent orders: each address offered his team is told it stays his."""
    team = _team(seat)
    for offer in session.scalars(
        select(Standby).where(
            Standby.competition_id == comp.id, Standby.offered_seat == seat.number
        )
    ):
        offer.offered_seat = None
        notice(
            session,
            config,
            clock,
            comp,
            offer.address,
            f"The offer of {team} is withdrawn",
            [
                f"{possessive(team)} manager has sent orders again, so the team stays with "
                "him. You stay on the GM's standby list."
            ],
        )


def _silent(
    session: Session,
    config: Config,
    clock: Clock,
    comp: Competition,
    seat: Seat,
    limit: int,
    stage: str,
) -> None:
    team = _team(seat)
    player = session.get(Player, seat.player_id)
    manager = player.address if player is not None else "?"
    stages = f"{limit} stage{'s' * (limit != 1)} in a row"
    offered = session.scalars(
        select(Standby)
        .where(Standby.competition_id == comp.id, Standby.offered_seat.is_(None))
        .order_by(Standby.id)
    ).first()
    lines = [
        f"{team} (team {seat.number}, managed by {manager}) has sent nothing for {stages}, "
        f"up to {stage}; it plays on its standing orders and the defaults."
    ]
    if offered is not None:
        offered.offered_seat = seat.number
        lines.append(
            f"The team is offered to {offered.address}, first on the standby list: a JOIN "
            f"from that address takes it (unless its manager sends orders first)."
        )
        notice(
            session,
            config,
            clock,
            comp,
            offered.address,
            f"A team needs a manager: {team}",
            [
                f"{team} of {comp.name} has had no orders for {stages}, and you are on the "
                "GM's standby list.",
                f"To take the team, mail JOIN with [{comp.code}] in the subject: the reply "
                "gives you its secret and squad. If its manager sends orders first, the "
                "offer is withdrawn and you stay on the list.",
            ],
        )
    else:
        lines.append(
            f"The standby list has nobody to offer it to: STANDBY {comp.code} <address> adds "
            f"one, SEAT {comp.code} {seat.number} <address> hands it over, RETIRE "
            f"{comp.code} {seat.number} retires it."
        )
    tell_gm(session, config, clock, comp, f"{team} has sent nothing for {stages}", lines)
    if player is not None and player.undeliverable_at is None:
        notice(
            session,
            config,
            clock,
            comp,
            player.address,
            f"{team} has had no orders for {stages}",
            [
                f"pbm has had no orders from you for {stages}: your team plays on its "
                "standing orders and the defaults, and the GM has been told.",
                (
                    "The GM's standby list has been offered your team: send orders to keep it."
                    if offered is not None
                    else "Send orders to keep your team; if you are away, send AWAY until "
                    "<date>, and if you are done, RESIGN."
                ),
            ],
        )
    record_event(session, clock, "nmr-limit", comp, seat=seat.number, stages=limit)


#: Built once: every JOIN asks it (and nearly always finds no offer); building the statement
#: cost more than running it.
_OFFER = select(Standby).where(
    Standby.competition_id == bindparam("b_comp"),
    Standby.address == bindparam("b_addr"),
    Standby.offered_seat.is_not(None),
)


def accept_offer(ctx: MailContext, comp: Competition) -> Handled | None:
    """A JOIN from an address the standby list offered a team: it takes the team (None when
    the address was offered none)."""
    from pbm.games.flungo.gm import hand_seat, seat_by_number
    from pbm.games.flungo.turns import settings_for

    offer = ctx.session.scalars(
        _OFFER, {"b_comp": comp.id, "b_addr": ctx.msg.from_addr.lower()}
    ).first()
    if offer is None or offer.offered_seat is None:
        return None
    seat = seat_by_number(ctx.session, comp, offer.offered_seat)
    limit = settings_for(comp, ctx.config.turns).nmr_limit
    vacant = (seat.retired and not seat.house) or (limit > 0 and seat.missed >= limit)
    team = _team(seat)
    if not vacant or comp.status == CompetitionStatus.FINISHED:
        offer.offered_seat = None
        _answer(
            ctx,
            "The offer is withdrawn",
            f"{possessive(team)} manager has sent orders since the team was offered to you, so "
            "it stays with him. You stay on the GM's standby list.",
        )
        return ctx.handled(Status.REJECTED, "offer withdrawn")
    old = ctx.session.get(Player, seat.player_id)
    if old is not None and not seat.retired and old.undeliverable_at is None:
        notice(
            ctx.session,
            ctx.config,
            ctx.clock,
            comp,
            old.address,
            f"{team} has a new manager",
            [
                f"pbm had no orders from you for {seat.missed} stages, so {team} has been "
                "handed to a manager from the GM's standby list. Your secret no longer works. "
                "Thank you for playing.",
            ],
        )
    previous = old.address if old is not None else "?"
    seat.missed = 0
    seat.away_until = None
    hand_seat(
        ctx.session,
        ctx.config,
        ctx.clock,
        ctx.box,
        comp,
        seat.number,
        ctx.msg.from_addr,
        note=f"You took {team}, offered to you from the GM's standby list: the team is yours.",
    )
    tell_gm(
        ctx.session,
        ctx.config,
        ctx.clock,
        comp,
        f"{ctx.msg.from_addr} took {team} (team {seat.number})",
        [f"{ctx.msg.from_addr} accepted the offer of the team, which {previous} had managed."],
    )
    return ctx.handled(Status.APPLIED, f"took team {seat.number}")
