"""The mails a season sends: the fixtures when joining closes, a turn report to every team
after every stage, reminders to teams whose orders are missing, the GM's digest per stage and
the alert when the pre-run check holds a stage.

Each builds template context from typed values (the engine's :class:`TurnReport`, its
competition and match states); nothing here parses a sentence back. Every player mail ends
with what pbm will play if the team sends nothing more (:mod:`pbm.games.flungo.defaults`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.flungo.competition import (
    Competition as EngineCompetition,
)
from engine.flungo.competition import (
    champion,
    fixture_text,
    next_fixture,
    next_fixtures,
    standings_text,
)
from engine.flungo.events import Ball, MatchEvent
from engine.flungo.fixtures import Fixture
from engine.flungo.orders import Orders
from engine.flungo.scorecard import scorecard_text
from engine.flungo.season_events import CompetitionFinished, ResultRecorded, TeamEliminated
from engine.flungo.squad import Team
from engine.flungo.state import MatchState
from engine.flungo.turn import MatchTurn, SeasonState, Stage, TurnReport
from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.db.models import (
    Bounce,
    Competition,
    Flag,
    FlagStatus,
    InboundMail,
    MailStatus,
    Player,
    Seat,
    Turn,
)
from pbm.games.flungo.defaults import will_play, will_play_for_seat
from pbm.games.flungo.mail_tables import innings_rows, standings_rows
from pbm.games.flungo.outlook import Outlook, outlook_of, outlooks
from pbm.games.flungo.schedule import format_deadline
from pbm.games.flungo.standing import latest_versions
from pbm.games.flungo.views import competition_ctx
from pbm.outbound.replies import queue_mail

__all__ = [
    "Pending",
    "deadline_text",
    "event_line",
    "fixture_line",
    "match_card",
    "queue_fixtures",
    "queue_hold_alert",
    "queue_reminders",
    "queue_turn_mails",
    "turn_mails",
    "will_play_ctx",
]


def deadline_text(when: datetime | None, player: Player | None) -> str:
    """The deadline in UTC, and in the player's own zone if set."""
    if when is None:
        return "none: the competition is over"
    return format_deadline(when, player.time_zone if player else None)


def will_play_ctx(
    session: Session,
    seat: Seat,
    comp: Competition,
    latest: Mapping[int, tuple[int, str]] | None = None,
    read: tuple[int, Orders] | None = None,
    team: Team | None = None,
    outlook: Outlook | bool | None = True,
) -> dict[str, Any]:
    """What pbm will play if you send nothing more, as template context (``latest``: every
    seat's standing orders, when the caller has read them for all seats at once; ``read``:
    the seat's standing version and the orders its text reads as, when the caller holds
    them, e.g. just merged from a mail: the text is then not read again; ``team``: the
    seat's squad, when the caller has read it; ``outlook``: the team's place in its season,
    when the caller has it (True: look it up; None: before the draw)), with the squad's
    fitness."""
    if outlook is True or outlook is False:
        outlook = outlook_of(session, comp, Team.from_json(seat.team).name)
    if outlook is not None:
        team = outlook.order_squad()
    elif team is None:
        team = Team.from_json(seat.team)
    if read is not None:
        given = read[1] if read[1] != Orders() else None
        wp = will_play(team, given, comp.format, read[0], outlook)
    elif latest is None:
        wp = will_play_for_seat(session, seat, team, comp.format, outlook=outlook)
    else:
        wp = will_play_for_seat(session, seat, team, comp.format, latest.get(seat.id), outlook)
    return {
        "lines": list(wp.lines),
        "notes": list(wp.notes),
        "fitness": list(wp.fitness),
        "plan_problems": list(wp.plan_problems),
        "version": wp.version,
        "retired": seat.retired,
        # a long order is wrapped between words, and never inside one of these
        "names": [p.name for p in team.players],
    }


