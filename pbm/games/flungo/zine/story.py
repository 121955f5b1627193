"""Match reports written from the events: what a reporter at the ground would have noticed.

Every sentence comes from the ball log and the match events: the partnership that mattered,
the collapse, the big hitter, the review that went wrong, the dropped catch and what it cost,
the conditional order that fired, injuries, and the Man of the Match. Nothing is rolled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.flungo.events import EventKind
from engine.flungo.innings import InningsState
from engine.flungo.scorecard import InningsCard, length_text
from engine.flungo.state import MatchState
from pbm.games.flungo.zine.stats import is_substitute, match_cards

__all__ = [
    "Collapse",
    "Drop",
    "Partnership",
    "collapses",
    "drops",
    "man_of_the_match",
    "over_runs",
    "partnerships",
    "write_report",
]

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``11th``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return _ORDINAL.get(n % 10, f"{n}th") if n % 10 in _ORDINAL else f"{n}th"


@dataclass(frozen=True, slots=True)
class Partnership:
    """A stand: for which wicket, the two batsmen, runs and balls, and whether it was broken."""

    wicket: int
    batsmen: tuple[str, str]
    runs: int
    balls: int
    broken: bool


def partnerships(inn: InningsState) -> list[Partnership]:
    """Every stand of an innings, in order (the last one may be unbroken)."""
    out: list[Partnership] = []
    pair: tuple[str, str] | None = None
    runs = balls = 0
    wicket = 1
    for b in inn.balls:
        if pair is None:
            pair = (b.striker, b.non_striker)
        runs += b.total
        balls += b.legal
        if b.player_out is not None:
            out.append(Partnership(wicket, pair, runs, balls, b.wicket != "retired hurt"))
            if b.wicket != "retired hurt":
                wicket += 1
            pair, runs, balls = None, 0, 0
    if pair is not None and (runs or balls):
        out.append(Partnership(wicket, pair, runs, balls, False))
    return out


@dataclass(frozen=True, slots=True)
class Collapse:
    """Wickets ``first``..``last`` (numbers) fell for ``runs`` runs in ``balls`` balls."""

    first: int
    last: int
    runs: int
    balls: int
    start: str
    end: str


def collapses(inn: InningsState, per_over: int) -> list[Collapse]:
    """Runs of at least three wickets falling for few runs (≤ 6 a wicket), longest first."""
    falls: list[tuple[int, int]] = []  # (score, legal balls) when each wicket fell
    score = legal = 0
    for b in inn.balls:
        score += b.total
        legal += b.legal
        if b.player_out is not None and b.wicket != "retired hurt":
            falls.append((score, legal))
    found: list[Collapse] = []
    i = 0
    while i < len(falls):
        base = falls[i - 1] if i else (0, 0)
        best = None
        for j in range(i + 2, len(falls)):
            runs = falls[j][0] - base[0]
            if runs <= 6 * (j - i + 1):
                best = j
        if best is not None:
            found.append(
                Collapse(
                    i + 1,
                    best + 1,
                    falls[best][0] - base[0],
                    falls[best][1] - base[1],
                    f"{base[0]}/{i}",
                    f"{falls[best][0]}/{best + 1}",
                )
            )
            i = best + 1
        else:
            i += 1
    return sorted(found, key=lambda c: -(c.last - c.first))


@dataclass(frozen=True, slots=True)
class Drop:
    """A hard chance put down: who, off whom, the batsman's score then and at the end."""

    batsman: str
    fielder: str
    bowler: str
    on: int
    final: int

    @property
    def cost(self) -> int:
        """Runs the batsman added after the drop."""
        return self.final - self.on


def drops(inn: InningsState) -> list[Drop]:
    """Dropped catches of an innings and what each cost."""
    score: dict[str, int] = {}
    pending: list[tuple[str, str, str, int]] = []
    for b in inn.balls:
        if "dropped by" in b.note:
            fielder = b.note.rsplit("dropped by ", 1)[1]
            pending.append((b.striker, fielder, b.bowler, score.get(b.striker, 0)))
        score[b.striker] = score.get(b.striker, 0) + b.runs
    return [Drop(s, f, w, on, score.get(s, 0)) for s, f, w, on in pending]


