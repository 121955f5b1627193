"""Players' questions by mail: STATUS, SQUAD, FIXTURES, TABLE, SCOUT <team>, RULES, ZONE.

STATUS, SQUAD and ZONE are a seat's own (they need its SECRET); the others are public to
anyone who names the competition. Each answers with facts read from the stored season (the
engine's values), never from earlier mails.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from engine.flungo.competition import fixture_text, next_fixture, result_of, standings_text
from engine.flungo.fitness import injured
from engine.flungo.squad import Team
from engine.flungo.turn import SeasonState, TurnReport
from pbm.db.models import Competition, Player, Seat, Turn, TurnStatus
from pbm.games.flungo.mail_tables import (
    SQUAD_HEADERS,
    STANDINGS_HEADERS,
    squad_cells,
    standings_rows,
)
from pbm.games.flungo.outlook import outlook_of
from pbm.games.flungo.reports import deadline_text, fixture_line, will_play_ctx
from pbm.games.flungo.schedule import zone
from pbm.games.flungo.turns import current_turn, season_of, stage_of
from pbm.games.flungo.views import competition_ctx, squad_rows
from pbm.inbound.commands import Audience, CommandLine, command
from pbm.inbound.context import Handled, MailContext, Status

__all__ = ["fixtures", "rules", "scout", "squad", "status", "table", "zine_command", "zone_command"]

GAME = "flungo"


def _answer(ctx: MailContext, title: str, sections: list[dict[str, Any]], **extra: Any) -> None:
    comp = ctx.competition
    assert comp is not None
    ctx.reply(
        "answer",
        competition=competition_ctx(comp),
        title=title,
        sections=sections,
        will_play=extra.get("will_play"),
        deadline=extra.get("deadline"),
    )


#: What ZINE OFF answers: the zine stops, the game's own mail does not.
ZINE_OFF_TEXT = (
    "You will get no more issues of the zine for {code}. Your team still plays, so its turn "
    "reports, fixtures and reminders still come: they carry each result and what you must do "
    "next, and they stop only when the team leaves the competition. Send ZINE ON to have the "
    "zine again."
)
ZINE_ON_TEXT = "The zine for {code} comes again from its next issue. ZINE OFF stops it."
#: How the zine comes, by whether its PDF is attached (ZINE ATTACH, ZINE INLINE).
ZINE_AS = {
    False: "in the mail itself (its PDF is in the archive, when it has one)",
    True: "in the mail with its PDF attached",
}


def _zine_on_off(ctx: MailContext, comp: Competition, on: bool) -> Handled:
    seat = ctx.session.scalars(
        select(Seat)
        .join(Player, Seat.player_id == Player.id)
        .where(Seat.competition_id == comp.id, Player.address == ctx.msg.from_addr)
    ).first()
    if seat is None:
        text = f"{ctx.msg.from_addr} has no team in {comp.code}, so no zine to stop or start."
        _answer(ctx, "The zine", [{"heading": "Not changed", "text": text}])
        return ctx.handled(Status.REJECTED, "zine: no seat")
    seat.zine = on
    ctx.record("zine", seat=seat.number, on=on)
    text = (ZINE_ON_TEXT if on else ZINE_OFF_TEXT).format(code=comp.code)
    _answer(ctx, "The zine", [{"heading": "On" if on else "Off", "text": text}])
    return ctx.handled(Status.APPLIED, f"zine: {'on' if on else 'off'}")


def _player(ctx: MailContext) -> Player | None:
    return ctx.session.scalars(select(Player).where(Player.address == ctx.msg.from_addr)).first()


def _stage_line(comp: Competition, turn: Turn | None) -> str:
    if turn is None:
        return {
            "open": "taking teams",
            "full": "full: the draw is made when naming closes",
            "finished": "over",
        }.get(comp.status, str(comp.status))
    return f"{stage_of(turn).label} ({comp.status})"


@command(
    "STATUS",
    help="your standing orders, what pbm will play, and the next deadline",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=60,
)
def status(ctx: MailContext, line: CommandLine) -> Handled:
    """``STATUS``: the stage, the deadline, the next match, what pbm will play."""
    comp = ctx.competition
    assert comp is not None
    seat = ctx.authenticate_seat(comp)
    turn = current_turn(ctx.session, comp)
    state = season_of(comp)
    team = Team.from_json(seat.team).name
    sections = [{"heading": "Where things stand", "text": _stage_line(comp, turn)}]
    if state is not None and (f := fixture_line(state.competition, team)):
        sections.append({"heading": "Your next match", "text": f})
    _answer(
        ctx,
        f"Status of {team}",
        sections,
        will_play=will_play_ctx(ctx.session, seat, comp),
        deadline=deadline_text(turn.deadline, _player(ctx)) if turn else None,
    )
    return ctx.handled(Status.APPLIED, "status")


@command(
    "SQUAD",
    help="your squad: stats, injuries and helper points",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=60,
)
def squad(ctx: MailContext, line: CommandLine) -> Handled:
    """``SQUAD``: the squad as it stands (boosts and injuries applied)."""
    comp = ctx.competition
    assert comp is not None
    seat = ctx.authenticate_seat(comp)
    team = Team.from_json(seat.team)
    outlook = outlook_of(ctx.session, comp, team.name)
    if outlook is not None:
        team = outlook.squad
    fitness = {f.player: f for f in injured(team, outlook is not None and outlook.in_match)}
    squad = squad_rows(team)
    # columns as wide as this squad's longest name and role, not a fixed 28 and 22: a row of
    # short names then fits a phone (the answer wraps only a row still too long)
    name_width = max(len(r["name"]) for r in squad)
    role_width = max(len(r["role"]) for r in squad)
    rows = []
    for r, p in zip(squad, team.players, strict=True):
        hurt = f"  {fitness[p.name].short()}" if p.name in fitness else ""
        rows.append(
            f"{r['slot']:>2} {r['name']:<{name_width}} {r['role']:<{role_width}} "
            f"bat {r['batting']:>2} bowl {r['bowling']:>2} {'(' + r['style'] + ')':<8} "
            f"field {r['fielding']}{hurt}"
        )
    cells = squad_cells(squad)
    for row, p in zip(cells, team.players, strict=True):
        if p.name in fitness:
            row[1] += f" ({fitness[p.name].short()})"
    table = {"headers": SQUAD_HEADERS, "rows": cells, "numeric": [0, 3, 4, 5]}
    sections = [{"heading": "Squad", "text": "\n".join(rows), "table": table}]
    if fitness:
        match = outlook.next_match() if outlook is not None else "your next match"
        text = "\n".join(f.sentence(match) for f in fitness.values())
        sections.append({"heading": "Fitness", "text": text})
    _answer(ctx, f"The squad of {team.name}", sections)
    return ctx.handled(Status.APPLIED, "squad")


@command(
    "FIXTURES",
    help="every fixture with its pitch, weather and result",
    game=GAME,
    needs_code=True,
    priority=60,
)
def fixtures(ctx: MailContext, line: CommandLine) -> Handled:
    """``FIXTURES``: the draw and the results so far."""
    comp = ctx.competition
    assert comp is not None
    state = season_of(comp)
    if state is None:
        text = "The fixtures are drawn when joining closes (" + comp.status + ")."
    else:
        ec = state.competition
        text = "\n".join(fixture_text(ec, f) for f in ec.fixtures)
    _answer(ctx, "Fixtures", [{"heading": "Fixtures", "text": text}])
    return ctx.handled(Status.APPLIED, "fixtures")


@command("TABLE", help="the standings", game=GAME, needs_code=True, priority=60)
def table(ctx: MailContext, line: CommandLine) -> Handled:
    """``TABLE``: the standings."""
    comp = ctx.competition
    assert comp is not None
    state = season_of(comp)
    text = standings_text(state.competition) if state else "No match has been played yet."
    section: dict[str, Any] = {"heading": "Standings", "text": text}
    if state:
        rows = standings_rows(state.competition)
        section["table"] = {
            "headers": STANDINGS_HEADERS,
            "rows": rows,
            "numeric": [0, 2, 3, 4, 5, 6, 7],
        }
    _answer(ctx, "The table", [section])
    return ctx.handled(Status.APPLIED, "table")


def _published_xis(ctx: MailContext, comp: Competition, team: str) -> list[str]:
    """The XIs ``team`` has fielded, from the stored turn reports (published in the zine)."""
    out = []
    rows = ctx.session.scalars(
        select(Turn.report)
        .where(
            Turn.competition_id == comp.id,
            Turn.status == TurnStatus.DONE,
            Turn.selection.is_(True),
        )
        .order_by(Turn.position)
    )
    for text in rows:
        if not text:
            continue
        report = TurnReport.from_text(text)
        for m in report.matches:
            for side in (0, 1):
                if m.state.team(side).name == team:
                    out.append(f"{m.label}: {', '.join(m.state.selections[side].xi)}")
    return out


@command(
    "SCOUT",
    help="what a manager could know of a team: its published XIs, form, next pitch and weather",
    usage="SCOUT <team name>",
    game=GAME,
    needs_code=True,
    priority=60,
)
def scout(ctx: MailContext, line: CommandLine) -> Handled:
    """``SCOUT <team>``: public knowledge only (no stats beyond what the zine published)."""
    comp = ctx.competition
    assert comp is not None
    state: SeasonState | None = season_of(comp)
    wanted = " ".join(line.rest.split()).lower()
    names = (
        list(state.competition.teams)
        if state
        else [Team.from_json(s.team).name for s in comp.seats]
    )
    found = next((n for n in names if n.lower() == wanted), None)
    if found is None:
        found = next((n for n in names if wanted and wanted in n.lower()), None)
    if found is None:
        _answer(
            ctx,
            "Scouting",
            [{"heading": "No such team", "text": "The teams: " + ", ".join(names)}],
        )
        return ctx.handled(Status.REJECTED, "scout: no such team")
    sections = []
    if state is not None:
        ec = state.competition
        form = []
        for f in ec.fixtures:
            r = result_of(ec, f.id)
            if r is not None and found in r.teams:
                form.append(f"{f.label}: {r.result_text()}")
        sections.append({"heading": "Form", "text": "\n".join(form) or "no match played yet"})
        nf = next_fixture(ec, found)
        if nf is not None:
            sections.append({"heading": "Next match", "text": fixture_text(ec, nf)})
        xis = _published_xis(ctx, comp, found)
        sections.append({"heading": "Published XIs", "text": "\n".join(xis) or "none yet"})
    else:
        sections.append({"heading": "Not yet", "text": "The season has not begun."})
    _answer(ctx, f"Scouting {found}", sections)
    return ctx.handled(Status.APPLIED, "scout")


@command("RULES", help="the rules reference", game=GAME, needs_code=True, priority=60)
def rules(ctx: MailContext, line: CommandLine) -> Handled:
    """``RULES``: the rules reference, by mail."""
    comp = ctx.competition
    assert comp is not None
    ctx.reply("rules", competition=competition_ctx(comp))
    return ctx.handled(Status.APPLIED, "rules")


@command(
    "ZONE",
    help="show deadlines in your own time zone too",
    usage="ZONE <IANA zone, e.g. Europe/Paris>",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=60,
)
def zone_command(ctx: MailContext, line: CommandLine) -> Handled:
    """``ZONE Europe/Paris``: deadlines in every mail are shown in this zone too."""
    comp = ctx.competition
    assert comp is not None
    seat: Seat = ctx.authenticate_seat(comp)
    name = line.rest.split()[0] if line.rest.split() else ""
    try:
        zone(name)
    except ValueError as exc:
        _answer(ctx, "Time zone", [{"heading": "Not changed", "text": str(exc)}])
        return ctx.handled(Status.REJECTED, "zone: unknown")
    player = ctx.session.get(Player, seat.player_id)
    assert player is not None
    player.time_zone = name
    _answer(ctx, "Time zone", [{"heading": "Set", "text": f"Deadlines are shown in {name} too."}])
    return ctx.handled(Status.APPLIED, f"zone {name}")


@command(
    "ZINE",
    help="the zine: ZINE OFF (no more issues; turn reports still come) or ZINE ON; "
    "ZINE ATTACH (its PDF attached too) or ZINE INLINE (the issue in the mail, no PDF)",
    usage="ZINE OFF | ZINE ON | ZINE ATTACH | ZINE INLINE",
    audience=Audience.SEAT,
    game=GAME,
    needs_code=True,
    priority=60,
)
def zine_command(ctx: MailContext, line: CommandLine) -> Handled:
    """``ZINE OFF|ON|ATTACH|INLINE``: each team's choice of whether and how the newsletter
    comes. OFF and ON need no secret: they are what the List-Unsubscribe link sends, from a
    client that knows none, and a forged one only stops or starts a newsletter, which the
    answer to the real address tells of."""
    from pbm.games.flungo.zine.delivery import DELIVERIES, wants_pdf

    comp = ctx.competition
    assert comp is not None
    choice = (line.rest.split() or [""])[0].lower()
    if choice in ("off", "on"):
        return _zine_on_off(ctx, comp, choice == "on")
    seat = ctx.authenticate_seat(comp)
    if choice not in DELIVERIES:
        text = (
            f"You get the zine {ZINE_AS[seat.zine_pdf]}. Send ZINE ATTACH to have its PDF "
            "attached too, or ZINE INLINE for the issue in the mail alone. ZINE OFF stops it "
            "(your turn reports still come); ZINE ON starts it again."
        )
        _answer(ctx, "The zine", [{"heading": "Delivery", "text": text}])
        return ctx.handled(Status.REJECTED if choice else Status.APPLIED, "zine: asked")
    seat.zine_pdf = wants_pdf(choice)
    ctx.record("zine", seat=seat.number, pdf=seat.zine_pdf)
    text = f"Each issue of the zine for {comp.code} will come {ZINE_AS[seat.zine_pdf]}."
    _answer(ctx, "The zine", [{"heading": "Delivery", "text": text}])
    return ctx.handled(Status.APPLIED, f"zine: {'attach' if seat.zine_pdf else 'inline'}")
