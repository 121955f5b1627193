"""The issue model: ONE value per resolved turn, built from the turn's report and the reports
before it, that every format (HTML, plain text, PDF) renders.

:func:`build_issue` never plays or rolls anything: scorecards are the engine's own
(:func:`engine.flungo.scorecard.cards`), stories come from :mod:`pbm.games.flungo.zine.story`,
figures from
:mod:`pbm.games.flungo.zine.stats`, pictures from :mod:`pbm.games.flungo.zine.charts`.

Links inside the model are paths relative to the archive's root (a flat folder, see
:mod:`pbm.games.flungo.zine.archive`), so the same model serves the archive page, the mail and the
PDF.

Extension point: ``Issue.sections`` holds extra :class:`Section` values that every renderer
prints after the season's figures. Hit for Six by post (Test standings, The Averages) will add
its sections there; nothing else in the model needs to change.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from engine.flungo.competition import (
    Competition,
    CompetitionKind,
    describe_entrant,
    fixture_teams,
    result_of,
    round_turns,
    standings,
)
from engine.flungo.events import EventKind
from engine.flungo.fitness import injury_points_text
from engine.flungo.fixtures import Fixture
from engine.flungo.language import canonical
from engine.flungo.orders import Orders
from engine.flungo.scorecard import CLOSED_TEXT, InningsCard, length_text, super_over_name
from engine.flungo.squad import Team
from engine.flungo.state import MatchState
from engine.flungo.turn import replay_document
from pbm.core.types import parse_utc
from pbm.games.flungo.schedule import format_deadline
from pbm.games.flungo.zine import charts
from pbm.games.flungo.zine.source import MatchTurn, TurnReport
from pbm.games.flungo.zine.stats import PlayerRecord, Tally, match_cards, rates, tally_matches
from pbm.games.flungo.zine.story import over_runs, partnerships, write_report

__all__ = [
    "PAGE_DIGEST_HEX",
    "Chart",
    "FixtureLine",
    "Issue",
    "MatchView",
    "Section",
    "StatTable",
    "build_issue",
    "finished_matches",
    "legacy_player_href",
    "legacy_team_href",
    "page_slug",
    "player_href",
    "slug",
    "team_href",
]

MASTHEAD = "The Cosmic Celebrity Cricket Gazette"


def slug(*parts: str) -> str:
    """A file-name-safe, unique slug: readable letters plus a short hash of the exact text."""
    text = "\x1f".join(parts)
    readable = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")[:40] or "x"
    return f"{readable}-{hashlib.sha256(text.encode()).hexdigest()[:6]}"


#: Hex digits of SHA-256 in a team's or cricketer's page name: 128 bits, so no two names
#: share a page by chance or by search (six digits, 24 bits, took seconds of CPU to collide
#: two teams named alike but for case; issue 23). The archive build still refuses a
#: collision outright (:mod:`pbm.games.flungo.zine.archive`), so one team's page never shows
#: another.
PAGE_DIGEST_HEX = 32


def page_slug(*parts: str) -> str:
    """A team's or cricketer's page name: readable letters plus :data:`PAGE_DIGEST_HEX` hex
    digits of SHA-256 over the exact text (so names differing only by case differ here)."""
    text = "\x1f".join(parts)
    readable = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")[:40] or "x"
    return f"{readable}-{hashlib.sha256(text.encode()).hexdigest()[:PAGE_DIGEST_HEX]}"


def team_href(team: str) -> str:
    """The team's page in the archive."""
    return f"team-{page_slug(team)}.html"


def player_href(team: str, name: str) -> str:
    """A cricketer's career page: one per (team, name), so two teams' Elvis are two pages."""
    return f"player-{page_slug(team, name)}.html"


def legacy_team_href(team: str) -> str:
    """The team's page name before issue 23 (six hex digits): kept as a redirect."""
    return f"team-{slug(team)}.html"


def legacy_player_href(team: str, name: str) -> str:
    """A cricketer's page name before issue 23: kept as a redirect."""
    return f"player-{slug(team, name)}.html"


