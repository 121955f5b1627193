"""Hypothesis strategies for valid :class:`Orders` of the fixture squad (see squad.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.flungo.formats import FormatSpec
from engine.flungo.language import check_name
from engine.flungo.orders import (
    Action,
    BattingStyle,
    BowlingChange,
    BowlingRest,
    Comparison,
    Condition,
    HelperSpend,
    MatchOrders,
    Orders,
    Quantity,
    ReviewMode,
    ReviewPolicy,
    ReviewsChange,
    Rule,
    SquadNaming,
    Stat,
    StyleChange,
    StyleTarget,
    TargetKind,
    TossChoice,
    Trigger,
    TriggerKind,
)
from engine.flungo.squad import Team
from tests.engine.orders.squad import NAMES

OPPONENTS = ("Viv Richards", "Brian Lara", "Garfield Sobers", "Clive Lloyd", "Joel Garner")
AVAILABLE = tuple(n for n in NAMES if n != "Rock")  # Rock is injured

_styles = st.sampled_from(list(BattingStyle))


def _subset(pool: tuple[str, ...], lo: int, hi: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(st.sampled_from(pool), min_size=lo, max_size=hi, unique=True).map(tuple)


def policies(pool: tuple[str, ...]) -> st.SearchStrategy[ReviewPolicy]:
    return st.one_of(
        st.sampled_from([ReviewPolicy(ReviewMode.ALL), ReviewPolicy(ReviewMode.NEVER)]),
        _subset(pool, 1, 3).map(lambda n: ReviewPolicy(ReviewMode.NAMED, names=n)),
        st.integers(1, 11).map(lambda k: ReviewPolicy(ReviewMode.TOP_ORDER, top=k)),
    )


def triggers(fmt: FormatSpec, batsmen: tuple[str, ...]) -> st.SearchStrategy[Trigger]:
    return st.one_of(
        st.integers(0, fmt.overs - 1).map(lambda v: Trigger(TriggerKind.AFTER_OVERS, v)),
        st.integers(0, fmt.balls - 1).map(lambda v: Trigger(TriggerKind.AFTER_BALLS, v)),
        st.just(Trigger(TriggerKind.AT_DRINKS)),
        st.integers(1, 10).map(lambda v: Trigger(TriggerKind.WICKET, v)),
        st.sampled_from(batsmen + OPPONENTS).map(
            lambda n: Trigger(TriggerKind.BATSMAN_OUT, name=n)
        ),
        st.integers(1, 500).map(lambda v: Trigger(TriggerKind.SCORE_REACHES, v)),
        st.integers(1, 500).map(lambda v: Trigger(TriggerKind.RUNS_NEEDED, v)),
        st.integers(1, fmt.balls).map(lambda v: Trigger(TriggerKind.BALLS_LEFT, v)),
    )


conditions = st.builds(
    Condition,
    st.sampled_from([q for q in Quantity if q is not Quantity.NOT_OUT]),
    st.sampled_from(list(Comparison)),
    st.integers(0, 2000).map(lambda n: n / 4),
)


def conditions_for(players: tuple[str, ...]) -> st.SearchStrategy[Condition]:
    """Conditions on the numbers, and "X is in" on a batsman of either side."""
    not_out = st.sampled_from(players + OPPONENTS).map(
        lambda n: Condition(Quantity.NOT_OUT, Comparison.EQ, 1.0, n)
    )
    return conditions | not_out


def actions(fmt: FormatSpec, players: tuple[str, ...]) -> st.SearchStrategy[Action]:
    targets = st.one_of(
        st.just(StyleTarget(TargetKind.ALL)),
        st.just(StyleTarget(TargetKind.REMAINING)),
        st.integers(1, 10).map(lambda k: StyleTarget(TargetKind.NEXT, count=k)),
        _subset(players, 1, 3).map(lambda n: StyleTarget(TargetKind.NAMED, names=n)),
        # "all batsmen wahoo except Root", "Flintoff slog, the rest wahoo"
        _subset(players, 1, 3).map(lambda n: StyleTarget(TargetKind.ALL, excluding=n)),
        _subset(players, 1, 3).map(lambda n: StyleTarget(TargetKind.REMAINING, excluding=n)),
    )
    overs = st.lists(st.integers(1, fmt.overs), min_size=1, max_size=4, unique=True)
    return st.one_of(
        st.builds(StyleChange, targets, _styles),
        st.builds(BowlingChange, st.sampled_from(players), overs.map(lambda o: tuple(sorted(o)))),
        st.builds(BowlingRest, _subset(players, 1, 2)),
        st.builds(ReviewsChange, policies(players)),
    )


def spoken(rule: Rule) -> Rule:
    """``rule`` as words can say it: in a rule, "the remaining batsmen" never include the
    batsmen the same rule names for a style of their own (docs/rules/flungo.md), and no
    batsman is named for two styles at one moment, which the reader refuses as a question
    for the player (docs/rules/orders-several-wishes.md)."""
    given: dict[str, BattingStyle] = {}
    once: list[Action] = []
    for a in rule.actions:
        if isinstance(a, StyleChange) and a.target.kind is TargetKind.NAMED:
            names = tuple(n for n in a.target.names if given.setdefault(n, a.style) == a.style)
            if not names:
                continue
            a = StyleChange(StyleTarget(TargetKind.NAMED, names=names), a.style)
        once.append(a)
    rule = Rule(rule.trigger, rule.conditions, tuple(once), rule.until, rule.then)
    named = tuple(
        dict.fromkeys(
            n
            for a in rule.actions
            if isinstance(a, StyleChange) and a.target.kind is TargetKind.NAMED
            for n in a.target.names
        )
    )
    acts: list[Action] = []
    for a in rule.actions:
        if isinstance(a, StyleChange) and a.target.kind is TargetKind.REMAINING and named:
            keep = tuple(dict.fromkeys(named + a.target.excluding))
            a = StyleChange(StyleTarget(TargetKind.REMAINING, excluding=keep), a.style)
        acts.append(a)
    return Rule(
        rule.trigger, rule.conditions, tuple(acts), rule.until, tuple(map(spoken, rule.then))
    )


def rules(fmt: FormatSpec, players: tuple[str, ...], depth: int = 2) -> st.SearchStrategy[Rule]:
    then = (
        st.just(())
        if depth == 0
        else st.one_of(st.just(()), rules(fmt, players, depth - 1).map(lambda r: (r,)))
    )
    conds = st.lists(conditions_for(players), max_size=2).map(tuple)
    watched = st.builds(
        Rule,
        st.just(Trigger(TriggerKind.CONDITIONS)),
        st.lists(conditions_for(players), min_size=1, max_size=2).map(tuple),
        st.lists(actions(fmt, players), min_size=1, max_size=3).map(tuple),
        st.none() | triggers(fmt, players),
        then,
    )
    return (
        watched
        | st.builds(
            Rule,
            triggers(fmt, players),
            conds,
            st.lists(actions(fmt, players), min_size=1, max_size=3).map(tuple),
            st.none() | triggers(fmt, players),
            then,
        )
    ).map(spoken)


@st.composite
def plans(
    draw: st.DrawFn, fmt: FormatSpec, bowlers: tuple[str, ...]
) -> tuple[tuple[int, str], ...]:
    """A legal bowling plan: limits and "not more than 2 in succession" kept, and in The
    Hundred no set that starts a new ten balls straight after the bowler's set before it."""
    plan: list[tuple[int, str]] = []
    counts: dict[str, int] = {}
    run: list[str] = []
    for over in range(1, fmt.overs + 1):
        allowed = [
            b
            for b in bowlers
            if counts.get(b, 0) < fmt.max_overs_per_bowler
            and not (
                len(run) >= fmt.max_consecutive and all(r == b for r in run[-fmt.max_consecutive :])
            )
            and not (fmt.is_hundred and over % 2 == 1 and run and run[-1] == b)
        ]
        choice = draw(st.none() | st.sampled_from(allowed)) if allowed else None
        if choice is None:
            run = []
            continue
        plan.append((over, choice))
        counts[choice] = counts.get(choice, 0) + 1
        run.append(choice)
    return tuple(plan)