def over_runs(inn: InningsState, overs: int) -> tuple[np.ndarray, np.ndarray]:
    """Runs (extras included) and wickets in each over (index 0 is the first over)."""
    if not inn.balls:
        return np.zeros(overs, dtype=int), np.zeros(overs, dtype=int)
    idx = np.fromiter((b.over - 1 for b in inn.balls), dtype=int, count=len(inn.balls))
    tot = np.fromiter((b.total for b in inn.balls), dtype=int, count=len(inn.balls))
    wk = np.fromiter(
        (b.player_out is not None and b.wicket != "retired hurt" for b in inn.balls),
        dtype=int,
        count=len(inn.balls),
    )
    size = max(overs, int(idx.max()) + 1)
    return np.bincount(idx, tot, size).astype(int), np.bincount(idx, wk, size).astype(int)


def man_of_the_match(state: MatchState) -> tuple[str, str, str] | None:
    """``(team, name, why)`` of the best all-round performance (a run a point, 20 a wicket,
    10 a catch or stumping; the winning side's best on level points), or ``None``."""
    if state.result is None:
        return None
    points: dict[tuple[str, str], float] = {}
    why: dict[tuple[str, str], list[str]] = {}
    for card in match_cards(state):
        for line in card.batting:
            if line.how_out == "did not bat":
                continue
            k = (card.batting_team, line.name)
            points[k] = points.get(k, 0) + line.runs + (5 if line.runs >= 50 else 0)
            if line.runs >= 20:
                why.setdefault(k, []).append(f"{line.runs}{'' if line.out else '*'}")
        for bl in card.bowling:
            k = (card.bowling_team, bl.name)
            points[k] = points.get(k, 0) + 20 * bl.wickets - bl.runs / 10
            if bl.wickets:
                why.setdefault(k, []).append(f"{bl.wickets}/{bl.runs}")
    for inn in state.innings:
        team = state.team(1 - inn.batting_side).name
        for b in inn.balls:
            if b.fielder and b.wicket in ("caught", "stumped") and not is_substitute(b.fielder):
                k = (team, b.fielder)
                points[k] = points.get(k, 0) + 10
    if not points:
        return None
    winner = state.result.winner
    team, name = max(points, key=lambda k: (points[k] + (8 if k[0] == winner else 0), k))
    return team, name, " and ".join(why.get((team, name), [])) or "in the field"


def _innings_story(state: MatchState, index: int, card: InningsCard) -> list[str]:
    inn = state.innings[index]
    bpo = state.setup.spec.balls_per_over
    side = card.batting_team
    out: list[str] = []
    done = [b for b in card.batting if b.how_out != "did not bat"]
    top = sorted(done, key=lambda b: (-b.runs, b.balls))[:2]
    total = f"{card.runs}/{card.wickets}"
    length = length_text(card.legal_balls, bpo)
    if card.closed == "all out":
        head = f"{side} were bowled out for {card.runs} in {length}"
    elif card.closed == "target":
        head = f"{side} reached their target of {card.target} with {total} in {length}"
    elif card.closed == "overs":
        head = f"{side} made {total} from their {length}"
    else:
        head = f"{side} are {total} after {length}"
    if top and top[0].runs:
        best = top[0]
        sr = 100 * best.runs / best.balls if best.balls else 0.0
        head += (
            f", {best.name} top-scoring with {best.runs}{'' if best.out else '*'} "
            f"off {best.balls} balls (strike rate {sr:.0f})"
        )
    out.append(head + ".")
    stands = partnerships(inn)
    if stands:
        big = max(stands, key=lambda p: (p.runs, -p.wicket))
        if big.runs >= 30:
            first, second = big.batsmen
            tail = "" if big.broken else ", unbroken"
            out.append(
                f"The stand that mattered was {first} and {possessive(second)} {big.runs} for the "
                f"{ordinal(big.wicket)} wicket in {big.balls} balls{tail}."
            )
    for c in collapses(inn, bpo)[:1]:
        out.append(
            f"From {c.start} they collapsed to {c.end}: {c.last - c.first + 1} wickets for "
            f"{c.runs} runs in {c.balls} balls."
        )
    for d in drops(inn):
        if d.cost >= 10:
            out.append(
                f"{d.fielder} dropped {d.batsman} on {d.on} off {d.bowler}, and the miss "
                f"cost {d.cost} runs: {d.batsman} went on to {d.final}."
            )
        else:
            out.append(f"{d.fielder} put down {d.batsman} on {d.on}, but it cost only {d.cost}.")
    for b in inn.balls:
        if "review failed" in b.note:
            who = "batting" if "batting side" in b.note else "bowling"
            if who == "batting":
                out.append(
                    f"{b.striker} reviewed an lbw decision off {b.bowler} in over {b.over} "
                    "and lost the review: out stood."
                )
            else:
                out.append(
                    f"{card.bowling_team} reviewed a not-out lbw against {b.striker} in over "
                    f"{b.over} and wasted the review."
                )
        elif "overturned on review" in b.note:
            if b.wicket:
                out.append(f"{b.striker} was given not out, but the review sent them on their way.")
            else:
                out.append(
                    f"{b.striker} was given out lbw to {b.bowler}, but the review saved them."
                )
    bowlers = sorted(card.bowling, key=lambda w: (-w.wickets, w.runs))
    if bowlers and bowlers[0].wickets >= 2:
        w = bowlers[0]
        out.append(
            f"{w.name} was the pick of {possessive(card.bowling_team)} bowlers "
            f"with {w.wickets}/{w.runs}."
        )
    return out