def issue_href(code: str, number: int, ext: str = "html") -> str:
    """An issue's page (or PDF) in the archive."""
    return f"issue-{slug(code)}-{number:03d}.{ext}"


@dataclass(frozen=True, slots=True)
class Chart:
    """A picture: its kind (``worm``, ``manhattan``, ...) and the SVG."""

    kind: str
    svg: str


@dataclass(frozen=True, slots=True)
class StatTable:
    """A table of figures: a title, column headers, rows of cells, and per row an optional
    link (``href``) for the first cell. ``numeric`` marks right-aligned columns."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    links: tuple[str, ...] = ()
    numeric: tuple[bool, ...] = ()
    widths: tuple[int, ...] = ()  # plain-text column widths (first column absorbs the rest)


@dataclass(frozen=True, slots=True)
class Section:
    """An extra section (the extension point: Hit for Six's Test standings, The Averages)."""

    title: str
    paragraphs: tuple[str, ...] = ()
    tables: tuple[StatTable, ...] = ()


@dataclass(frozen=True, slots=True)
class FixtureLine:
    """A fixture for the reader: who, where, pitch and weather, when, and the result."""

    id: str
    label: str
    home: str
    away: str
    pitch_name: str
    pitch: str
    weather: str
    turns: str
    result: str
    home_href: str = ""
    away_href: str = ""


@dataclass(frozen=True, slots=True)
class InningsView:
    """An innings' scorecard, ready to print."""

    title: str
    batting: StatTable
    dnb: str
    extras: str
    total: str
    fall_of_wickets: str
    bowling: StatTable


@dataclass(frozen=True, slots=True)
class XIView:
    """A side's XI in batting order, captain (c) and keeper (†) marked."""

    team: str
    href: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchView:
    """One match in this issue."""

    fixture_id: str
    label: str
    home: str
    away: str
    pitch: str
    status: str  # "toss", "in play", "finished"
    headline: str
    toss: str
    xis: tuple[XIView, ...]
    innings: tuple[InningsView, ...]
    result: str
    story: tuple[str, ...]
    charts: tuple[Chart, ...]
    happenings: tuple[str, ...]
    defaults: tuple[str, ...]
    seed_sha256: str
    seed: int | None


@dataclass(frozen=True, slots=True)
class DiceLine:
    """A match's seed: its commitment, the seed once revealed, and how to replay it."""

    fixture_id: str
    label: str
    sha256: str
    seed: int | None
    replay: str = ""
    orders: tuple[tuple[str, str], ...] = ()  # (team, canonical orders text) once revealed
    files: tuple[tuple[str, str], ...] = ()  # (archive path, content): squads and orders


@dataclass(frozen=True, slots=True)
class TeamSheet:
    """A team as published before a ball is bowled: its squad with stats and styles."""

    name: str
    href: str
    squad: StatTable


@dataclass(frozen=True, slots=True)
class Issue:
    """One issue of the zine (see the module docstring)."""

    masthead: str
    code: str
    competition: str
    kind: str
    format: str
    number: int
    date: str
    stage: str
    editorial: str
    href: str
    pdf_href: str
    teams: tuple[TeamSheet, ...]
    fixtures: tuple[FixtureLine, ...]
    matches: tuple[MatchView, ...]
    table: StatTable | None
    table_chart: Chart | None
    bracket_chart: Chart | None
    draw: tuple[FixtureLine, ...]
    next_fixtures: tuple[FixtureLine, ...]
    next_deadline: str
    byes: tuple[str, ...]
    news: tuple[str, ...]
    figures: tuple[StatTable, ...]
    careers: tuple[StatTable, ...]
    dice_next: tuple[DiceLine, ...]
    dice_done: tuple[DiceLine, ...]
    defaults: tuple[str, ...]
    rulings: tuple[str, ...]
    sections: tuple[Section, ...] = field(default=())
    #: When the stage was played, for machines (the feed, the PDF's date): ISO 8601 UTC or "".
    updated: str = ""

    @property
    def title(self) -> str:
        """``The Cosmic Celebrity Cricket Gazette — Flungo League, issue 3`` (issue 0 is
        ``…, the teams``)."""
        if self.number == 0:
            return f"{self.masthead} — {self.competition}, the teams"
        return f"{self.masthead} — {self.competition}, issue {self.number}"

    def to_json(self) -> dict[str, Any]:
        """The whole model as JSON data (what the Typst template reads)."""
        data: dict[str, Any] = _plain(self)
        data["title"] = self.title
        return data


def _plain(value: Any) -> Any:
    """Dataclasses to dicts and tuples to lists, recursively (``asdict`` without its copies)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return {f: _plain(getattr(value, f)) for f in value.__dataclass_fields__}


# --- helpers ---------------------------------------------------------------------------------


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


def _fmt(x: Any, digits: int = 2) -> str:
    v = float(x)
    return "-" if math.isnan(v) else f"{v:.{digits}f}"


def _card_view(card: InningsCard, state: MatchState) -> InningsView:
    bpo = card.balls_per_over
    so = f"{super_over_name(bpo)}: " if card.super_over else ""
    bat_rows = []
    links = []
    for b in card.batting:
        if b.how_out == "did not bat":
            continue
        sr = f"{100 * b.runs / b.balls:.0f}" if b.balls else "-"
        bat_rows.append(
            (b.name, b.how_out, str(b.runs), str(b.balls), str(b.fours), str(b.sixes), sr)
        )
        links.append(player_href(card.batting_team, b.name))
    bowl_rows = []
    blinks = []
    for w in card.bowling:
        econ = f"{w.runs * bpo / w.balls:.2f}" if w.balls else "-"
        bowl_rows.append((w.name, w.overs, str(w.maidens), str(w.runs), str(w.wickets), econ))
        blinks.append(player_href(card.bowling_team, w.name))
    e = card.extras
    fow = ", ".join(
        f"{f['wicket']}-{f['runs']} ({f['player']}, {f['over']})" for f in card.fall_of_wickets
    )
    return InningsView(
        title=f"{so}{card.batting_team} innings",
        batting=StatTable(
            "Batting",
            ("Batsman", "How out", "R", "B", "4s", "6s", "SR"),
            tuple(bat_rows),
            tuple(links),
            (False, False, True, True, True, True, True),
            (20, 30, 4, 4, 3, 3, 4),
        ),
        dnb=", ".join(b.name for b in card.batting if b.how_out == "did not bat"),
        extras=(
            f"{sum(e.values())} (w {e['wides']}, nb {e['no_balls']}, b {e['byes']}, "
            f"lb {e['leg_byes']})"
        ),
        total=(
            f"{card.runs}/{card.wickets} ({length_text(card.legal_balls, bpo)}; "
            f"{CLOSED_TEXT[card.closed]})"
        ),
        fall_of_wickets=fow,
        bowling=StatTable(
            "Bowling",
            ("Bowler", "O", "M", "R", "W", "Econ"),
            tuple(bowl_rows),
            tuple(blinks),
            (False, True, True, True, True, True),
            (24, 5, 3, 4, 3, 5),
        ),
    )


def _happenings(m: MatchTurn) -> tuple[str, ...]:
    """The turn's non-ball events worth a line: orders, rules, bowling changes, injuries."""
    keep = {
        EventKind.SELECTION,
        EventKind.ORDERS,
        EventKind.BOWLER,
        EventKind.RULE_FIRED,
        EventKind.RULE_REVERTED,
        EventKind.INJURY,
        EventKind.SUPER_OVER,
    }
    out = []
    for e in m.events:
        kind = getattr(e, "kind", None)
        if kind in keep:
            text = str(getattr(e, "text", ""))
            if kind is EventKind.RULE_FIRED and text.endswith("nothing applies"):
                continue
            team = str(getattr(e, "team", ""))
            out.append(f"{team}: {text}" if team and team not in text else text)
    return tuple(out)


def _charts(uid: str, state: MatchState) -> tuple[Chart, ...]:
    spec = state.setup.spec
    unit = "sets" if spec.is_hundred else "overs"
    main = [inn for inn in state.innings if not inn.super_over and inn.balls]
    if not main:
        return ()
    series = []
    stands = []
    for inn in main:
        runs, wk = over_runs(inn, 0)
        bowled = len(runs)
        team = state.team(inn.batting_side).name
        series.append(
            charts.Series(
                team, tuple(int(x) for x in runs[:bowled]), tuple(int(x) for x in wk[:bowled])
            )
        )
        stands.append(
            (
                team,
                [
                    (p.wicket, f"{p.batsmen[0]} & {p.batsmen[1]}", p.runs, not p.broken)
                    for p in partnerships(inn)
                ],
            )
        )
    return (
        Chart("worm", charts.worm(f"{uid}-worm", series, spec.overs, unit)),
        Chart("manhattan", charts.manhattan(f"{uid}-man", series, spec.overs, unit)),
        Chart("partnerships", charts.partnership_bars(f"{uid}-pship", stands)),
    )


def _xi(state: MatchState, side: int) -> XIView:
    sel = state.selections[side]
    team = state.team(side).name
    names = tuple(
        n + (" (c)" if n == sel.captain else "") + (" †" if n == sel.wicketkeeper else "")
        for n in sel.xi
    )
    return XIView(team, team_href(team), names)


def _match_view(m: MatchTurn, code: str) -> MatchView:
    state = m.state
    home, away = state.setup.home.name, state.setup.away.name
    c = state.setup.conditions
    if state.result is not None:
        status, headline = "finished", state.result.text
    elif state.innings:
        status = "in play"
        inn = state.innings[-1]
        length = length_text(inn.legal, state.setup.spec.balls_per_over)
        headline = f"{state.team(inn.batting_side).name} {inn.runs}/{inn.wickets} ({length})"
    else:
        status, headline = "toss", f"{home} v {away}: the toss and the XIs"
    toss = next((e.text for e in state.log if e.kind is EventKind.TOSS), "")
    uid = slug(code, m.fixture_id)
    return MatchView(
        fixture_id=m.fixture_id,
        label=m.label,
        home=home,
        away=away,
        pitch=f"{c.pitch_name}: {c.pitch.name}; weather {c.weather.name}",
        status=status,
        headline=headline,
        toss=toss,
        xis=(_xi(state, 0), _xi(state, 1)),
        innings=tuple(_card_view(card, state) for card in match_cards(state)),
        result=state.result.text if state.result else "",
        story=tuple(write_report(state)),
        charts=_charts(uid, state),
        happenings=_happenings(m),
        defaults=m.defaults,
        seed_sha256=m.seed_sha256,
        seed=m.seed,
    )


def _squad_table(team: Team) -> StatTable:
    """The squad as published: type, stats and bowling style (and injury points, if any)."""
    injured = any(p.injury_points for p in team.players)
    rows = []
    for p in team.players:
        row = (
            p.name,
            p.role.label,
            str(p.batting),
            str(p.bowling),
            str(p.fielding),
            p.bowling_style.value,
        )
        rows.append((*row, str(p.injury_points or "")) if injured else row)
    headers: tuple[str, ...] = ("Player", "Type", "Bat", "Bowl", "Field", "Style")
    numeric: tuple[bool, ...] = (False, False, True, True, True, False)
    widths: tuple[int, ...] = (22, 20, 3, 4, 5, 6)
    if injured:
        headers, numeric, widths = (*headers, "Inj"), (*numeric, True), (*widths, 3)
    return StatTable(
        f"{team.name}: the squad",
        headers,
        tuple(rows),
        tuple(player_href(team.name, p.name) for p in team.players),
        numeric,
        widths,
    )


def _orders_text(state: MatchState, side: int, defaults: tuple[str, ...], strip: bool) -> str:
    if state.team(side).name in defaults:
        return "# no orders: this side played on defaults\n"
    orders = state.orders[side]
    if strip:  # the XI, captain, keeper and toss stand from selection
        orders = replace(orders, xi=None, captain=None, wicketkeeper=None, toss=None)
    return canonical(Orders(match=orders)) + "\n"


def _replay_files(turns: Sequence[MatchTurn], code: str) -> tuple[tuple[str, str], ...]:
    """The match's replay document: its setup, seed and each stage's orders as played, which
    ``pbm verify --file`` plays again ball for ball (:func:`engine.flungo.turn.replay_document`)."""
    import json

    doc = replay_document(turns)
    rel = f"replay/{slug(code, turns[-1].fixture_id)}.json"
    return ((rel, json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"),)


def _dice_done(m: MatchTurn, code: str, earlier: Sequence[TurnReport]) -> DiceLine:
    state = m.state
    turns = [t for rep in earlier for t in rep.matches if t.fixture_id == m.fixture_id]
    turns = [*turns, m] if turns else [m]
    files = _replay_files(turns, code)
    replay = f"pbm verify --file {files[0][0]}"
    orders = tuple(
        (state.team(s).name, _orders_text(turns[0].state, s, turns[0].defaults, False).rstrip())
        for s in (0, 1)
    )
    label = f"{m.label}: {state.setup.home.name} v {state.setup.away.name}"
    return DiceLine(m.fixture_id, label, m.seed_sha256, m.seed, replay, orders, files)


# --- statistics ------------------------------------------------------------------------------


def _leaders(tally: Tally, season: str) -> tuple[StatTable, ...]:
    recs = tally.sorted()
    if not recs:
        return ()
    rt = rates(recs)
    idx = range(len(recs))

    def who(r: PlayerRecord) -> str:
        return f"{r.name} ({r.team})"

    def table(
        title: str, headers: tuple[str, ...], order: list[int], cells: Any, widths: tuple[int, ...]
    ) -> StatTable:
        rows = tuple(cells(k) for k in order[:10])
        return StatTable(
            title,
            headers,
            rows,
            tuple(player_href(recs[k].team, recs[k].name) for k in order[:10]),
            (False, *([True] * (len(headers) - 1))),
            widths,
        )

    bat = sorted((k for k in idx if recs[k].innings), key=lambda k: (-recs[k].runs, recs[k].key))
    bowl = sorted(
        (k for k in idx if recs[k].bowl_balls),
        key=lambda k: (-recs[k].wickets, recs[k].conceded, recs[k].key),
    )
    high = sorted(
        (k for k in idx if recs[k].innings),
        key=lambda k: (-recs[k].high, not recs[k].high_not_out, recs[k].key),
    )
    best = sorted(
        (k for k in idx if recs[k].bowl_balls),
        key=lambda k: (-recs[k].best_w, recs[k].best_r, recs[k].key),
    )
    sixes = sorted((k for k in idx if recs[k].sixes), key=lambda k: (-recs[k].sixes, recs[k].key))
    catches = sorted(
        (k for k in idx if recs[k].catches + recs[k].stumpings),
        key=lambda k: (-(recs[k].catches + recs[k].stumpings), recs[k].key),
    )
    return (
        table(
            f"{season}Batting",
            ("Batsman", "M", "Inn", "NO", "Runs", "HS", "Avg", "SR"),
            bat,
            lambda k: (
                who(recs[k]),
                str(recs[k].matches),
                str(recs[k].innings),
                str(recs[k].not_outs),
                str(recs[k].runs),
                recs[k].high_text,
                _fmt(rt.batting_average[k]),
                _fmt(rt.strike_rate[k], 1),
            ),
            (30, 3, 4, 3, 5, 5, 6, 6),
        ),
        table(
            f"{season}Bowling",
            ("Bowler", "O", "M", "R", "W", "Best", "Avg", "Econ", "SR"),
            bowl,
            lambda k: (
                who(recs[k]),
                recs[k].overs_text,
                str(recs[k].maidens),
                str(recs[k].conceded),
                str(recs[k].wickets),
                recs[k].best_text,
                _fmt(rt.bowling_average[k]),
                _fmt(rt.economy[k]),
                _fmt(rt.bowling_strike_rate[k], 1),
            ),
            (26, 5, 3, 4, 3, 5, 6, 5, 5),
        ),
        table(
            f"{season}Highest scores",
            ("Batsman", "HS", "Balls faced"),
            high,
            lambda k: (who(recs[k]), recs[k].high_text, str(recs[k].balls)),
            (50, 6, 11),
        ),
        table(
            f"{season}Best bowling",
            ("Bowler", "Best", "Wickets"),
            best,
            lambda k: (who(recs[k]), recs[k].best_text, str(recs[k].wickets)),
            (50, 6, 8),
        ),
        table(
            f"{season}Most sixes",
            ("Batsman", "6s", "4s"),
            sixes,
            lambda k: (who(recs[k]), str(recs[k].sixes), str(recs[k].fours)),
            (56, 4, 4),
        ),
        table(
            f"{season}Catches",
            ("Fielder", "Ct", "St"),
            catches,
            lambda k: (who(recs[k]), str(recs[k].catches), str(recs[k].stumpings)),
            (56, 4, 4),
        ),
    )


def career_tally(seasons: Sequence[tuple[str, Sequence[MatchState]]]) -> Tally:
    """Career records: every season's tally added up per (team, name)."""
    career = Tally()
    for season, matches in seasons:
        for rec in tally_matches(matches, season).records.values():
            mine = career.get(rec.team, rec.name, rec.balls_per_over)
            mine.add(rec)
    return career


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
        teams = tuple(TeamSheet(t.name, team_href(t.name), _squad_table(t)) for t in report.squads)
        fixtures = tuple(_fixture_line(comp, f) for f in comp.fixtures)
    matches = tuple(_match_view(m, code) for m in report.matches)

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
    figures = _leaders(season_tally, "")
    career = career_tally([*earlier_seasons, (season, finished_matches(everything))])
    # career leaders only say something new once there is an earlier season
    careers = _leaders(career, "Career: ")[:2] if earlier_seasons else ()

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
    dice_done = tuple(_dice_done(m, code, history) for m in report.matches if m.seed is not None)

    news = tuple(str(getattr(e, "text", "")) for e in report.season_events)
    news += tuple(_season_event_text(e) for e in report.season_events if not getattr(e, "text", ""))
    news += _boosts_text(report.season_events) + tuple(report.notices)
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


def _season_event_text(e: Any) -> str:
    kind = getattr(e, "kind", "")
    if kind in ("fixture_scheduled", "stat_boosted"):
        return ""  # the fixtures are listed; boosts are summed up per team
    if kind == "round_completed":
        return f"Round {e.round} is complete."
    if kind == "competition_finished":
        return f"{e.champion} are the champions!" + (
            f" Runners-up: {e.runner_up}." if e.runner_up else ""
        )
    if kind == "team_eliminated":
        return f"{e.team} are out of the competition."
    if kind == "fixture_ready":
        return f"{e.label}: {e.home} v {e.away} at {e.pitch_name}."
    if kind == "bye_given":
        return f"{e.team} have a bye in round {e.round}."
    if kind == "injury_treated":
        points = f"{e.points} helper point{'s' * (e.points != 1)}"
        if e.remaining:
            return (
                f"{e.team}: {e.player} treated ({points}), not enough: "
                f"{injury_points_text(e.remaining)} left."
            )
        return f"{e.team}: {e.player} treated ({points}) and fit to play."
    if kind == "helper_points_lost":
        return f"{e.team} lost {e.points} helper points: {e.reason}."
    if kind == "player_sits_out":
        return (
            f"{e.team}: {e.player} is injured ({injury_points_text(e.injury_points)}, not "
            "fully treated) and sits out this match; he is healed after it."
        )
    if kind == "player_injured":
        if not e.points:
            return f"{e.team}: {e.player} was hurt but is fit for the next match."
        return (
            f"{e.team}: {e.player} has {injury_points_text(e.points)}: he sits out the "
            "next match unless treated."
        )
    if kind == "player_healed":
        return f"{e.team}: {e.player} is fit again."
    return ""


def _boosts_text(events: Sequence[Any]) -> tuple[str, ...]:
    by_team: dict[str, list[str]] = {}
    for e in events:
        if getattr(e, "kind", "") == "stat_boosted":
            by_team.setdefault(e.team, []).append(f"{e.player} {e.stat} {e.before}→{e.after}")
    from pbm.games.flungo.zine.story import possessive

    return tuple(f"{possessive(t)} helper points: {', '.join(b)}." for t, b in by_team.items())