def match_card(mt: MatchTurn) -> str:
    """The match so far as a scorecard; its seed is shown only once revealed."""
    text = scorecard_text(mt.state)
    seed = mt.state.setup.seed
    if mt.seed is None:
        text = text.replace(f"; seed {seed}", f"; seed committed, SHA-256 {mt.seed_sha256}")
    return text


def fixture_line(
    ecomp: EngineCompetition, team: str, nexts: Mapping[str, Fixture] | None = None
) -> str | None:
    """The team's next fixture (opponent, pitch, weather, turns), or None. ``nexts`` is
    :func:`next_fixtures` of ``ecomp`` when a caller asks for every team."""
    f = nexts.get(team) if nexts is not None else next_fixture(ecomp, team)
    return fixture_text(ecomp, f) if f is not None else None


def _xis(state: MatchState) -> list[dict[str, Any]]:
    return [
        {
            "team": state.team(side).name,
            "xi": ", ".join(state.selections[side].xi),
            "captain": state.selections[side].captain,
            "keeper": state.selections[side].wicketkeeper,
        }
        for side in (0, 1)
    ]


def event_line(e: MatchEvent) -> str:
    """A match event as the turn report lists it: naming its team first, so a house side's
    "no XI given" never reads like the manager's own orders lost (the toss and the result
    name their team already)."""
    if not e.team or e.text.startswith(e.team):
        return e.text
    return f"{e.team}: {e.text}"


def _players(session: Session, comp: Competition) -> dict[int, Player]:
    ids = [s.player_id for s in comp.seats]
    return {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(ids)))}


def _mailable(player: Player | None) -> bool:
    return player is not None and player.undeliverable_at is None


def _season_lines(report: TurnReport) -> list[str]:
    lines = []
    for e in report.season_events:
        if isinstance(e, ResultRecorded):
            lines.append(e.text)
        elif isinstance(e, TeamEliminated):
            lines.append(f"{e.team} are out.")
        elif isinstance(e, CompetitionFinished):
            lines.append(f"{e.champion} are the champions!")
    return lines


def _next_ctx(following: Turn | None) -> dict[str, Any]:
    if following is None:
        return {"label": None, "selection": False}
    stage = Stage(following.round, following.turn, following.selection)
    return {"label": stage.label, "selection": stage.selection}


@dataclass(frozen=True, slots=True)
class Pending:
    """A mail to queue: what :func:`~pbm.outbound.replies.queue_mail` renders (``ctx`` is plain JSON
    values, so a split stage's batch of them can wait in a row for any worker)."""

    kind: str
    to: str
    ctx: dict[str, Any]


def queue_turn_mails(
    session: Session,
    config: Config,
    clock: Clock,
    comp: Competition,
    turn: Turn,
    report: TurnReport,
    following: Turn | None,
) -> int:
    """A turn report to every team (but retired ones and bouncing addresses) and the GM's
    digest for the stage. Returns how many mails were queued."""
    mails = turn_mails(session, config, comp, turn, report, following)
    for m in mails:
        queue_mail(session, config, clock, kind=m.kind, to=m.to, ctx=m.ctx)
    return len(mails)


