"""An innings: its frozen state between turns, and the loop that plays balls.

:class:`InningsState` is what a turn leaves behind (it round-trips through JSON with the rest of
the match state). :func:`play_innings` takes one, plays until a given number of legal balls
(drinks, or the end) or until the innings closes, and returns a new state and the events. The
loop works on plain local variables: it is the engine's hot path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.dice import MASK64, Dice, UnrecordedDice
from engine.flungo.ball import (
    BYE_RUNS,
    EXTRA_KIND,
    EXTRAS,
    MORE,
    REVIEW_BATTING_FAILED,
    REVIEW_BOWLING_FAILED,
    SECOND_DIE,
    SIMPLE,
    SIMPLE_RUNS,
    THIRD_DIE_RUNS,
    follow,
)
from engine.flungo.events import Ball, BowlerChanged, Event, Injury, InningsEnd, MatchEvent
from engine.flungo.formats import Format, FormatSpec
from engine.flungo.orders import BattingStyle, ReviewMode, ReviewPolicy, Rule
from engine.flungo.plan import choose_bowler, default_plan
from engine.flungo.rules import Limits, RuleBook, RulesSnapshot, Situation, obey

__all__ = ["InningsState", "Side", "play_innings", "review_allowed"]

_new_ball = tuple.__new__
_NEVER = 1 << 62  # more balls, wickets, runs and batsmen out than an innings has
# asked twice for every ball that is not simple: an enum member's lookup is a descriptor call
_ALL, _NEVER_REVIEW, _NAMED = ReviewMode.ALL, ReviewMode.NEVER, ReviewMode.NAMED


@dataclass(frozen=True, slots=True)
class Side:
    """What the innings needs to know about one side for its whole length.

    ``batting`` and ``fielding`` map each XI member (and substitute) to the skill used;
    ``bowling`` maps XI members to bowling skill with the pitch and weather modifier for their
    style already added; ``rank`` is the XI best bowler first; ``field`` the ten fielders the D10
    picks from; ``keeper`` the one keeping wicket (a substitute if the keeper is hurt).
    """

    team: str
    batting: tuple[tuple[str, int], ...]
    bowling: tuple[tuple[str, int], ...]
    rank: tuple[str, ...]
    field: tuple[tuple[str, int], ...]
    keeper: tuple[str, int]
    unable: tuple[tuple[str, str], ...]  # who may not bowl, and why


@dataclass(frozen=True, slots=True)
class InningsState:
    """An innings between turns (or finished).

    ``order`` is the batting order, those who have come in first (``next_in`` of them);
    ``out`` the dismissed and retired, in that order; ``plan`` the bowling side's plan;
    ``over_bowlers`` who bowled each over started; ``reviews`` and ``policies`` are (batting
    side, bowling side); ``closed`` is ``""`` while in progress, else ``all out``, ``overs`` or
    ``target``.
    """

    index: int
    batting_side: int
    super_over: bool
    max_balls: int
    max_wickets: int
    target: int | None
    order: tuple[str, ...]
    next_in: int
    striker: str | None
    non_striker: str | None
    styles: tuple[tuple[str, BattingStyle], ...]
    plan: tuple[tuple[int, str], ...]
    reviews: tuple[int, int]
    policies: tuple[ReviewPolicy, ReviewPolicy]
    rules: RulesSnapshot
    runs: int = 0
    wickets: int = 0
    legal: int = 0
    out: tuple[str, ...] = ()
    over_bowlers: tuple[str, ...] = ()
    balls: tuple[Ball, ...] = ()
    closed: str = ""

    @property
    def all_out(self) -> bool:
        """Whether the innings ended with no batsman left (for net run rate, full overs count)."""
        return self.closed == "all out"


def review_allowed(policy: ReviewPolicy, batsman: str, order: list[str]) -> bool:
    """Whether ``policy`` asks for a review of an lbw involving ``batsman``."""
    mode = policy.mode
    if mode is _ALL:
        return True
    if mode is _NEVER_REVIEW:
        return False
    if mode is _NAMED:
        return batsman in policy.names
    return batsman in order[: policy.top]


def play_innings(
    st: InningsState,
    stop: int,
    dice: Dice,
    spec: FormatSpec,
    sides: tuple[Side, Side],
    rules: tuple[tuple[Rule, ...], tuple[Rule, ...]],
    at_drinks: bool = False,
    scores: list[tuple[MatchEvent, int, int]] | None = None,
    plans: dict[tuple[str, ...], Mapping[int, str]] | None = None,
) -> tuple[InningsState, list[Event], list[tuple[str, int, int]]]:
    """Play ``st`` until ``stop`` legal balls have been bowled or it closes.

    ``sides`` is (home, away); ``rules`` each side's conditional orders; ``at_drinks`` says this
    resumes after the drinks interval (``AT_DRINKS`` rules are tried once before the first ball).
    Returns the new state, the events, and the injuries as (name, points, substitute fielding).
    With ``scores`` (a practice's), no ball is kept, neither as an event nor in the state, and
    each event the conditional orders make is added to ``scores`` with the innings' runs and
    wickets then: all a practice reads of the balls; and with its dice drawn ahead
    (:class:`~engine.dice.UnrecordedDice`), its balls that end in runs or extras are read off
    the drawn numbers in the loop itself, as ``roll`` reads them. The same dice give the same
    innings.
    ``plans``: the default bowling plans :func:`~engine.flungo.plan.choose_bowler` works out,
    kept by a caller that plays more innings in one format (a practice), else by this call.
    """
    bat_i = st.batting_side
    bat, bowl = sides[bat_i], sides[1 - bat_i]
    team_bat, team_bowl = bat.team, bowl.team
    bat_skill = dict(bat.batting)
    bowl_skill = dict(bowl.bowling)
    unable = dict(bowl.unable)
    field, keeper = bowl.field, bowl.keeper
    bpo = spec.balls_per_over
    hundred = spec.is_hundred
    # The Hundred changes ends every ten balls (two sets); other formats every over.
    swap_every = bpo * 2 if hundred else bpo
    order = list(st.order)
    next_in = st.next_in
    striker, non_striker = st.striker, st.non_striker
    styles = dict(st.styles)
    plan = dict(st.plan)
    rev_bat, rev_bowl = st.reviews
    pol_bat, pol_bowl = st.policies
    runs, wickets, legal = st.runs, st.wickets, st.legal
    out = list(st.out)
    over_bowlers = list(st.over_bowlers)
    counts: dict[str, int] = {}
    for b in over_bowlers:
        counts[b] = counts.get(b, 0) + 1
    balls: list[Ball] = []
    events: list[Event] = []
    injuries: list[tuple[str, int, int]] = []
    closed = st.closed
    max_balls, max_wickets, target = st.max_balls, st.max_wickets, st.target
    book = RuleBook(rules, st.rules)
    inn = st.index
    rolls = dice.rolls
    keep = scores is None
    roll, second_die, simple = dice.roll, SECOND_DIE, SIMPLE
    # a practice's stream drawn ahead: its simple balls are read off the block right here
    quick = isinstance(dice, UnrecordedDice) and not keep
    kit, third, extra_kind, bye_runs = SIMPLE_RUNS, THIRD_DIE_RUNS, EXTRA_KIND, BYE_RUNS
    bowler = over_bowlers[-1] if over_bowlers and legal % bpo else ""
    next_over = len(over_bowlers) * bpo  # legal balls when the next over's bowler is chosen
    bowl_h = bowl_skill.get(bowler, 0)
    if not plan and not st.over_bowlers and not st.super_over:
        text = "no bowling plan: default bowling"
        events.append(BowlerChanged(inn, legal, team_bowl, text, 0, "", None, "no bowling plan"))
    first = True
    default_plans = {} if plans is None else plans  # choose_bowler's
    default_for: Mapping[int, str] | None = None
    ranked = frozenset(bowl.rank)
    quota, in_a_row = spec.max_overs_per_bowler, spec.max_consecutive
    ends = spec.format is Format.HUNDRED  # a bowler's sets from one end (_plainly_legal)
    # the rules are asked before the first ball, then only once one of them may hold
    # (RuleBook.wake: kept in locals, read before every ball); an empty book never again
    w_legal = w_wickets = w_score = w_out = 0 if book else _NEVER

    while not closed and legal < stop:
        if legal >= w_legal or wickets >= w_wickets or runs >= w_score or len(out) >= w_out:
            firings = book.step(
                Situation(
                    legal,
                    bpo,
                    max_balls,
                    wickets,
                    runs,
                    target,
                    frozenset(out),
                    at_drinks and first,
                )
            )
            if firings:
                pols = [pol_bat, pol_bowl]
                limits = Limits(
                    max_balls // bpo,
                    spec.max_overs_per_bowler,
                    spec.max_consecutive,
                    tuple(over_bowlers),
                    hundred,
                )
                said = obey(
                    firings,
                    book,
                    (sides[0].team, sides[1].team),
                    bat_i,
                    inn,
                    legal,
                    styles,
                    plan,
                    pols,
                    order,
                    next_in,
                    out,
                    len(over_bowlers),
                    limits,
                )
                events += said
                if scores is not None:
                    scores += [(e, runs, wickets) for e in said]
                pol_bat, pol_bowl = pols
            if not book:
                w_legal = w_wickets = w_score = w_out = _NEVER
            elif (wake := book.wake(max_balls, bpo, target, len(out))) is None:
                w_legal = w_wickets = w_score = w_out = 0  # a rule to ask before every ball
            else:
                w_legal, w_wickets, w_score, w_out = wake
        first = False
        if legal == next_over:  # the first ball of an over no one bowls yet
            over_no = legal // bpo + 1
            planned = plan.get(over_no)
            cand: str | None = planned
            if planned is None:  # the captain's default plan, as choose_bowler takes it
                if default_for is None:
                    able = tuple([n for n in bowl.rank if n not in unable])
                    default_for = default_plans.get(able)
                    if default_for is None:
                        default_for = default_plans[able] = default_plan(able, spec)
                cand = default_for.get(over_no)
            k = len(over_bowlers)
            # the usual case, choose_bowler's first test (_plainly_legal) here: once an over
            if (
                cand is not None
                and cand not in unable
                and counts.get(cand, 0) < quota
                and cand in ranked
                and not (ends and over_no % 2 == 1 and k and over_bowlers[-1] == cand)
                and (k < in_a_row or over_bowlers[k - in_a_row :].count(cand) < in_a_row)
            ):
                bowler, why = cand, None if planned is not None else "no bowler planned"
            else:
                bowler, why = choose_bowler(
                    over_no, planned, bowl.rank, unable, counts, over_bowlers, spec, default_plans
                )
            # With no plan at all, "no bowler planned" was said once at the start.
            if why is not None and (plan or why != "no bowler planned"):
                text = f"over {over_no}: {why}; {bowler} bowls"
                planned = plan.get(over_no)
                events.append(
                    BowlerChanged(inn, legal, team_bowl, text, over_no, bowler, planned, why)
                )
            over_bowlers.append(bowler)
            next_over += bpo
            counts[bowler] = counts.get(bowler, 0) + 1
            bowl_h = bowl_skill[bowler]
        assert striker is not None and non_striker is not None
        d1 = d2 = 0  # dice 1 and 2 not yet read
        if quick:
            # A practice's run of simple balls (dots, ones, twos, 4-4 fours: no extra, no
            # wicket, no review) up to the next over, rule wake-up or end: each ball's two
            # dice are the stream's next two outputs read as UnrecordedDice.roll reads them
            # (Lemire's multiply-shift), without its calls, and only the score, the strike
            # and the end move. The first other ball goes on below with its two dice read; a
            # possible rejection, or the block's end, is left to Dice.roll's own way.
            assert isinstance(dice, UnrecordedDice)
            block, at = dice.block, dice.at
            last = len(block) - 1
            lim = stop if stop < next_over else next_over
            lim = lim if lim < w_legal else w_legal
            lim = lim if lim < max_balls else max_balls
            # a wake on the wickets or the batsmen out already met (an "until" on the wicket
            # that fired its rule): the rules are asked before every ball, as the full path does
            ask = wickets >= w_wickets or len(out) >= w_out
            if ask and lim > legal + 1:
                lim = legal + 1
            rlim = w_score if target is None or w_score < target else target
            began, began_runs = legal, runs
            # (dice 2's sides, the runs table) of the striker and the non-striker, swapped
            # with them: no style changes within the run
            (faces, tab), (n_faces, n_tab) = kit[styles[striker]], kit[styles[non_striker]]
            while at < last:
                m1 = block[at] * 6
                m2 = block[at + 1] * faces
                if m1 & MASK64 < 6 or m2 & MASK64 < faces:
                    break  # Lemire's rejection may apply
                at += 2
                r = tab[(m1 >> 64) << 4 | (m2 >> 64)]
                if r < 0:
                    # a 3-3 or a big hit: the runs are the third die's (follow's "3-3 runs"
                    # or "big hit" roll); extras: the third says which, a fourth the byes
                    # (follow's "extras", "byes" or "leg byes"); read here where the block
                    # has them, as Dice.roll reads them
                    if r == MORE or at > last or (m3 := block[at] * 6) & MASK64 < 6:
                        d1, d2 = (m1 >> 64) + 1, (m2 >> 64) + 1
                        break
                    if r != EXTRAS:
                        at += 1
                        r = third[-r][(m3 >> 64) + 1]
                    elif (kind := extra_kind[(m3 >> 64) + 1]) == "bye" or kind == "leg_bye":
                        if at == last or (m4 := block[at + 1] * 6) & MASK64 < 6:
                            d1, d2 = (m1 >> 64) + 1, (m2 >> 64) + 1
                            break
                        at += 2
                        r = bye_runs[(m4 >> 64) + 1]  # legal, run: as a ball's runs
                    else:  # a wide or a no-ball: its penalty, and the ball is bowled again
                        at += 1
                        runs += 2 if hundred and kind == "no_ball" else 1
                        # the ball bowled again is a delivery of its own: where the rules
                        # are asked before every ball, they are asked before it too (an
                        # "until" met by the ball before, as the full path does)
                        if runs >= rlim or legal >= w_legal or ask:
                            d1 = -1
                            break
                        continue
                runs += r
                legal += 1
                if r & 1:
                    striker, non_striker = non_striker, striker
                    faces, tab, n_faces, n_tab = n_faces, n_tab, faces, tab
                if legal % swap_every == 0:
                    striker, non_striker = non_striker, striker
                    faces, tab, n_faces, n_tab = n_faces, n_tab, faces, tab
                if legal >= lim or runs >= rlim:
                    d1 = -1  # back to the top: an over, a rule or the end
                    break
            dice.at = at
            if legal != began or runs != began_runs:  # a ball played (a wide is a run)
                if target is not None and runs >= target:
                    closed = "target"
                elif legal >= max_balls:
                    closed = "overs"
                if d1 <= 0:
                    continue
        style = styles[striker]
        mark = len(rolls) if keep else 0
        # deliver(), its two dice here: seven balls in eight need no more (SIMPLE)
        if d1 == 0:
            d1 = roll(6, "dice 1")
            d2 = roll(second_die[style], "dice 2")
        d = simple.get((style, d1, d2))
        if d is not None and not keep:
            # a practice's dot, one, two or four: no ball to log, no extra, no wicket, no
            # review, so only the score, the strike and the end of the innings move
            r = d.runs
            runs += r
            if r & 1:
                striker, non_striker = non_striker, striker
            legal += 1
            if legal % swap_every == 0:
                striker, non_striker = non_striker, striker
            if target is not None and runs >= target:
                closed = "target"
            elif legal >= max_balls:
                closed = "overs"
            continue
        if d is None:  # the reviews matter only for an lbw: asked here, not every ball
            d = follow(
                dice,
                d1,
                d2,
                style,
                10 + bowl_h - bat_skill[striker],
                field,
                keeper,
                rev_bat > 0 and review_allowed(pol_bat, striker, order),
                rev_bowl > 0 and review_allowed(pol_bowl, striker, order),
            )
        extra = d.extra
        if hundred and extra == "no_ball":
            d = d._replace(extra_runs=2)  # a no-ball is worth two runs in The Hundred
        is_legal = extra is None or extra == "bye" or extra == "leg_bye"
        wicket = d.wicket
        if keep:  # the ball log; a practice reads none of it
            over_no = legal // bpo + 1
            ball_no = legal % bpo + 1
            # tuple.__new__: a Ball without NamedTuple's keyword-handling constructor (a tenth
            # of the ball's cost, some 600 times a match)
            delivery: Ball = _new_ball(
                Ball,
                (
                    over_no,
                    ball_no,
                    is_legal,
                    bowler,
                    striker,
                    non_striker,
                    style,
                    d1,
                    d2,
                    d.runs,
                    d.boundary,
                    extra,
                    d.extra_runs,
                    wicket,
                    striker if wicket else None,
                    d.fielder,
                    tuple(rolls[mark:]) if len(rolls) > mark else (),
                    d.note,
                ),
            )
            balls.append(delivery)
            events.append(delivery)
        runs += d.runs + d.extra_runs
        if d.review:
            if d.review == REVIEW_BATTING_FAILED:
                rev_bat -= 1
            elif d.review == REVIEW_BOWLING_FAILED:
                rev_bowl -= 1
        ran = d.runs if extra is None else (d.extra_runs if is_legal else 0)
        if ran & 1:
            striker, non_striker = non_striker, striker
        new_on_strike = False
        if wicket is not None:
            out.append(striker)
            if wicket == "retired hurt":
                injuries.append((striker, d.injury, d.sub_fielding))
                text = (
                    f"{striker} retired hurt: {d.injury} injury "
                    f"point{'s' * (d.injury != 1)}; "
                    f"a substitute (fielding {d.sub_fielding}) fields for him"
                )
                events.append(Injury(inn, legal + 1, team_bat, text, striker, d.injury))
            else:
                wickets += 1
                # The Hundred: the new batter faces after a catch (not after a run out)
                new_on_strike = hundred and wicket == "caught"
            if wickets >= max_wickets or next_in >= len(order):
                striker = None
                closed = "all out"
            else:
                striker = order[next_in]
                next_in += 1
        if is_legal:
            legal += 1
            if legal % swap_every == 0 and not new_on_strike and not closed:
                striker, non_striker = non_striker, striker
        if not closed:
            if target is not None and runs >= target:
                closed = "target"
            elif legal >= max_balls:
                closed = "overs"
    assert striker is not None or closed
    if closed:
        text = _closing_text(team_bat, runs, wickets, legal, bpo, closed)
        events.append(InningsEnd(inn, legal, team_bat, text, runs, wickets, legal, closed))
    # InningsState(...) and not replace(): this runs at every turn of every match
    new = InningsState(
        st.index,
        st.batting_side,
        st.super_over,
        st.max_balls,
        st.max_wickets,
        st.target,
        tuple(order),
        next_in,
        striker,
        non_striker,
        tuple(sorted(styles.items())),
        tuple(sorted(plan.items())),
        (rev_bat, rev_bowl),
        (pol_bat, pol_bowl),
        book.snapshot(),
        runs,
        wickets,
        legal,
        tuple(out),
        tuple(over_bowlers),
        st.balls + tuple(balls) if balls else st.balls,
        closed,
    )
    return new, events, injuries


def _closing_text(team: str, runs: int, wickets: int, legal: int, bpo: int, closed: str) -> str:
    """How an innings ended, as a cricket reader writes it: "Chutneys 96/1 (20 overs)",
    "Chutneys 75/3 (14.2 overs): target reached", "Chutneys all out for 96 (18.3 overs)";
    The Hundred counts balls ("85 balls")."""
    o, b = divmod(legal, bpo)
    if bpo == 5:
        length = f"{legal} ball{'s' * (legal != 1)}"
    else:
        length = f"{o}.{b} overs" if b else f"{o} over{'s' * (o != 1)}"
    if closed == "all out":
        return f"{team} all out for {runs} ({length})"
    if closed == "target":
        return f"{team} {runs}/{wickets} ({length}): target reached"
    return f"{team} {runs}/{wickets} ({length})"