@st.composite
def match_orders(draw: st.DrawFn, fmt: FormatSpec) -> MatchOrders:
    xi = draw(st.none() | _subset(AVAILABLE, 11, 11))
    pool = xi or AVAILABLE
    order = draw(
        st.none()
        | st.permutations(pool).flatmap(
            lambda p: st.integers(1, min(11, len(p))).map(lambda k: tuple(p[:k]))
        )
    )
    styled = draw(_subset(pool, 0, 5))
    return MatchOrders(
        xi=xi,
        captain=draw(st.none() | st.sampled_from(pool)),
        wicketkeeper=draw(st.none() | st.sampled_from(pool)),
        toss=draw(st.none() | st.sampled_from(list(TossChoice))),
        batting_order=order,
        styles=tuple(sorted((n, draw(_styles)) for n in styled)),
        bowling_plan=draw(st.just(()) | plans(fmt, draw(_subset(pool, 1, 6)))),
        batting_reviews=draw(st.none() | policies(pool)),
        bowling_reviews=draw(st.none() | policies(OPPONENTS)),
        rules=tuple(draw(st.lists(rules(fmt, pool), max_size=3))),
    )


def helper_spends(team: Team) -> st.SearchStrategy[HelperSpend]:
    fielders = tuple(p.name for p in team.players if p.fielding < 6)
    stats = st.sampled_from(list(Stat))

    @st.composite
    def spend(draw: st.DrawFn) -> HelperSpend:
        treat = draw(st.lists(st.integers(1, 2).map(lambda k: ("Rock", k)), max_size=1))
        room = 6 - sum(p for _, p in treat)
        names = draw(_subset(AVAILABLE, 0, room))
        boosts = []
        for n in names:
            stat = draw(stats)
            if stat is Stat.FIELDING and n not in fielders:
                stat = Stat.BATTING
            boosts.append((n, stat))
        return HelperSpend(tuple(treat), tuple(boosts))

    return spend()


