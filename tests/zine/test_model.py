"""The issue model: one issue per resolved turn, every word and figure from the turn's events."""

from __future__ import annotations

import pytest

from engine.flungo import match as match_module
from engine.flungo.events import EventKind
from engine.flungo.scorecard import cards
from pbm.games.flungo.zine.model import build_issue, finished_matches, player_href, when
from pbm.games.flungo.zine.source import TurnReport
from pbm.games.flungo.zine.stats import rates, tally_matches
from pbm.games.flungo.zine.story import drops, man_of_the_match, partnerships, write_report


def issues_of(reports: list[TurnReport], code: str = "LG1") -> list:
    """Every issue of a competition."""
    return [build_issue(r, reports[:k], code=code) for k, r in enumerate(reports)]


def test_one_issue_per_turn_numbered_in_order(league: list[TurnReport]) -> None:
    """Each report gives one issue, numbered 1.. in order, with the turn's stage."""
    issues = issues_of(league)
    assert [i.number for i in issues] == list(range(1, len(league) + 1))
    assert issues[0].stage.startswith("Round 1: selection")
    assert issues[1].stage == "Round 1, turn 1"


def test_first_issue_publishes_teams_and_fixtures(league: list[TurnReport]) -> None:
    """Before a ball is bowled: every squad of 18 with stats and styles, every fixture with
    its pitch and weather; later issues do not repeat them."""
    first, second = issues_of(league)[:2]
    assert [t.name for t in first.teams] == [t.name for t in league[0].squads]
    squad = first.teams[0].squad
    assert len(squad.rows) == 18
    p = league[0].squads[0].players[0]
    assert squad.rows[0] == (
        p.name,
        p.role.label,
        str(p.batting),
        str(p.bowling),
        str(p.fielding),
        p.bowling_style.value,
    )
    comp = league[0].competition
    assert len(first.fixtures) == len(comp.fixtures)
    f = comp.fixtures[0]
    assert first.fixtures[0].pitch == f.conditions.pitch.name
    assert first.fixtures[0].weather == f.conditions.weather.name
    assert not second.teams and not second.fixtures


def test_scorecards_are_the_engines(league: list[TurnReport]) -> None:
    """Every innings of every match is the engine's own card: totals, batsmen, bowlers."""
    for k, rep in enumerate(league):
        issue = build_issue(rep, league[:k], code="LG1")
        for view, turn in zip(issue.matches, rep.matches, strict=True):
            engine_cards = cards(turn.state)
            assert len(view.innings) == len(engine_cards)
            for iv, card in zip(view.innings, engine_cards, strict=True):
                assert iv.total.startswith(f"{card.runs}/{card.wickets} ")
                batted = [b for b in card.batting if b.how_out != "did not bat"]
                assert [r[0] for r in iv.batting.rows] == [b.name for b in batted]
                assert [r[2] for r in iv.batting.rows] == [str(b.runs) for b in batted]
                assert [(r[0], r[4]) for r in iv.bowling.rows] == [
                    (w.name, str(w.wickets)) for w in card.bowling
                ]


def test_building_never_plays_a_ball(
    monkeypatch: pytest.MonkeyPatch, league: list[TurnReport]
) -> None:
    """Issues are built from the events: the engine's play functions are never called, and
    building twice gives the same issue."""

    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("the zine must not re-roll anything")

    monkeypatch.setattr(match_module, "play_turn", refuse)
    monkeypatch.setattr(match_module, "start_match", refuse)
    monkeypatch.setattr(match_module, "play_match", refuse)
    a = issues_of(league)
    b = issues_of(league)
    assert a == b