def write_report(state: MatchState) -> list[str]:
    """The match report, in paragraphs (a state of play while the match is in progress)."""
    paras: list[str] = []
    cond = state.setup.conditions
    toss = next((e.text for e in state.log if e.kind is EventKind.TOSS), "")
    opening = f"At {cond.pitch_name} ({cond.pitch.name.lower()}, {cond.weather.name.lower()})"
    paras.append(f"{opening}, {toss}." if toss else f"{opening}.")
    all_cards = match_cards(state)
    for i, card in enumerate(all_cards):
        if card.super_over:
            continue
        paras.append(" ".join(_innings_story(state, i, card)))
    supers = [c for c in all_cards if c.super_over]
    if supers:
        bits = ", ".join(f"{c.batting_team} {c.runs}/{c.wickets}" for c in supers)
        paras.append(f"Level on runs, the match went to the tie-breaker: {bits}.")
    sixes: dict[tuple[str, str], int] = {}
    for card in all_cards:
        for line in card.batting:
            if line.sixes:
                k = (card.batting_team, line.name)
                sixes[k] = sixes.get(k, 0) + line.sixes
    if sixes:
        (team, name), n = max(sixes.items(), key=lambda kv: (kv[1], kv[0]))
        if n >= 2:
            paras.append(f"The big hitter was {name} of {team}, with {n} sixes.")
    fired = [
        e
        for e in state.log
        if e.kind is EventKind.RULE_FIRED and not e.text.endswith("nothing applies")
    ]
    if fired:
        paras.append(
            " ".join(
                f"{possessive(e.team)} conditional order fired {_at(e.at_ball, state)}: "
                f"{_rule_effect(e.text)}."
                for e in fired[:3]
            )
        )
    for team, player, pts in state.injuries:
        paras.append(
            f"{player} of {team} retired hurt"
            + (f" ({pts} injury point{'s' * (pts != 1)})." if pts else ", but will be fit.")
        )
    if state.result is not None:
        paras.append(f"Result: {state.result.text}.")
        mom = man_of_the_match(state)
        if mom is not None:
            paras.append(f"Man of the Match: {mom[1]} ({mom[0]}), {mom[2]}.")
    return paras


def possessive(name: str) -> str:
    """``Snodge Stars'``, ``Dundee Cakes'``, ``Lassie's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _rule_effect(text: str) -> str:
    """A fired rule's effect, with a long list of names shortened to a count."""
    effect = text.split(": ", 1)[-1]
    names, _, what = effect.rpartition(" ")
    if names.count(",") >= 3:
        return f"{names.count(',') + 1} batsmen switched to {what}"
    return effect


def _at(balls: int, state: MatchState) -> str:
    bpo = state.setup.spec.balls_per_over
    return f"after {length_text(balls, bpo)}" if balls else "at the start"
