"""Scorecards from the ball log: batting, bowling, extras, fall of wickets; text and JSON.

Everything here is derived from the balls (the innings state keeps only what play needs), so a
scorecard can never disagree with the log it summarises. :func:`match_report` is the
``pbm sim --json`` document of issue 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.flungo.events import Ball
from engine.flungo.innings import InningsState
from engine.flungo.match import MatchState

__all__ = [
    "BattingLine",
    "BowlingLine",
    "InningsCard",
    "ball_log_text",
    "cards",
    "innings_card",
    "length_text",
    "match_report",
    "overs_text",
    "scorecard_text",
    "super_over_name",
]

NOT_BOWLER_WICKETS = frozenset({"run out", "retired hurt"})
CLOSED_TEXT = {
    "": "in play",
    "overs": "all balls bowled",
    "all out": "all out",
    "target": "target reached",
}


@dataclass(frozen=True, slots=True)
class BattingLine:
    """One batsman's innings; ``how_out`` is ``not out``, ``did not bat`` or the dismissal."""

    name: str
    runs: int
    balls: int
    fours: int
    sixes: int
    how_out: str
    out: bool

    def to_json(self) -> dict[str, Any]:
        """As a JSON object."""
        return {
            "name": self.name,
            "runs": self.runs,
            "balls": self.balls,
            "fours": self.fours,
            "sixes": self.sixes,
            "how_out": self.how_out,
            "out": self.out,
        }


@dataclass(frozen=True, slots=True)
class BowlingLine:
    """One bowler's figures; ``runs`` conceded count wides and no balls, not byes."""

    name: str
    balls: int
    maidens: int
    runs: int
    wickets: int
    wides: int
    no_balls: int
    balls_per_over: int

    @property
    def overs(self) -> str:
        """Overs as cricket writes them: ``3.2`` is three overs and two balls."""
        return overs_text(self.balls, self.balls_per_over)

    def to_json(self) -> dict[str, Any]:
        """As a JSON object."""
        return {
            "name": self.name,
            "overs": self.overs,
            "balls": self.balls,
            "maidens": self.maidens,
            "runs": self.runs,
            "wickets": self.wickets,
            "wides": self.wides,
            "no_balls": self.no_balls,
        }


@dataclass(frozen=True, slots=True)
class InningsCard:
    """An innings summarised."""

    batting_team: str
    bowling_team: str
    runs: int
    wickets: int
    legal_balls: int
    balls_per_over: int
    extras: dict[str, int]
    batting: tuple[BattingLine, ...]
    bowling: tuple[BowlingLine, ...]
    fall_of_wickets: tuple[dict[str, Any], ...]
    super_over: bool
    target: int | None
    closed: str


def length_text(balls: int, per_over: int) -> str:
    """How long an innings lasted, for people: ``17.4 overs``, or ``85 balls`` in The Hundred."""
    if per_over == 5:
        return f"{balls} ball{'s' * (balls != 1)}"
    return f"{overs_text(balls, per_over)} overs"


def overs_text(balls: int, per_over: int) -> str:
    """``balls`` legal balls as overs and balls (``17.4``); whole overs without a point."""
    o, b = divmod(balls, per_over)
    return f"{o}.{b}" if b else str(o)


def _how_out(b: Ball, keeper: str) -> str:
    kind, bowler, f = b.wicket, b.bowler, b.fielder
    if kind == "caught":
        if f == bowler:
            return f"c & b {bowler}"
        mark = "†" if f == keeper else ""
        return f"c {mark}{f} b {bowler}"
    if kind == "stumped":
        return f"st †{f} b {bowler}"
    if kind == "lbw":
        return f"lbw b {bowler}"
    if kind == "run out":
        return f"run out ({f})"
    if kind == "retired hurt":
        return "retired hurt"
    return f"{kind} b {bowler}" if kind == "hit wicket" else f"b {bowler}"