def test_toss_xis_and_result_from_events(league: list[TurnReport]) -> None:
    """The toss line is the engine's toss event; both XIs mark captain and keeper; a
    finished match shows its result."""
    rep = league[-1]
    issue = build_issue(rep, league[:-1], code="LG1")
    for view, turn in zip(issue.matches, rep.matches, strict=True):
        toss = next(e.text for e in turn.state.log if e.kind is EventKind.TOSS)
        assert view.toss == toss
        for xi, sel in zip(view.xis, turn.state.selections, strict=True):
            assert len(xi.players) == len(sel.xi)
            assert f"{sel.captain} (c)" in " ".join(xi.players)
            assert f"{sel.wicketkeeper} †" in " ".join(xi.players)
        if turn.state.result is not None:
            assert view.status == "finished" and view.result == turn.state.result.text


def test_report_tells_what_happened(league: list[TurnReport], cup: list[TurnReport]) -> None:
    """The match report is written from the ball log: the biggest stand, each dropped catch
    and what it cost, each fired conditional order, the result and the Man of the Match."""
    states = finished_matches(league) + finished_matches(cup)
    saw_drop = saw_rule = False
    for state in states:
        text = " ".join(write_report(state))
        for inn in state.innings:
            if inn.super_over:
                continue
            stands = partnerships(inn)
            assert sum(p.runs for p in stands) == inn.runs
            big = max(stands, key=lambda p: (p.runs, -p.wicket))
            if big.runs >= 30:
                assert f"{big.runs} for the" in text
            for d in drops(inn):
                saw_drop = True
                assert f"{d.fielder} " in text and f" on {d.on}" in text
        if any(
            e.kind is EventKind.RULE_FIRED and not e.text.endswith("nothing applies")
            for e in state.log
        ):
            saw_rule = True
            assert "conditional order fired" in text
        assert state.result is not None and f"Result: {state.result.text}." in text
        mom = man_of_the_match(state)
        assert mom is not None and f"Man of the Match: {mom[1]} ({mom[0]})" in text
    assert saw_drop and saw_rule


def test_same_celebrity_in_two_teams_is_two_cricketers(league: list[TurnReport]) -> None:
    """Every demo team has an Elvis Presley: the figures keep each team's apart."""
    tally = tally_matches(finished_matches(league))
    elvises = {k: r for k, r in tally.records.items() if k[1] == "Elvis Presley"}
    assert len(elvises) == 4
    assert len({player_href(*k) for k in elvises}) == 4
    total_runs = sum(
        b.runs
        for s in finished_matches(league)
        for c in cards(s)
        if not c.super_over
        for b in c.batting
        if b.name == "Elvis Presley"
    )
    assert sum(r.runs for r in elvises.values()) == total_runs


def test_rates_are_the_usual_formulas(league: list[TurnReport]) -> None:
    """Averages, strike rates and economy, computed for everyone at once, match the formulas."""
    recs = tally_matches(finished_matches(league)).sorted()
    rt = rates(recs)
    for k, r in enumerate(recs):
        outs = r.innings - r.not_outs
        if outs:
            assert rt.batting_average[k] == pytest.approx(r.runs / outs)
        if r.balls:
            assert rt.strike_rate[k] == pytest.approx(100 * r.runs / r.balls)
        if r.bowl_balls:
            assert rt.economy[k] == pytest.approx(6 * r.conceded / r.bowl_balls)
        if r.wickets:
            assert rt.bowling_average[k] == pytest.approx(r.conceded / r.wickets)


def test_season_figures_and_careers(league: list[TurnReport], league_two: list[TurnReport]) -> None:
    """The last issue's batting leaders are the season's; careers add a second season to the
    first for the same (team, name)."""
    last = build_issue(league[-1], league[:-1], code="LG1")
    tally = tally_matches(finished_matches(league))
    top = max(tally.records.values(), key=lambda r: (r.runs, [-ord(c) for c in r.team + r.name]))
    batting = last.figures[0]
    assert batting.title == "Batting"
    assert batting.rows[0][0] == f"{top.name} ({top.team})" and batting.rows[0][4] == str(top.runs)
    season1 = [("LG1 League", finished_matches(league))]
    issue = build_issue(league_two[-1], league_two[:-1], code="LG2", earlier_seasons=season1)
    career = issue.careers[0]
    both = tally_matches(finished_matches(league) + finished_matches(league_two))
    name, team = career.rows[0][0].rsplit(" (", 1)
    assert career.rows[0][4] == str(both.records[(team[:-1], name)].runs)


