"""Bowling plans against the limits: what is illegal in a plan, and the nearest legal plan.

A plan (over number, 1-based, to bowler; a set for The Hundred) is *legal* for a format when

* every over is one of the innings' overs and not already begun (``PlanContext.bowled``);
* every bowler is in the XI (when the XI is known) and may bowl (the keeper may not);
* no bowler has more than the format's quota (``max_overs_per_bowler``, overs already
  bowled counting);
* no bowler has more than ``max_consecutive`` overs in succession (the seed's two; one under
  the house rule ``no_consecutive_overs``). An over the plan leaves out breaks a run: the
  default bowler takes it, and the match's default never lets a run grow too long;
* in The Hundred a bowler's consecutive sets are from one end, and the ends change every ten
  balls: no bowler bowls a set that starts a new ten (sets 3, 5, ...) after bowling the set
  before it.

:func:`nearest_legal` turns any plan into a legal one, changing as few overs as it can while
each bowler keeps the number of overs he was given (within his quota): a legal plan comes back
unchanged. Its repairs, cause by cause:

1. overs outside the innings or already begun are dropped; so are the overs of a bowler who is
   not in the XI or may not bowl (the default bowler takes them);
2. a bowler over his quota keeps his first overs up to it (those in a run too long, or
   starting a new end, go first), and the rest are dropped;
3. each run too long, or set carried on to the other end, is mended by the smallest change
   that leaves fewer faults: the offending over *swapped* with the nearest over of another
   bowler, or *moved* to the nearest over the plan leaves free (two overs change, both
   bowlers keep their count; a swap is preferred at the same distance, as it leaves no over
   to the default), else *dropped* (one over changes, to the default bowler). A change is
   taken only if the plan then has strictly fewer faults, so the mending always ends.

Every repair is reported once per cause and bowler (:class:`PlanProblem`), with the overs it
concerns, not once per over. The module is pure: no dice, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from engine.flungo.formats import FormatSpec

__all__ = ["Cause", "PlanContext", "PlanProblem", "faults", "is_legal", "nearest_legal"]

Plan = tuple[tuple[int, str], ...]


class Cause(StrEnum):
    """Why an over of a plan is illegal."""

    NO_SUCH_OVER = "no such over"  # outside the innings
    BEGUN = "begun"  # already bowled (or being bowled)
    NOT_IN_XI = "not in the XI"
    UNABLE = "may not bowl"  # the keeper; a retired-hurt player
    QUOTA = "quota"
    SUCCESSION = "succession"
    ENDS = "ends"  # The Hundred: a set carried on to the other end


@dataclass(frozen=True, slots=True)
class PlanContext:
    """What the plan is checked against besides the format.

    ``xi``: the XI (None when not known: any name is taken as a bowler); ``unable``: who may
    not bowl, and why in words ("keeps wicket"); ``bowled``: the overs already begun in the
    innings, (over, bowler), which count against the limits and cannot change.
    """

    xi: tuple[str, ...] | None = None
    unable: tuple[tuple[str, str], ...] = ()
    bowled: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PlanProblem:
    """One cause of illegality for one bowler, and what the nearest legal plan did about it.

    ``overs``: the planned overs at fault; ``moved``: (from, to) overs he bowls instead;
    ``swapped``: (his over, the other bowler's over, the other bowler) exchanged;
    ``dropped``: overs given to the default bowler. ``text`` says it all in one sentence.
    """

    cause: Cause
    bowler: str
    overs: tuple[int, ...]
    moved: tuple[tuple[int, int], ...] = ()
    swapped: tuple[tuple[int, int, str], ...] = ()
    dropped: tuple[int, ...] = ()
    runs: tuple[tuple[int, int], ...] = ()  # a run too long: (first over, the over too many)
    text: str = field(default="", compare=False)


@dataclass(slots=True)
class _Fault:
    cause: Cause
    bowler: str
    over: int  # the planned over to change
    start: int = 0  # a run too long: its first over
    end: int = 0  # ... and the over that makes it too long (``over`` unless that one stands)


def _unit(spec: FormatSpec, n: int = 2) -> str:
    word = "set" if spec.is_hundred else "over"
    return word if n == 1 else word + "s"


def faults(
    plan: Mapping[int, str] | Iterable[tuple[int, str]],
    spec: FormatSpec,
    context: PlanContext | None = None,
) -> list[tuple[Cause, str, int]]:
    """Every fault of ``plan``: (cause, bowler, the planned over to change), in over order
    within each cause. Empty for a legal plan."""
    ctx = context or PlanContext()
    given = dict(plan)
    return [(f.cause, f.bowler, f.over) for f in _faults(given, spec, ctx)]


def is_legal(
    plan: Mapping[int, str] | Iterable[tuple[int, str]],
    spec: FormatSpec,
    context: PlanContext | None = None,
) -> bool:
    """Whether ``plan`` keeps every limit (see the module docstring)."""
    return not faults(plan, spec, context)


def _fixed_faults(plan: dict[int, str], spec: FormatSpec, ctx: PlanContext) -> list[_Fault]:
    """Faults no move can mend: no such over, begun, not in the XI, may not bowl."""
    out: list[_Fault] = []
    bowled = dict(ctx.bowled)
    unable = dict(ctx.unable)
    xi = set(ctx.xi) if ctx.xi is not None else None
    for o in sorted(plan):
        b = plan[o]
        if not 1 <= o <= spec.overs:
            out.append(_Fault(Cause.NO_SUCH_OVER, b, o))
        elif o in bowled:
            out.append(_Fault(Cause.BEGUN, b, o))
        elif xi is not None and b not in xi:
            out.append(_Fault(Cause.NOT_IN_XI, b, o))
        elif b in unable:
            out.append(_Fault(Cause.UNABLE, b, o))
    return out


def _limit_faults(plan: dict[int, str], spec: FormatSpec, ctx: PlanContext) -> list[_Fault]:
    """Quota, succession and ends faults of a plan whose overs are all real and bowlable."""
    bowled = dict(ctx.bowled)
    who = {**plan, **bowled}
    out: list[_Fault] = []
    counts: dict[str, int] = {}
    for b in bowled.values():
        counts[b] = counts.get(b, 0) + 1
    for o in sorted(plan):
        b = plan[o]
        counts[b] = counts.get(b, 0) + 1
        if counts[b] > spec.max_overs_per_bowler:
            out.append(_Fault(Cause.QUOTA, b, o))
    run_b: str | None = None
    run = 0
    last = 0
    # the overs someone bowls, in order (an over nobody has breaks a run, as a gap does)
    for o in sorted(o for o in who if 1 <= o <= spec.overs):
        if o != last + 1:
            run_b, run = None, 0
        last = o
        b = who[o]
        run = run + 1 if b == run_b else 1
        run_b = b
        if run > spec.max_consecutive and o in plan:
            out.append(_Fault(Cause.SUCCESSION, b, o, o - run + 1, o))
        elif run > spec.max_consecutive and (
            mine := [x for x in range(o - run + 1, o) if x in plan]
        ):
            # the run is made too long by an over that stands (bowled, or the standing plan's
            # after the mail's): the planned over in it is the one to change
            out.append(_Fault(Cause.SUCCESSION, b, mine[-1], o - run + 1, o))
        elif (
            spec.is_hundred
            and o % 2 == 1
            and o > 1
            and who.get(o - 1) == b
            and run <= spec.max_consecutive
        ):
            if o in plan:
                out.append(_Fault(Cause.ENDS, b, o))
            elif o - 1 in plan:
                out.append(_Fault(Cause.ENDS, b, o - 1))
    return out


def _faults(plan: dict[int, str], spec: FormatSpec, ctx: PlanContext) -> list[_Fault]:
    fixed = _fixed_faults(plan, spec, ctx)
    if fixed:
        bad = {f.over for f in fixed}
        rest = {o: b for o, b in plan.items() if o not in bad}
        return fixed + _limit_faults(rest, spec, ctx)
    return _limit_faults(plan, spec, ctx)


@dataclass(slots=True)
class _Log:
    """The repairs made, by (cause, bowler), in the order first met."""

    overs: dict[tuple[Cause, str], list[int]] = field(default_factory=dict)
    runs: dict[tuple[Cause, str], list[tuple[int, int]]] = field(default_factory=dict)
    # an over a move gave: the repair it belongs to, so moving it on again amends that repair
    dest: dict[int, tuple[tuple[Cause, str], int]] = field(default_factory=dict)
    moved: dict[tuple[Cause, str], list[tuple[int, int]]] = field(default_factory=dict)
    swapped: dict[tuple[Cause, str], list[tuple[int, int, str]]] = field(default_factory=dict)
    dropped: dict[tuple[Cause, str], list[int]] = field(default_factory=dict)

    def fault(self, f: _Fault) -> tuple[Cause, str]:
        key = (f.cause, f.bowler)
        self.overs.setdefault(key, []).append(f.over)
        if f.cause is Cause.SUCCESSION:
            self.runs.setdefault(key, []).append((f.start, f.end or f.over))
        return key


def nearest_legal(
    plan: Iterable[tuple[int, str]],
    spec: FormatSpec,
    context: PlanContext | None = None,
) -> tuple[Plan, tuple[PlanProblem, ...]]:
    """The legal plan nearest ``plan`` (see the module docstring), as a sorted tuple of
    (over, bowler), and one :class:`PlanProblem` per cause and bowler. A legal plan comes
    back unchanged, with no problems."""
    ctx = context or PlanContext()
    work = dict(plan)
    if not _faults(work, spec, ctx):
        return tuple(sorted(work.items())), ()
    log = _Log()
    # 1. overs that cannot stand wherever they are
    for f in _fixed_faults(work, spec, ctx):
        key = log.fault(f)
        log.dropped.setdefault(key, []).append(f.over)
        del work[f.over]
    # 2. quotas: keep each bowler's first overs, those at fault in a run or an end going first
    counts: dict[str, int] = {}
    for _, b in ctx.bowled:
        counts[b] = counts.get(b, 0) + 1
    limits = {f.over for f in _limit_faults(work, spec, ctx) if f.cause is not Cause.QUOTA}
    for b in sorted(set(work.values())):
        mine = sorted(o for o, x in work.items() if x == b)
        excess = counts.get(b, 0) + len(mine) - spec.max_overs_per_bowler
        if excess <= 0:
            continue
        for o in sorted(mine, key=lambda o: (o not in limits, -o))[:excess]:
            key = log.fault(_Fault(Cause.QUOTA, b, o))
            log.dropped.setdefault(key, []).append(o)
            del work[o]
    # 3. runs too long and sets carried on to the other end
    while found := _limit_faults(work, spec, ctx):
        f = found[0]
        again = log.dest.get(f.over)
        key = again[0] if again is not None and again[0][1] == f.bowler else log.fault(f)
        _mend(work, f, len(found), spec, ctx, log, key)
    return tuple(sorted(work.items())), _problems(log, spec, dict(ctx.unable))


def _mend(
    work: dict[int, str],
    f: _Fault,
    count: int,
    spec: FormatSpec,
    ctx: PlanContext,
    log: _Log,
    key: tuple[Cause, str],
) -> None:
    """Mend fault ``f`` of ``work`` (which has ``count`` faults) by the nearest swap or move
    that leaves fewer faults, else by dropping its over."""
    o, b = f.over, f.bowler
    begun = {x for x, _ in ctx.bowled}
    best: tuple[int, int, int] | None = None  # (distance, 0 swap / 1 move, over)
    for g in sorted(range(1, spec.overs + 1), key=lambda g: (abs(g - o), g)):
        if g == o or g in begun:
            continue
        dist = abs(g - o)
        if best is not None and dist > best[0]:
            break
        other = work.get(g)
        if other == b:
            continue
        trial = dict(work)
        if other is None:
            del trial[o]
            trial[g] = b
        else:
            trial[o], trial[g] = other, b
        if len(_limit_faults(trial, spec, ctx)) < count:
            cand = (dist, 0 if other is not None else 1, g)
            if best is None or cand < best:
                best = cand
    earlier = log.dest.pop(o, None)
    if earlier is not None and earlier[0] != key:
        earlier = None
    if best is None:
        if earlier is not None:  # the over it was moved to will not do either: back to its own
            first = log.moved[key][earlier[1]][0]
            log.moved[key][earlier[1]] = (first, 0)  # no move after all (0: struck out)
            o = first if first not in work else o
        log.dropped.setdefault(key, []).append(o)
        work.pop(o, None)
        work.pop(f.over, None)
        return
    _, kind, g = best
    if kind == 0:
        other = work[g]
        work[o], work[g] = other, b
        log.swapped.setdefault(key, []).append((o, g, other))
    else:
        del work[o]
        work[g] = b
        moves = log.moved.setdefault(key, [])
        if earlier is not None:  # moved on again: one move, from where it first was
            moves[earlier[1]] = (moves[earlier[1]][0], g)
            log.dest[g] = earlier
        else:
            moves.append((o, g))
            log.dest[g] = (key, len(moves) - 1)


def _list(items: Iterable[int]) -> str:
    xs = [str(x) for x in items]
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def _problems(log: _Log, spec: FormatSpec, unable: dict[str, str]) -> tuple[PlanProblem, ...]:
    out = []
    for key, overs in log.overs.items():
        cause, bowler = key
        moved = tuple(m for m in log.moved.get(key, ()) if m[1])
        swapped = tuple(log.swapped.get(key, ()))
        dropped = tuple(log.dropped.get(key, ()))
        p = PlanProblem(cause, bowler, tuple(sorted(overs)), moved, swapped, tuple(sorted(dropped)))
        runs = tuple(log.runs.get(key, ()))
        why = unable.get(bowler, "")
        text = problem_text(p, spec, runs, why)
        out.append(PlanProblem(cause, bowler, p.overs, moved, swapped, p.dropped, runs, text))
    return tuple(out)


def problem_text(
    p: PlanProblem, spec: FormatSpec, runs: tuple[tuple[int, int], ...] = (), why: str = ""
) -> str:
    """One sentence for a problem: what is wrong, then what the nearest legal plan does."""
    n = len(p.overs)
    unit = _unit(spec, n)
    overs = f"{unit} {_list(p.overs)}"
    quota, run = spec.max_overs_per_bowler, spec.max_consecutive
    match p.cause:
        case Cause.NO_SUCH_OVER:
            what = f"{p.bowler}'s {overs}: an innings has {spec.overs} {_unit(spec)}"
        case Cause.BEGUN:
            what = f"{p.bowler}'s {overs}: already begun"
        case Cause.NOT_IN_XI:
            what = f"{p.bowler} is not in the XI ({overs})"
        case Cause.UNABLE:
            what = f"{p.bowler} {why or 'may not bowl'} ({overs})"
        case Cause.QUOTA:
            what = f"{p.bowler} is given more than {quota} {_unit(spec, quota)}"
        case Cause.SUCCESSION:
            spans = ", ".join(f"{a} to {b}" for a, b in runs) if runs else _list(p.overs)
            what = (
                f"{p.bowler} would bowl more than {run} {_unit(spec, run)} in succession "
                f"({_unit(spec)} {spans})"
            )
        case Cause.ENDS:
            what = (
                f"{p.bowler} would bowl {overs} straight after the set before it, from the "
                "other end (the ends change every ten balls)"
            )
    done = []
    done += [f"he bowls {_unit(spec, 1)} {g} instead of {o}" for o, g in p.moved]
    done += [f"{_unit(spec, 1)} {o} swapped with {c}'s {g}" for o, g, c in p.swapped]
    if p.dropped:
        k = len(p.dropped)
        done.append(
            f"{_unit(spec, k)} {_list(p.dropped)} "
            f"{'go' if k != 1 else 'goes'} to the default bowler"
        )
    return f"{what}: {'; '.join(done)}."
