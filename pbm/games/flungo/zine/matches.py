"""A match as an issue shows it: its scorecards, XIs, story, charts and happenings, the
squads as published, and once its seed is revealed the orders and replay file that let a
reader play it again (``pbm verify --file``)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.flungo.events import EventKind
from engine.flungo.language import canonical
from engine.flungo.orders import Orders
from engine.flungo.scorecard import CLOSED_TEXT, InningsCard, length_text, super_over_name
from engine.flungo.squad import Player, Team
from engine.flungo.state import MatchState
from engine.flungo.turn import replay_document
from pbm.games.flungo.zine import charts
from pbm.games.flungo.zine.links import player_href, slug, team_href
from pbm.games.flungo.zine.source import MatchTurn, TurnReport
from pbm.games.flungo.zine.stats import match_cards
from pbm.games.flungo.zine.story import over_runs, partnerships, write_report
from pbm.games.flungo.zine.views import (
    Chart,
    DiceLine,
    InningsView,
    MatchView,
    StatTable,
    XIView,
)

__all__ = ["figure", "match_view", "revealed_dice", "squad_table"]


def figure(x: Any, digits: int = 2) -> str:
    v = float(x)
    return "-" if math.isnan(v) else f"{v:.{digits}f}"


def card_view(card: InningsCard, state: MatchState) -> InningsView:
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


def happenings(m: MatchTurn) -> tuple[str, ...]:
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


def match_charts(uid: str, state: MatchState) -> tuple[Chart, ...]:
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


def xi_view(state: MatchState, side: int) -> XIView:
    sel = state.selections[side]
    team = state.team(side).name
    names = tuple(
        n + (" (c)" if n == sel.captain else "") + (" †" if n == sel.wicketkeeper else "")
        for n in sel.xi
    )
    return XIView(team, team_href(team), names)


def match_view(m: MatchTurn, code: str) -> MatchView:
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
        xis=(xi_view(state, 0), xi_view(state, 1)),
        innings=tuple(card_view(card, state) for card in match_cards(state)),
        result=state.result.text if state.result else "",
        story=tuple(write_report(state)),
        charts=match_charts(uid, state),
        happenings=happenings(m),
        defaults=m.defaults,
        seed_sha256=m.seed_sha256,
        seed=m.seed,
    )


def squad_row(p: Player) -> tuple[str, ...]:
    """A squad member as published, in the squad table's columns (Player .. Style)."""
    return (
        p.name,
        p.role.label,
        str(p.batting),
        str(p.bowling),
        str(p.fielding),
        p.bowling_style.value,
    )


def squad_table(team: Team) -> StatTable:
    """The squad as published: type, stats and bowling style (and injury points, if any)."""
    injured = any(p.injury_points for p in team.players)
    rows = []
    for p in team.players:
        row = squad_row(p)
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


def orders_text(state: MatchState, side: int, defaults: tuple[str, ...], strip: bool) -> str:
    if state.team(side).name in defaults:
        return "# no orders: this side played on defaults\n"
    orders = state.orders[side]
    if strip:  # the XI, captain, keeper and toss stand from selection
        orders = replace(orders, xi=None, captain=None, wicketkeeper=None, toss=None)
    return canonical(Orders(match=orders)) + "\n"


def replay_files(turns: Sequence[MatchTurn], code: str) -> tuple[tuple[str, str], ...]:
    """The match's replay document: its setup, seed and each stage's orders as played, which
    ``pbm verify --file`` plays again ball for ball (:func:`engine.flungo.turn.replay_document`)."""
    doc = replay_document(turns)
    rel = f"replay/{slug(code, turns[-1].fixture_id)}.json"
    return ((rel, json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"),)


def revealed_dice(m: MatchTurn, code: str, earlier: Sequence[TurnReport]) -> DiceLine:
    state = m.state
    turns = [t for rep in earlier for t in rep.matches if t.fixture_id == m.fixture_id]
    turns = [*turns, m] if turns else [m]
    files = replay_files(turns, code)
    replay = f"pbm verify --file {files[0][0]}"
    orders = tuple(
        (state.team(s).name, orders_text(turns[0].state, s, turns[0].defaults, False).rstrip())
        for s in (0, 1)
    )
    label = f"{m.label}: {state.setup.home.name} v {state.setup.away.name}"
    return DiceLine(m.fixture_id, label, m.seed_sha256, m.seed, replay, orders, files)