def test_dice_commitments_then_revealed_seeds(league: list[TurnReport]) -> None:
    """Matches under way publish only their seed's commitment; finished ones reveal the seed
    (whose SHA-256 is the commitment), both sides' orders and a pbm verify command to replay."""
    import hashlib

    issues = issues_of(league)
    assert issues[0].dice_next and not issues[0].dice_done
    done = [d for i in issues for d in i.dice_done]
    assert len(done) == len(league[-1].competition.fixtures)
    for d in done:
        assert d.seed is not None
        assert hashlib.sha256(str(d.seed).encode()).hexdigest() == d.sha256
        assert d.replay.startswith("pbm verify --file replay/") and len(d.orders) == 2
        [(path, text)] = d.files
        doc = __import__("json").loads(text)
        assert path.endswith(".json") and doc["seed"] == d.seed and doc["seed_sha256"] == d.sha256


def test_defaults_rulings_tables_next(league: list[TurnReport], cup: list[TurnReport]) -> None:
    """Teams on defaults and the GM's rulings are listed; a league has its table with net
    run rate, a knockout its draw and bracket; next fixtures and the next deadline."""
    issues = issues_of(league)
    assert any("played on defaults" in d for i in issues for d in i.defaults)
    assert any(i.rulings for i in issues)
    last = issues[-1]
    assert last.table is not None and last.table.headers[-1] == "NRR"
    assert last.table_chart is not None
    mid = issues[4]
    assert mid.next_fixtures and mid.next_fixtures[0].pitch
    assert mid.next_deadline == when(league[4].next_deadline)
    k = issues_of(cup, "CUP")[-1]
    assert k.table is None and k.bracket_chart is not None and k.draw
    assert any("champions" in n for n in k.news)


def test_career_best_is_the_best_of_the_seasons(
    league: list[TurnReport], league_two: list[TurnReport]
) -> None:
    """A career's highest score and best bowling are the best of its seasons'."""
    from pbm.games.flungo.zine.model import career_tally

    seasons = [("one", finished_matches(league)), ("two", finished_matches(league_two))]
    career = career_tally(seasons)
    per = [tally_matches(m, s) for s, m in seasons]
    for key, rec in career.records.items():
        mine = [t.records[key] for t in per if key in t.records]
        bowled = [r for r in mine if r.bowl_balls]
        if bowled:
            best = max(bowled, key=lambda r: (r.best_w, -r.best_r))
            assert (rec.best_w, rec.best_r) == (best.best_w, best.best_r)
        assert rec.high == max(r.high for r in mine)
        assert rec.runs == sum(r.runs for r in mine)
        assert rec.seasons == [r.seasons[0] for r in mine]


def test_the_zine_writes_injuries_as_the_mails_do() -> None:
    """The zine reads the same fitness model as the mails: "1 injury point" (never "1 injury
    points"), a player sitting out is healed after the match, partial treatment says so."""
    from engine.flungo.season_events import InjuryTreated, PlayerInjured, PlayerSitsOut
    from pbm.games.flungo.zine.news import season_event_text as _season_event_text

    assert _season_event_text(PlayerInjured("Chutneys", "Rod Hull", 1)) == (
        "Chutneys: Rod Hull has 1 injury point: he sits out the next match unless treated."
    )
    assert "fit for the next match" in _season_event_text(PlayerInjured("C", "Zippy", 0))
    assert _season_event_text(PlayerSitsOut("C", "Zippy", 2)) == (
        "C: Zippy is injured (2 injury points, not fully treated) and sits out this match; "
        "he is healed after it."
    )
    assert _season_event_text(InjuryTreated("C", "Zippy", 1, 2)) == (
        "C: Zippy treated (1 helper point), not enough: 2 injury points left."
    )