def turn_mails(
    session: Session,
    config: Config,
    comp: Competition,
    turn: Turn,
    report: TurnReport,
    following: Turn | None,
    only: Seat | None = None,
) -> list[Pending]:
    """The mails :func:`queue_turn_mails` queues, each team's report then the GM's digest;
    with ``only``, that seat's report alone (a copy its manager asked for: REPORT)."""
    players = _players(session, comp)
    ecomp = report.competition
    by_team: dict[str, MatchTurn] = {}
    for mt in report.matches:
        home, away = mt.state.setup.home.name, mt.state.setup.away.name
        by_team[home] = by_team[away] = mt
    cards = {mt.fixture_id: match_card(mt) for mt in report.matches}
    standing = latest_versions(session, comp)
    base = {
        "competition": competition_ctx(comp),
        "stage": report.stage.label,
        "issue": turn.issue,
        "season": _season_lines(report),
        "table": standings_text(ecomp) if any(ecomp.results) else "",
        "table_rows": standings_rows(ecomp) if any(ecomp.results) else [],
        "champion": champion(ecomp),
        "next": _next_ctx(following),
        "editorial": report.editorial,
    }
    out: list[Pending] = []
    frozen = (turn.orders or {}).get("teams", {})
    nexts = next_fixtures(ecomp)
    # the season after the stage, read once for every team's fitness and promise
    views = outlooks(SeasonState.from_text(comp.season)) if comp.season else {}
    for seat in comp.seats if only is None else [only]:
        player = players.get(seat.player_id)
        if only is None and (seat.retired or not _mailable(player)):
            continue
        team = Team.from_json(seat.team).name
        mine = by_team.get(team)
        match: dict[str, Any] | None = None
        if mine is not None:
            opp = (
                mine.state.setup.away.name
                if mine.state.setup.home.name == team
                else (mine.state.setup.home.name)
            )
            match = {
                "label": mine.label,
                "fixture_id": mine.fixture_id,
                "opponent": opp,
                # the text is wrapped between words, never inside one of these
                "names": [
                    p.name
                    for t in (mine.state.setup.home, mine.state.setup.away)
                    for p in t.players
                ],
                "card": cards[mine.fixture_id],
                "scorecard": innings_rows(mine.state),
                "events": [event_line(e) for e in mine.events if not isinstance(e, Ball)],
                "xis": _xis(mine.state) if report.stage.selection else [],
                "defaults": team in mine.defaults,
                "result": mine.state.result.text if mine.state.result else None,
                "seed": mine.seed,
                "seed_sha256": mine.seed_sha256,
                "orders": [
                    {"team": n, "text": frozen.get(n) or "(none: the defaults)"}
                    for n in (mine.state.setup.home.name, mine.state.setup.away.name)
                ]
                if mine.seed is not None
                else [],
            }
        out.append(
            Pending(
                "turn-report",
                player.address if player else "",
                {
                    **base,
                    "notes": [],
                    "team_name": team,
                    "match": match,
                    "bye": team in report.byes,
                    "fixture": fixture_line(ecomp, team, nexts),
                    "deadline": deadline_text(following.deadline if following else None, player),
                    "will_play": will_play_ctx(
                        session, seat, comp, standing, outlook=views.get(team)
                    ),
                },
            )
        )
    if only is not None:
        return out
    out.append(
        Pending(
            "turn-digest",
            config.gm.address,
            {**base, **digest_ctx(session, comp, turn, report, following)},
        )
    )
    return out


def digest_ctx(
    session: Session,
    comp: Competition,
    turn: Turn,
    report: TurnReport | None,
    following: Turn | None,
) -> dict[str, Any]:
    """The GM's digest of one stage: orders in and missing per team, who played on defaults,
    flags waiting, bounces and dead letters since the stage opened, results, anything held."""
    players = _players(session, comp)
    frozen = turn.orders or {}
    sent = set(frozen.get("sent", ()))
    defaults = {n for m in (report.matches if report else ()) for n in m.defaults}
    teams = []
    for seat in comp.seats:
        name = Team.from_json(seat.team).name
        player = players.get(seat.player_id)
        teams.append(
            {
                "seat": seat.number,
                "team": name,
                "address": player.address if player else "?",
                "sent": name in sent,
                "defaults": name in defaults,
                "retired": seat.retired,
                "house": seat.house,
                "missed": seat.missed,
                "away": (
                    deadline_text(seat.away_until, None)
                    if seat.away_until is not None and seat.away_until > turn.deadline
                    else None
                ),
                "bouncing": player is not None and player.undeliverable_at is not None,
            }
        )
    since = turn.opened_at
    flags = session.scalars(
        select(Flag).where(Flag.competition_id == comp.id, Flag.status == FlagStatus.OPEN)
    ).all()
    bounces = session.scalars(select(Bounce).where(Bounce.created_at >= since)).all()
    dead = session.scalars(
        select(InboundMail).where(
            InboundMail.status == MailStatus.SHUNTED, InboundMail.received_at >= since
        )
    ).all()
    return {
        "notes": [],
        "teams": teams,
        "flags": [{"id": f.id, "line": f.line, "text": f.text} for f in flags],
        "bounces": [{"address": b.address, "reason": b.reason} for b in bounces],
        "dead_letters": [{"id": m.id, "from": m.from_addr or "?"} for m in dead],
        "held": comp.hold_reason,
        "status": comp.status,
        "next_deadline": deadline_text(following.deadline if following else None, None),
        "deadline_note": following.note if following else None,
    }