def innings_card(
    inn: InningsState, batting_team: str, bowling_team: str, keeper: str, balls_per_over: int
) -> InningsCard:
    """Summarise ``inn``; ``keeper`` is the fielding side's wicket-keeper (for the † mark)."""
    bat: dict[str, list[int]] = {n: [0, 0, 0, 0] for n in inn.order}
    how: dict[str, str] = {}
    bowl: dict[str, list[int]] = {}
    extras = {"wides": 0, "no_balls": 0, "byes": 0, "leg_byes": 0}
    key = {"wide": "wides", "no_ball": "no_balls", "bye": "byes", "leg_bye": "leg_byes"}
    fow: list[dict[str, Any]] = []
    score = legal = wickets = 0
    over_runs: dict[tuple[str, int], int] = {}
    over_balls: dict[tuple[str, int], int] = {}
    for b in inn.balls:
        s = bat.setdefault(b.striker, [0, 0, 0, 0])
        w = bowl.setdefault(b.bowler, [0, 0, 0, 0, 0, 0])  # balls, maidens, runs, wkts, wd, nb
        if b.extra != "wide":
            s[1] += 1
        s[0] += b.runs
        if b.boundary:
            s[2 if b.runs == 4 else 3] += 1
        conceded = b.runs
        if b.extra is not None:
            extras[key[b.extra]] += b.extra_runs
            if b.extra == "wide":
                conceded += b.extra_runs
                w[4] += b.extra_runs
            elif b.extra == "no_ball":
                conceded += b.extra_runs
                w[5] += b.extra_runs
        w[2] += conceded
        over_key = (b.bowler, b.over)
        over_runs[over_key] = over_runs.get(over_key, 0) + conceded
        score += b.total
        if b.legal:
            w[0] += 1
            legal += 1
            over_balls[over_key] = over_balls.get(over_key, 0) + 1
        if b.wicket is not None and b.player_out is not None:
            how[b.player_out] = _how_out(b, keeper)
            if b.wicket not in NOT_BOWLER_WICKETS:
                w[3] += 1
            if b.wicket != "retired hurt":
                wickets += 1
                fow.append(
                    {
                        "wicket": wickets,
                        "runs": score,
                        "player": b.player_out,
                        "over": overs_text(legal, balls_per_over),
                    }
                )
    for (name, _), r in over_runs.items():
        if r == 0 and over_balls.get((name, _), 0) == balls_per_over:
            bowl[name][1] += 1
    at_crease = {inn.striker, inn.non_striker}
    batting = []
    for i, (name, (r, balls, fours, sixes)) in enumerate(bat.items()):
        if name in how:
            h = how[name]
        elif name in at_crease or i < inn.next_in:
            h = "not out"
        else:
            h = "did not bat"
        out = name in how and how[name] != "retired hurt"
        batting.append(BattingLine(name, r, balls, fours, sixes, h, out))
    bowling = tuple(
        BowlingLine(n, v[0], v[1], v[2], v[3], v[4], v[5], balls_per_over) for n, v in bowl.items()
    )
    return InningsCard(
        batting_team,
        bowling_team,
        score,
        wickets,
        legal,
        balls_per_over,
        extras,
        tuple(batting),
        bowling,
        tuple(fow),
        inn.super_over,
        inn.target,
        inn.closed,
    )


def cards(state: MatchState) -> list[InningsCard]:
    """Every innings' card, super overs included."""
    bpo = state.setup.spec.balls_per_over
    out = []
    for inn in state.innings:
        side = inn.batting_side
        out.append(
            innings_card(
                inn,
                state.team(side).name,
                state.team(1 - side).name,
                state.selections[1 - side].wicketkeeper,
                bpo,
            )
        )
    return out


def match_report(state: MatchState) -> dict[str, Any]:
    """The ``pbm sim --json`` document (issue 2's shape, with a few more keys)."""
    setup = state.setup
    cond = setup.conditions
    innings = []
    for inn, card in zip(state.innings, cards(state), strict=True):
        innings.append(
            {
                "batting_team": card.batting_team,
                "bowling_team": card.bowling_team,
                "super_over": card.super_over,
                "target": card.target,
                "closed": card.closed,
                "runs": card.runs,
                "wickets": card.wickets,
                "legal_balls": card.legal_balls,
                "extras": card.extras,
                "batting": [b.to_json() for b in card.batting],
                "bowling": [b.to_json() for b in card.bowling],
                "fall_of_wickets": list(card.fall_of_wickets),
                "balls": [b.to_json() for b in inn.balls],
            }
        )
    winner = state.team(state.toss_winner)
    return {
        "game": "Cosmic Celebrity Cricket",
        "format": setup.format.value,
        "seed": setup.seed,
        "knockout": setup.knockout,
        "pitch": {"name": cond.pitch_name, "roll": cond.pitch_roll, "condition": cond.pitch.name},
        "weather": {"name": cond.weather.name, "roll": cond.weather_roll},
        "teams": [setup.home.to_json(), setup.away.to_json()],
        "xi": [
            {
                "team": state.team(i).name,
                "players": list(s.xi),
                "captain": s.captain,
                "wicketkeeper": s.wicketkeeper,
            }
            for i, s in enumerate(state.selections)
        ],
        "toss": {"winner": winner.name, "decision": state.selections[state.toss_winner].toss.value},
        "innings": innings,
        "result": None if state.result is None else state.result.to_json(),
        "injuries": [{"team": t, "player": p, "points": n} for t, p, n in state.injuries],
        "events": [e.to_json() for e in state.log],
    }


