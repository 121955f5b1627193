"""Bowling plans against the limits: faults found, the nearest legal plan, one problem per cause."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.plan_check import Cause, PlanContext, faults, is_legal, nearest_legal

T20 = FORMATS[Format.T20]
HUNDRED = FORMATS[Format.HUNDRED]
FIFTY = FORMATS[Format.FIFTY]
XI = ("A", "B", "C", "D", "E", "F", "K")
CTX = PlanContext(xi=XI, unable=(("K", "keeps wicket"),))


@st.composite
def specs(draw: st.DrawFn) -> FormatSpec:
    """Every format, with or without the house rule no_consecutive_overs."""
    spec = draw(st.sampled_from(list(FORMATS.values())))
    if draw(st.booleans()):
        spec = dataclasses.replace(spec, max_consecutive=1)
    return spec


@st.composite
def plans(draw: st.DrawFn, spec: FormatSpec) -> tuple[tuple[int, str], ...]:
    """Any plan for ``spec``: bowlers from the XI, the keeper, strangers; overs in and out of
    the innings; runs, quotas and ends broken as they come."""
    bowlers = st.sampled_from(["A", "B", "C", "D", "K", "Z"])
    overs = st.integers(min_value=0, max_value=spec.overs + 1)
    return tuple(sorted(draw(st.dictionaries(overs, bowlers, max_size=spec.overs)).items()))


@st.composite
def legal_plans(draw: st.DrawFn, spec: FormatSpec) -> tuple[tuple[int, str], ...]:
    """A legal plan for ``spec``: a random plan with its faulty overs taken out one by one."""
    plan = dict(draw(plans(spec)))
    while found := faults(plan, spec, CTX):
        del plan[found[0][2]]
    return tuple(sorted(plan.items()))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_nearest_legal_plan_is_legal(data: st.DataObject) -> None:
    """Whatever the plan, the nearest legal plan keeps every limit of the format, gives no
    bowler more overs than he was planned, and names no bowler the plan did not."""
    spec = data.draw(specs())
    plan = data.draw(plans(spec))
    legal, problems = nearest_legal(plan, spec, CTX)
    assert is_legal(legal, spec, CTX), (plan, legal)
    planned = [b for _, b in plan]
    for b in {b for _, b in legal}:
        assert [x for _, x in legal].count(b) <= planned.count(b)
    assert bool(problems) == (tuple(sorted(dict(plan).items())) != legal)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_legal_plan_comes_back_unchanged(data: st.DataObject) -> None:
    """A legal plan is returned as it is, with no problem."""
    spec = data.draw(specs())
    plan = data.draw(legal_plans(spec))
    assert nearest_legal(plan, spec, CTX) == (plan, ())


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_one_problem_per_cause_and_bowler(data: st.DataObject) -> None:
    """However many overs a cause touches, it is reported once for each bowler."""
    spec = data.draw(specs())
    _, problems = nearest_legal(data.draw(plans(spec)), spec, CTX)
    keys = [(p.cause, p.bowler) for p in problems]
    assert len(keys) == len(set(keys))
    assert all(p.text.endswith(".") and p.bowler in p.text for p in problems)


def test_a_third_over_running_moves_to_the_next_free_over() -> None:
    """A 1, 2, 3 in a T20: his third over moves to over 4 (two overs change, he keeps three)."""
    legal, [problem] = nearest_legal(((1, "A"), (2, "A"), (3, "A")), T20, CTX)
    assert legal == ((1, "A"), (2, "A"), (4, "A"))
    assert problem.cause is Cause.SUCCESSION and problem.moved == ((3, 4),)
    assert problem.text == (
        "A would bowl more than 2 overs in succession (overs 1 to 3): he bowls over 4 instead of 3."
    )


def test_a_swap_keeps_every_over_planned() -> None:
    """A plan with every over given and A bowling 1-3: his third is swapped with the nearest
    over of another bowler that mends it, so no over is left to the default."""
    plan = ((1, "A"), (2, "A"), (3, "A"), (4, "B"), (5, "B"), (6, "C"))
    legal, [problem] = nearest_legal(plan, T20, CTX)
    assert dict(legal) == {1: "A", 2: "A", 3: "B", 4: "A", 5: "B", 6: "C"}
    assert problem.swapped == ((3, 4, "B"),)
    assert "over 3 swapped with B's 4" in problem.text


def test_too_many_overs_is_one_error_not_one_per_over() -> None:
    """Seven overs for A in a T20 (quota 4): one problem naming the three overs dropped."""
    plan = tuple((o, "A") for o in (1, 4, 7, 10, 13, 16, 19))
    legal, [problem] = nearest_legal(plan, T20, CTX)
    assert [o for o, _ in legal] == [1, 4, 7, 10]
    assert problem.cause is Cause.QUOTA and problem.dropped == (13, 16, 19)
    assert problem.text == (
        "A is given more than 4 overs: overs 13, 16 and 19 go to the default bowler."
    )


def test_the_hundred_changes_ends_every_ten_balls() -> None:
    """In The Hundred a bowler may bowl sets 1 and 2 (ten balls from one end) but not 2 and 3
    (set 3 starts the next ten, from the other end): the fault is mended by a swap."""
    assert is_legal(((1, "A"), (2, "A"), (3, "B"), (4, "B")), HUNDRED)
    assert not is_legal(((2, "A"), (3, "A")), HUNDRED)
    assert is_legal(((2, "A"), (3, "A")), T20)
    legal, [problem] = nearest_legal(((2, "A"), (3, "A"), (4, "B"), (5, "B")), HUNDRED)
    assert problem.cause is Cause.ENDS
    assert is_legal(legal, HUNDRED)
    assert "the ends change every ten balls" in problem.text


def test_house_rule_no_consecutive_overs() -> None:
    """Under the house rule a bowler never bowls two overs running."""
    spec = dataclasses.replace(T20, max_consecutive=1)
    assert not is_legal(((1, "A"), (2, "A")), spec)
    legal, _ = nearest_legal(((1, "A"), (2, "A"), (3, "B")), spec, CTX)
    assert is_legal(legal, spec, CTX) and [b for _, b in legal].count("A") == 2


def test_overs_already_bowled_count_and_stay() -> None:
    """Mid-innings, the overs bowled count against the limits and cannot be planned again."""
    ctx = PlanContext(xi=XI, bowled=((1, "A"), (2, "A")))
    assert not is_legal(((3, "A"),), T20, ctx)
    legal, problems = nearest_legal(((2, "B"), (3, "A")), T20, ctx)
    assert legal == ((4, "A"),)
    assert {p.cause for p in problems} == {Cause.BEGUN, Cause.SUCCESSION}


def test_a_fifty_over_plan_of_spells_is_legal() -> None:
    """Spells of two at alternate ends, ten overs each: legal in a 50-over match."""
    bowlers = "ABCDE"
    plan = tuple((o, bowlers[((o - 1) // 2) % 5]) for o in range(1, 51))
    assert not faults(plan, FIFTY, CTX)


def test_a_run_made_too_long_by_overs_that_stand_after_it_is_mended() -> None:
    """The standing plan gives A overs 18 and 20; the mail gives him 19: three in a row, the
    planned over moved to the nearest free one, the standing overs unchanged."""
    ctx = PlanContext(xi=XI, bowled=((18, "A"), (20, "A")))
    legal, [problem] = nearest_legal(((19, "A"),), T20, ctx)
    assert legal == ((17, "A"),)
    assert problem.cause is Cause.SUCCESSION and problem.moved == ((19, 17),)
    assert "(overs 18 to 20)" in problem.text