def queue_fixtures(
    session: Session, config: Config, clock: Clock, comp: Competition, first: Turn
) -> int:
    """Joining has closed: every team gets the fixtures with their pitches and weather, its
    own first match and the selection deadline."""
    assert comp.season is not None
    state = SeasonState.from_text(comp.season)
    ecomp = state.competition
    nexts = next_fixtures(ecomp)
    players = _players(session, comp)
    fixtures = [fixture_text(ecomp, f) for f in ecomp.fixtures]
    byes = [f"Round {r}: {t}" for r, t in ecomp.byes]
    views = outlooks(state)
    n = 0
    for seat in comp.seats:
        player = players.get(seat.player_id)
        if seat.retired or not _mailable(player):
            continue
        team = Team.from_json(seat.team).name
        queue_mail(
            session,
            config,
            clock,
            kind="fixtures",
            to=player.address if player else "",
            ctx={
                "notes": [],
                "competition": competition_ctx(comp),
                "team_name": team,
                "fixtures": fixtures,
                "byes": byes,
                "fixture": fixture_line(ecomp, team, nexts),
                "stage": Stage(first.round, first.turn, first.selection).label,
                "deadline": deadline_text(first.deadline, player),
                "will_play": will_play_ctx(session, seat, comp, outlook=views.get(team)),
            },
        )
        n += 1
    return n


def queue_reminders(
    session: Session,
    config: Config,
    clock: Clock,
    comp: Competition,
    turn: Turn,
    missing: list[Seat],
) -> int:
    """A reminder to each team whose orders for this stage are missing."""
    players = _players(session, comp)
    state = SeasonState.from_text(comp.season) if comp.season else None
    nexts = next_fixtures(state.competition) if state else None
    views = outlooks(state) if state else {}
    n = 0
    for seat in missing:
        player = players.get(seat.player_id)
        if seat.retired or not _mailable(player):
            continue
        team = Team.from_json(seat.team).name
        queue_mail(
            session,
            config,
            clock,
            kind="reminder",
            to=player.address if player else "",
            ctx={
                "notes": [],
                "competition": competition_ctx(comp),
                "team_name": team,
                "stage": Stage(turn.round, turn.turn, turn.selection).label,
                "deadline": deadline_text(turn.deadline, player),
                "fixture": fixture_line(state.competition, team, nexts) if state else None,
                "will_play": will_play_ctx(session, seat, comp, outlook=views.get(team)),
            },
        )
        n += 1
    return n


def queue_hold_alert(
    session: Session, config: Config, clock: Clock, comp: Competition, turn: Turn, why: str
) -> None:
    """Tell the GM the pre-run check held a stage, with the stage's digest."""
    queue_mail(
        session,
        config,
        clock,
        kind="gm-hold",
        to=config.gm.address,
        ctx={
            "competition": competition_ctx(comp),
            "stage": Stage(turn.round, turn.turn, turn.selection).label,
            "reason": why,
            **digest_ctx(session, comp, turn, None, turn),
        },
    )