def super_over_name(balls_per_over: int) -> str:
    """The tie-breaker's name: a Super Five in The Hundred (sets of 5), else a Super Over."""
    return "Super Five" if balls_per_over == 5 else "Super Over"


def _card_text(card: InningsCard) -> list[str]:
    title = f"{super_over_name(card.balls_per_over)}: " if card.super_over else ""
    lines = [f"{title}{card.batting_team} innings (bowling: {card.bowling_team})"]
    width = max([len(b.name) for b in card.batting] + [12])
    hw = max([len(b.how_out) for b in card.batting] + [8])
    lines.append(
        f"  {'Batsman':<{width}}  {'How out':<{hw}}  {'R':>4} {'B':>4} {'4s':>3} {'6s':>3}"
    )
    for b in card.batting:
        if b.how_out == "did not bat":
            continue
        lines.append(
            f"  {b.name:<{width}}  {b.how_out:<{hw}}  {b.runs:>4} {b.balls:>4} "
            f"{b.fours:>3} {b.sixes:>3}"
        )
    dnb = [b.name for b in card.batting if b.how_out == "did not bat"]
    if dnb:
        lines.append(f"  Did not bat: {', '.join(dnb)}")
    e = card.extras
    lines.append(
        f"  Extras {sum(e.values())} (w {e['wides']}, nb {e['no_balls']}, "
        f"b {e['byes']}, lb {e['leg_byes']})"
    )
    lines.append(
        f"  Total {card.runs}/{card.wickets} "
        f"({length_text(card.legal_balls, card.balls_per_over)}; {CLOSED_TEXT[card.closed]})"
    )
    if card.fall_of_wickets:
        fow = ", ".join(
            f"{f['wicket']}-{f['runs']} ({f['player']}, {f['over']})" for f in card.fall_of_wickets
        )
        lines.append(f"  Fall of wickets: {fow}")
    bw = max([len(b.name) for b in card.bowling] + [6])
    lines.append(f"  {'Bowler':<{bw}}  {'O':>5} {'M':>3} {'R':>4} {'W':>3} {'Wd':>3} {'NB':>3}")
    for w in card.bowling:
        lines.append(
            f"  {w.name:<{bw}}  {w.overs:>5} {w.maidens:>3} {w.runs:>4} {w.wickets:>3} "
            f"{w.wides:>3} {w.no_balls:>3}"
        )
    return lines


def scorecard_text(state: MatchState) -> str:
    """The whole match as plain text: header, every innings' card, result, injuries."""
    setup = state.setup
    cond = setup.conditions
    lines = [
        f"Cosmic Celebrity Cricket — {setup.spec.title}: {setup.home.name} v {setup.away.name}",
        f"{cond.pitch_name}: pitch {cond.pitch.name} (roll {cond.pitch_roll}), "
        f"weather {cond.weather.name} (roll {cond.weather_roll}); seed {setup.seed}",
    ]
    lines += [e.text for e in state.log if e.kind.value == "toss"]
    for card in cards(state):
        lines.append("")
        lines += _card_text(card)
    lines.append("")
    lines.append(f"Result: {state.result.text if state.result else 'in progress'}")
    for t, p, n in state.injuries:
        lines.append(f"Injury: {p} ({t}) {n} injury point{'s' * (n != 1)}")
    return "\n".join(lines) + "\n"


def ball_log_text(state: MatchState) -> str:
    """Every delivery, one a line, with its dice, and between them the other events (rules
    firing, bowling changes, injuries, drinks) where they happened."""
    lines: list[str] = []
    for index, inn in enumerate(state.innings):
        team = state.team(inn.batting_side).name
        so = f"{super_over_name(state.setup.spec.balls_per_over)}: " if inn.super_over else ""
        lines.append(f"{so}{team} innings")
        notes = [e for e in state.log if e.innings == index]
        k = legal = 0
        for b in inn.balls:
            while k < len(notes) and notes[k].at_ball <= legal:
                lines.append(f"  -- {notes[k].text}")
                k += 1
            what = [f"{b.runs} run{'s' * (b.runs != 1)}" if b.runs else "dot"]
            if b.extra:
                what = [f"{b.extra.replace('_', ' ')} {b.extra_runs}"]
            if b.wicket:
                what.append(f"OUT {b.wicket} {b.player_out}")
            if b.note:
                what.append(b.note)
            dice = " ".join(f"d{r.die}={r.value}" for r in b.rolls)
            lines.append(
                f"  {b.over}.{b.ball}{'' if b.legal else '*'} {b.bowler} to {b.striker} "
                f"({b.style}): {'; '.join(what)}  [{dice}]"
            )
            legal += b.legal
        lines += [f"  -- {e.text}" for e in notes[k:]]
    return "\n".join(lines) + "\n"
