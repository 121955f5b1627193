"""The issue model: ONE value per resolved turn, built from the turn's report and the reports
before it, that every format (HTML, plain text, PDF) renders.

:func:`build_issue` never plays or rolls anything: scorecards are the engine's own
(:func:`engine.flungo.scorecard.cards`), stories come from :mod:`pbm.games.flungo.zine.story`,
figures from :mod:`pbm.games.flungo.zine.stats`, pictures from
:mod:`pbm.games.flungo.zine.charts`. The model's parts live beside it, one concern a module:
the values (:mod:`.views`), the archive's file names (:mod:`.links`), a match as an issue
shows it (:mod:`.matches`), the leaders' tables (:mod:`.leaders`) and the season's news in
words (:mod:`.news`).

Links inside the model are paths relative to the archive's root (a flat folder, see
:mod:`pbm.games.flungo.zine.archive`), so the same model serves the archive page, the mail and
the PDF.

Extension point: ``Issue.sections`` holds extra :class:`Section` values that every renderer
prints after the season's figures. Hit for Six by post (Test standings, The Averages) will add
its sections there; nothing else in the model needs to change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from engine.flungo.competition import (
    Competition,
    CompetitionKind,
    describe_entrant,
    fixture_teams,
    result_of,
    round_turns,
    standings,
)
from engine.flungo.fixtures import Fixture
from engine.flungo.state import MatchState
from pbm.core.dates import format_deadline
from pbm.core.types import parse_utc
from pbm.games.flungo.zine import charts
from pbm.games.flungo.zine.leaders import career_tally, leaders
from pbm.games.flungo.zine.links import (
    PAGE_DIGEST_HEX,
    issue_href,
    legacy_player_href,
    legacy_team_href,
    page_slug,
    player_href,
    slug,
    team_href,
)
from pbm.games.flungo.zine.matches import match_view, revealed_dice, squad_table
from pbm.games.flungo.zine.news import boosts_text, season_event_text
from pbm.games.flungo.zine.source import TurnReport
from pbm.games.flungo.zine.stats import tally_matches
from pbm.games.flungo.zine.views import (
    Chart,
    DiceLine,
    FixtureLine,
    Issue,
    MatchView,
    Section,
    StatTable,
    TeamSheet,
)

# The names the renderers, the archive and the tests have always imported from here: the
# model's parts live in views (the values), links (the file names), matches, leaders and
# news (what fills them); build_issue puts them together.
__all__ = [
    "MASTHEAD",
    "PAGE_DIGEST_HEX",
    "Chart",
    "FixtureLine",
    "Issue",
    "MatchView",
    "Section",
    "StatTable",
    "build_issue",
    "career_tally",
    "finished_matches",
    "issue_href",
    "legacy_player_href",
    "legacy_team_href",
    "page_slug",
    "player_href",
    "slug",
    "stamp",
    "team_href",
    "when",
]

MASTHEAD = "The Cosmic Celebrity Cricket Gazette"


def finished_matches(reports: Iterable[TurnReport]) -> list[MatchState]:
    """Every match finished in ``reports``, once each, in the order they finished."""
    seen: dict[str, MatchState] = {}
    for rep in reports:
        for m in rep.matches:
            if m.state.result is not None and m.fixture_id not in seen:
                seen[m.fixture_id] = m.state
    return list(seen.values())


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _instant(text: str | None) -> datetime | None:
    """An ISO 8601 time (any precision, ``Z`` or an offset) as aware UTC, else None."""
    if not text:
        return None
    try:
        return parse_utc(text)
    except ValueError:
        return None


def when(text: str | None) -> str:
    """An ISO 8601 time as people read it: ``Tuesday 5 January 2027, 18:00 UTC`` (a date
    alone as ``5 January 2027``; other text as it is)."""
    if text and re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        t = _instant(text)
        return f"{t.day} {MONTHS[t.month - 1]} {t.year}" if t else text
    t = _instant(text)
    return format_deadline(t) if t is not None else text or ""


def stamp(text: str | None) -> str:
    """An ISO 8601 time as the feed and the PDF want it (``2027-01-05T18:00:00Z``), or ""."""
    t = _instant(text)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ") if t else ""


def _fixture_line(comp: Competition, f: Fixture) -> FixtureLine:
    home, away = fixture_teams(comp, f.id)
    h = home or describe_entrant(comp, f.home)
    a = away or describe_entrant(comp, f.away)
    first, last = round_turns(comp, f.round)
    result = result_of(comp, f.id)
    c = f.conditions
    return FixtureLine(
        f.id,
        f.label,
        h,
        a,
        c.pitch_name,
        c.pitch.name,
        c.weather.name,
        f"turns {first}-{last}",
        result.result_text() if result else "",
        team_href(home) if home else "",
        team_href(away) if away else "",
    )


# --- the issue -------------------------------------------------------------------------------


def _stage_text(report: TurnReport) -> str:
    s = report.stage
    if report.preseason:
        return f"The draw: the teams and fixtures, before round {s.round}'s selection"
    if s.selection:
        return f"Round {s.round}: selection and the toss (before turn {s.turn})"
    return f"Round {s.round}, turn {s.turn}"


def build_issue(
    report: TurnReport,
    history: Sequence[TurnReport] = (),
    *,
    code: str,
    number: int | None = None,
    earlier_seasons: Sequence[tuple[str, Sequence[MatchState]]] = (),
    sections: Sequence[Section] = (),
) -> Issue:
    """The issue for ``report``; ``history`` is the competition's earlier reports (oldest
    first), ``earlier_seasons`` the finished matches of earlier competitions (for careers)."""
    comp = report.competition
    number = number if number is not None else len(history) + 1
    fmt_spec = comp.format.value
    everything = [*history, report]
    first_issue = not history
    teams: tuple[TeamSheet, ...] = ()
    fixtures: tuple[FixtureLine, ...] = ()
    if first_issue:
        teams = tuple(TeamSheet(t.name, team_href(t.name), squad_table(t)) for t in report.squads)
        fixtures = tuple(_fixture_line(comp, f) for f in comp.fixtures)
    matches = tuple(match_view(m, code) for m in report.matches)

    table = table_chart = bracket_chart = None
    rows = standings(comp)
    if comp.kind is CompetitionKind.LEAGUE:
        table = StatTable(
            "League table",
            ("Team", "P", "W", "L", "T", "Pts", "NRR"),
            tuple(
                (
                    r.team,
                    str(r.played),
                    str(r.won),
                    str(r.lost),
                    str(r.tied),
                    str(r.points),
                    r.nrr_text,
                )
                for r in rows
            ),
            tuple(team_href(r.team) for r in rows),
            (False, True, True, True, True, True, True),
            (40, 3, 3, 3, 3, 4, 7),
        )
        table_chart = Chart(
            "table",
            charts.nrr_table(
                slug(code, "table"), [(r.position, r.team, r.points, float(r.nrr)) for r in rows]
            ),
        )
    draw: tuple[FixtureLine, ...] = ()
    if comp.kind is CompetitionKind.KNOCKOUT:
        draw = tuple(_fixture_line(comp, f) for f in comp.fixtures)
        ties = []
        for f in comp.fixtures:
            if f.label == "3rd/4th play-off":
                continue
            line = _fixture_line(comp, f)
            res = result_of(comp, f.id)
            ties.append(
                charts.BracketMatch(
                    f.round, f.label, line.home, line.away, res.winner if res else None
                )
            )
        bracket_chart = Chart("bracket", charts.bracket(slug(code, "bracket"), ties, comp.rounds))

    playing = {m.fixture_id for m in report.matches if m.state.result is None}
    upcoming = [f for f in comp.fixtures if result_of(comp, f.id) is None and f.id not in playing]
    next_round = min((f.round for f in upcoming), default=None)
    next_fixtures = tuple(_fixture_line(comp, f) for f in upcoming if f.round == next_round)

    season = comp.name
    season_tally = tally_matches(finished_matches(everything), season)
    figures = leaders(season_tally, "")
    career = career_tally([*earlier_seasons, (season, finished_matches(everything))])
    # career leaders only say something new once there is an earlier season
    careers = leaders(career, "Career: ")[:2] if earlier_seasons else ()

    dice_next = tuple(
        DiceLine(
            m.fixture_id,
            f"{m.label}: {m.state.setup.home.name} v {m.state.setup.away.name}",
            m.seed_sha256,
            None,
        )
        for m in report.matches
        if m.seed is None
    )
    dice_done = tuple(revealed_dice(m, code, history) for m in report.matches if m.seed is not None)

    news = tuple(str(getattr(e, "text", "")) for e in report.season_events)
    news += tuple(season_event_text(e) for e in report.season_events if not getattr(e, "text", ""))
    news += boosts_text(report.season_events) + tuple(report.notices)
    defaults = tuple(
        f"{t} played on defaults in {m.label} ({m.fixture_id})"
        for m in report.matches
        for t in m.defaults
    )
    del fmt_spec
    # Played when the daemon resolved it; a report stored before that was kept, at its deadline.
    played = report.played_at or (history[-1].next_deadline if history else None)
    return Issue(
        masthead=MASTHEAD,
        code=code,
        competition=comp.name,
        kind=comp.kind.value,
        format=comp.format.value,
        number=number,
        date=when(played),
        stage=_stage_text(report),
        editorial=report.editorial,
        href=issue_href(code, number),
        pdf_href=issue_href(code, number, "pdf"),
        teams=teams,
        fixtures=fixtures,
        matches=matches,
        table=table,
        table_chart=table_chart,
        bracket_chart=bracket_chart,
        draw=draw,
        next_fixtures=next_fixtures,
        next_deadline=when(report.next_deadline),
        byes=report.byes,
        news=tuple(n for n in news if n),
        figures=figures,
        careers=careers,
        dice_next=dice_next,
        dice_done=dice_done,
        defaults=defaults,
        rulings=report.rulings,
        updated=stamp(played),
        sections=tuple(sections),
    )