_word = st.text(
    alphabet=st.sampled_from(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéøßЖ.'-&0123456789"
    ),
    min_size=1,
    max_size=10,
)
new_names = (
    st.lists(_word, min_size=1, max_size=3).map(" ".join).filter(lambda n: check_name(n) is None)
)


@st.composite
def namings(draw: st.DrawFn) -> SquadNaming:
    slots = draw(st.lists(st.integers(1, 18), unique=True, max_size=5).map(sorted))
    taken = {n.casefold() for i, n in enumerate(NAMES, 1) if i not in slots}
    names = []
    for s in slots:
        name = draw(new_names.filter(lambda n: n.casefold() not in taken))
        taken.add(name.casefold())
        names.append((s, name))
    team_name = draw(st.none() | new_names)
    return SquadNaming(team_name, tuple(names))


def non_empty(orders: Orders) -> bool:
    """Canonical text cannot say "nothing": empty parts read back as absent."""
    m, h, n = orders.match, orders.helpers, orders.naming
    return (
        (m is None or m != MatchOrders())
        and (h is None or h != HelperSpend())
        and (n is None or n != SquadNaming())
    )


notes = st.lists(
    st.lists(_word, min_size=1, max_size=5).map(lambda w: "note: " + " ".join(w)), max_size=2
).map(tuple)


def orders_for(team: Team, fmt: FormatSpec) -> st.SearchStrategy[Orders]:
    """Valid orders with no squad naming (so every name is the squad's own)."""
    return st.builds(
        Orders,
        naming=st.none(),
        match=st.none() | match_orders(fmt),
        helpers=st.none() | helper_spends(team),
        extras=notes,
    ).filter(non_empty)
