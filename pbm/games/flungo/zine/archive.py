"""The archive: a static site of every issue, rebuilt from the turn reports, deterministically.

Layout (one flat folder, so every link is a plain relative file name that works from the file
system and from any web server)::

    index.html                  every issue, newest first
    issue-<code>-NNN.html/.pdf  each issue, its PDF beside it
    teams.html, team-*.html     each team: squad, career records, results
    player-*.html               each cricketer's career page, one per (team, name)
                                (and, under the six-digit names of before issue 23, a page
                                that sends the reader on: old links keep working)
    tables.html                 the latest league tables and knockout draws
    atom.xml                    the feed
    replay/<match>/…            squads and orders to replay each finished match

Nothing in it refers to anything outside the folder.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from engine.flungo.squad import Player, Team
from engine.flungo.state import MatchState
from pbm.core.errors import PbmError
from pbm.games.flungo.zine.atom import atom_feed
from pbm.games.flungo.zine.matches import squad_row
from pbm.games.flungo.zine.model import (
    MASTHEAD,
    Issue,
    StatTable,
    build_issue,
    finished_matches,
    legacy_player_href,
    legacy_team_href,
    player_href,
    team_href,
)
from pbm.games.flungo.zine.render import html_page, issue_html, issue_pdf, pdf_inputs, pdf_key
from pbm.games.flungo.zine.source import TurnReport
from pbm.games.flungo.zine.stats import PlayerRecord, Tally, rates, tally_matches

__all__ = ["ArchiveResult", "PageCollision", "build_archive", "build_issues"]


class PageCollision(PbmError):
    """Two teams or cricketers were given one page name. The build stops before writing
    either: one team's page must never show another's (issue 23). With 128 bits of SHA-256
    in a page name this takes a hash collision nobody can search for."""


def _claim_pages(members: dict[str, list[str]]) -> None:
    """Every team's and cricketer's page name, checked unique before anything is written
    (teams first, so a clash of teams is the one reported)."""
    owner: dict[str, str] = {}

    def claim(href: str, label: str) -> None:
        other = owner.setdefault(href, label)
        if other != label:
            raise PageCollision(
                f"the archive would give {other} and {label} the same page ({href}): "
                "not built, so neither page shows the other"
            )

    for team in members:
        claim(team_href(team), f'the team "{team}"')
    for team, names in members.items():
        for name in names:
            claim(player_href(team, name), f'"{name}" of the team "{team}"')


def _legacy_pages(members: dict[str, list[str]]) -> dict[str, list[tuple[str, str]]]:
    """The page names of before issue 23, each with the page(s) it now stands for."""
    old: dict[str, list[tuple[str, str]]] = {}
    for team, names in members.items():
        old.setdefault(legacy_team_href(team), []).append((team, team_href(team)))
        for name in names:
            old.setdefault(legacy_player_href(team, name), []).append(
                (f"{name} ({team})", player_href(team, name))
            )
    return old


NAV = (
    ("index.html", "All issues"),
    ("tables.html", "Tables"),
    ("teams.html", "Teams"),
    ("atom.xml", "Feed"),
)


@dataclass(slots=True)
class ArchiveResult:
    """What a build wrote: the issues and every file (relative paths, sorted)."""

    issues: list[Issue] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def build_issues(seasons: Sequence[tuple[str, Sequence[TurnReport]]]) -> list[list[Issue]]:
    """Every issue of every competition (``(code, reports)`` oldest first), careers counting
    the competitions before each one."""
    out: list[list[Issue]] = []
    earlier: list[tuple[str, Sequence[MatchState]]] = []
    for code, reports in seasons:
        # The draw's teams issue, when there is one, is issue 0: the stages keep their numbers.
        start = 0 if reports and reports[0].preseason else 1
        issues = [
            build_issue(rep, reports[:k], code=code, number=k + start, earlier_seasons=earlier)
            for k, rep in enumerate(reports)
        ]
        out.append(issues)
        if reports:
            earlier.append((reports[-1].competition.name, finished_matches(reports)))
    return out


def _write(out: Path, rel: str, data: str | bytes, files: list[str]) -> None:
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    files.append(rel)


def _page(template: str, title: str, **context: object) -> str:
    return html_page(
        template,
        link_base="",
        nav=NAV,
        feed="atom.xml",
        page_title=f"{title} — {MASTHEAD}",
        **context,
    )


def _fmt(x: float, digits: int = 2) -> str:
    return "-" if x != x else f"{x:.{digits}f}"


def _career_tables(
    recs: Sequence[PlayerRecord], first: str, link: bool
) -> tuple[StatTable, StatTable, StatTable]:
    rt = rates(recs) if recs else None
    bat, bowl, fld, links = [], [], [], []
    for k, r in enumerate(recs):
        label = r.name if first == "name" else (r.seasons[0] if r.seasons else "")
        if first == "total":
            label = "Career"
        links.append(player_href(r.team, r.name) if link else "")
        assert rt is not None
        bat.append(
            (
                label,
                str(r.matches),
                str(r.innings),
                str(r.not_outs),
                str(r.runs),
                r.high_text,
                _fmt(rt.batting_average[k]),
                _fmt(rt.strike_rate[k], 1),
                str(r.fifties),
                str(r.hundreds),
                str(r.sixes),
            )
        )
        bowl.append(
            (
                label,
                r.overs_text,
                str(r.maidens),
                str(r.conceded),
                str(r.wickets),
                r.best_text,
                _fmt(rt.bowling_average[k]),
                _fmt(rt.economy[k]),
                _fmt(rt.bowling_strike_rate[k], 1),
            )
        )
        fld.append((label, str(r.catches), str(r.stumpings)))
    head = "Player" if first == "name" else "Season"
    return (
        StatTable(
            "Batting",
            (head, "M", "Inn", "NO", "Runs", "HS", "Avg", "SR", "50", "100", "6s"),
            tuple(bat),
            tuple(links),
            num(11),
        ),
        StatTable(
            "Bowling",
            (head, "O", "M", "R", "W", "Best", "Avg", "Econ", "SR"),
            tuple(bowl),
            tuple(links),
            num(9),
        ),
        StatTable("Fielding", (head, "Ct", "St"), tuple(fld), tuple(links), num(3)),
    )


def num(n: int) -> tuple[bool, ...]:
    """Column alignment: a name column, then ``n - 1`` numeric ones."""
    return (False, *([True] * (n - 1)))


MANIFEST = ".zine-pdfs.json"


def _pdfs(issues: Sequence[Issue], out: Path, jobs: int) -> dict[str, bytes | None]:
    """Each issue's PDF, compiled on ``jobs`` threads; ``None`` for a PDF already in ``out``
    made from exactly the same inputs (see :func:`pbm.games.flungo.zine.render.pdf_key`)."""
    try:
        known = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    inputs = {i.pdf_href: pdf_inputs(i) for i in issues}
    keys = {i.pdf_href: pdf_key(i, inputs[i.pdf_href]) for i in issues}
    todo = [
        i
        for i in issues
        if known.get(i.pdf_href) != keys[i.pdf_href] or not (out / i.pdf_href).is_file()
    ]
    made: dict[str, bytes | None] = {i.pdf_href: None for i in issues}
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        pdfs = pool.map(lambda i: issue_pdf(i, inputs[i.pdf_href]), todo)
        for issue, pdf in zip(todo, pdfs, strict=True):
            made[issue.pdf_href] = pdf
    (out / MANIFEST).write_text(json.dumps(keys, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return made


def build_archive(
    seasons: Sequence[tuple[str, Sequence[TurnReport]]],
    out: Path,
    *,
    pdf: bool = True,
    jobs: int = 2,
) -> ArchiveResult:
    """(Re)build the whole archive into ``out`` from ``(code, reports)`` pairs, oldest first.

    The same reports always give the same bytes (no clock is read; a PDF's date is its
    issue's). PDFs are compiled on ``jobs`` threads, and a PDF already in ``out`` whose inputs
    have not changed (``.zine-pdfs.json`` keeps their digests) is kept as it is.
    """
    out.mkdir(parents=True, exist_ok=True)
    result = ArchiveResult()
    files = result.files
    all_issues = build_issues(seasons)
    flat = [i for issues in all_issues for i in issues]

    # careers: per season per (team, name), and summed
    per_season: dict[tuple[str, str], list[PlayerRecord]] = {}
    career = Tally()
    squads: dict[str, Team] = {}
    results: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {}
    for (code, reports), issues in zip(seasons, all_issues, strict=True):
        if not reports:
            continue
        season = reports[-1].competition.name
        matches = finished_matches(reports)
        for rec in tally_matches(matches, season).sorted():
            per_season.setdefault(rec.key, []).append(rec)
            career.get(rec.team, rec.name, rec.balls_per_over).add(rec)
        for t in reports[-1].squads:
            squads[t.name] = t
        where: dict[str, str] = {}
        for issue in issues:
            for m in issue.matches:
                if m.status == "finished":
                    where[m.fixture_id] = issue.href
        for state in matches:
            fid = next(
                (m.fixture_id for rep in reports for m in rep.matches if m.state is state), ""
            )
            outcome = state.result.text if state.result else ""
            text = f"{state.setup.home.name} v {state.setup.away.name}: {outcome}"
            for side in (0, 1):
                team = state.team(side).name
                seasons_of = results.setdefault(team, [])
                if not seasons_of or seasons_of[-1][0] != season:
                    seasons_of.append((season, []))
                seasons_of[-1][1].append((text, where.get(fid, "")))
        del code

    names_by_player: dict[str, list[str]] = {}
    for t in squads.values():
        for p in t.players:
            names_by_player.setdefault(p.name, []).append(t.name)

    team_names = sorted(set(squads) | {k[0] for k in career.records})
    members_of: dict[str, list[str]] = {}
    for team in team_names:
        squad = squads.get(team)
        names = [p.name for p in squad.players] if squad else []
        names += sorted(n for t, n in career.records if t == team and n not in names)
        members_of[team] = names
    _claim_pages(members_of)  # before a file is written: a clash leaves the archive as it was
    pdfs = _pdfs(flat, out, jobs) if pdf else {}
    for issue in flat:
        result.issues.append(issue)
        _write(out, issue.href, issue_html(issue, ""), files)
        if pdf:
            data = pdfs[issue.pdf_href]
            if data is None:
                files.append(issue.pdf_href)
            else:
                _write(out, issue.pdf_href, data, files)
        for d in issue.dice_done:
            for rel, content in d.files:
                _write(out, rel, content, files)
    for team in team_names:
        squad = squads.get(team)
        members = members_of[team]
        recs = [career.records.get((team, n)) or PlayerRecord(team, n) for n in members]
        bat, bowl, _ = _career_tables(recs, "name", True)
        squad_rows = tuple(squad_row(p) for p in (squad.players if squad else ()))
        squad_table = StatTable(
            "Squad",
            ("Player", "Type", "Bat", "Bowl", "Field", "Style"),
            squad_rows,
            tuple(player_href(team, p.name) for p in (squad.players if squad else ())),
            (False, False, True, True, True, False),
        )
        _write(
            out,
            team_href(team),
            _page(
                "team.html",
                team,
                team=team,
                squad=squad_table,
                batting=bat,
                bowling=bowl,
                results=results.get(team, []),
            ),
            files,
        )
        for name in members:
            player: Player | None = None
            if squad is not None:
                player = next((p for p in squad.players if p.name == name), None)
            seasons_recs = per_season.get((team, name), [])
            total = career.records.get((team, name)) or PlayerRecord(team, name)
            rows = [*seasons_recs, total]
            bat_s, bowl_s, fld_s = _career_tables(rows, "season", False)
            # the last row is the career total
            bat_s, bowl_s, fld_s = (
                StatTable(
                    t.title, t.headers, (*t.rows[:-1], ("Career", *t.rows[-1][1:])), (), t.numeric
                )
                for t in (bat_s, bowl_s, fld_s)
            )
            others = tuple(
                (t, player_href(t, name)) for t in names_by_player.get(name, []) if t != team
            )
            _write(
                out,
                player_href(team, name),
                _page(
                    "player.html",
                    f"{name} ({team})",
                    name=name,
                    team=team,
                    team_href=team_href(team),
                    role=player.role.label if player else "Cricketer",
                    style=player.bowling_style.value if player else "",
                    stats=(
                        f"batting {player.batting}, bowling {player.bowling}, "
                        f"fielding {player.fielding}"
                    )
                    if player
                    else "",
                    others=others,
                    batting=bat_s,
                    bowling=bowl_s,
                    fielding=fld_s,
                ),
                files,
            )
    for rel, pages in sorted(_legacy_pages(members_of).items()):
        _write(out, rel, _page("moved.html", pages[0][0], pages=pages), files)
    _write(
        out,
        "teams.html",
        _page("teams.html", "The teams", teams=[(t, team_href(t)) for t in team_names]),
        files,
    )
    latest = [issues[-1] for issues in all_issues if issues]
    _write(out, "tables.html", _page("tables.html", "Tables", issues=latest), files)
    comps = [
        {"name": issues[-1].competition, "code": issues[-1].code, "issues": list(reversed(issues))}
        for issues in all_issues
        if issues
    ]
    _write(
        out,
        "index.html",
        _page("index.html", "The archive", masthead=MASTHEAD, competitions=list(reversed(comps))),
        files,
    )
    entries = sorted(result.issues, key=lambda i: (i.updated, i.code, i.number))
    _write(out, "atom.xml", atom_feed(entries), files)
    result.files = sorted(set(files))
    return result
