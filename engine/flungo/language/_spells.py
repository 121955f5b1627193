"""A captain's plan line, cut into its groups by ``_plans``, built into canonical plan words.

A group is a bowler or a pair and what the line says of them: overs by number, a span, odd or
even, every second over, a count, where a spell starts and ends, a partner changing ends with
him, "the rest". Here the groups become "Warne overs 1, 3, 5", "Warne and Flintoff bowl overs
45-50" (in turn, the first named first) and "Stone and Grey the rest" (resolved against the
mail's other plan lines by the reader). Anything the groups leave unsaid or say twice gives
``None``: the line is then refused with its word, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

__all__ = ["Group", "bare", "build"]


@dataclass
class Group:
    """A bowler, or bowlers said together, and what the line says of their overs."""

    names: list[str]
    overs: list[int] = field(default_factory=list)
    span: tuple[int, int] | None = None
    parity: int | None = None  # 1 odd, 0 even
    every: bool = False
    count: int | None = None
    opens: bool = False
    rest: bool = False
    joint: bool = False  # "with Flintoff": a partner, an opener if the line says so
    end: int | None = None  # "until the 19th": where his overs end
    spell: bool = False  # "in one spell": from one end, every second over
    starts: bool = False  # "Flintoff begins": the first of a pair said before
    partner: list[str] = field(default_factory=list)  # "changing ends with Grey"
    alt: bool = False  # "alternate overs": every second over for one, in turn for a pair
    started: bool = False  # "from the 11th", "on at 7": where a spell starts, not one over
    ends: bool = False  # "from both ends", "X from one end, Y from the other": a pair in turn


def bare(g: Group) -> bool:
    """Whether nothing is said yet of ``g`` but its names ("Anderson and ..." joins them)."""
    return (
        not g.overs
        and g.span is None
        and g.parity is None
        and not g.every
        and not g.rest
        and g.count is None
    )


def _starts(groups: list[Group]) -> list[Group] | None:
    """ "Warne and Flintoff in turn, Flintoff begins": the pair with Flintoff first. A bowler
    who starts with nothing else said of him names the first of a pair said before him."""
    out: list[Group] = []
    for g in groups:
        if not (g.starts and bare(g) and not g.opens and len(g.names) == 1):
            out.append(g)
            continue
        pair = next((h for h in reversed(out) if len(h.names) > 1 and g.names[0] in h.names), None)
        if pair is None:
            return None
        pair.names.remove(g.names[0])
        pair.names.insert(0, g.names[0])
    return out


def _counts_to_rest(groups: list[Group], quota: int) -> bool:
    """ "Flintoff bowls 4 overs, Grey 4, Green the remaining four": where the line shares
    "the rest", a bowler with a count of overs and no overs of his own shares it too. A
    number alone beside such counts is a count ("Grey 4"). The rest gives each his quota,
    so a count that is not the quota is not plain (``False``)."""
    if not any(g.rest or not g.names for g in groups):
        return True
    counted = any(g.count is not None and not g.overs for g in groups)
    for g in groups:
        if (
            g.names
            and len(g.overs) == 1
            and g.count is None
            and g.span is None
            and (g.rest or counted)
        ):
            g.count, g.overs = g.overs[0], []  # "Green the rest (4)", "Grey 4"
        if g.names and bare_but_count(g):
            if g.count != quota:
                return False
            g.rest = True
    return True


def bare_but_count(g: Group) -> bool:
    """Whether a count is all that is said of ``g``."""
    return g.count is not None and not g.overs and g.span is None and not g.every and not g.opens


def _between(mine: list[int], taken: dict[int, str]) -> list[int]:
    """The overs between a spell's first and last that are not his: his partner's end."""
    return [o for o in range(min(mine) + 1, max(mine)) if o not in mine and o not in taken]


def _same(a: str, b: str) -> bool:
    """Whether two names as written are one bowler said twice ("jimmy", "jimmy anderson")."""
    x, y = set(a.split()), set(b.split())
    return x <= y or y <= x


def _restated(groups: list[Group]) -> tuple[list[Group], list[str]] | None:
    """ "Warne opens with Rock, Warne overs 1 and 3, Rock 2 and 4", "the opening pair is Warne
    and Freddie, ... overs 1 to 6 between them": bowlers named first with nothing said of them
    but that they open (or bowl from both ends), then named again with their overs. The first
    naming is dropped; the openers it said are returned, to be checked against the overs."""
    out: list[Group] = []
    openers: list[str] = []
    for i, g in enumerate(groups):
        later = [h for h in groups[i + 1 :] if h.names and not bare(h)]
        plain = bare(g) and not (g.partner or g.started or g.end is not None or g.starts)
        if (
            plain
            and later
            and g.names
            and all(any(_same(n, m) for h in later for m in h.names) for n in g.names)
        ):
            if g.opens:
                openers += g.names
            continue
        out.append(g)
    if len(openers) > 2:
        return None
    return out, openers


def _opened_by(given: dict[int, str], openers: list[str]) -> bool:
    """Whether the overs built give the first over to the first bowler the line said opens
    (and the second to his partner): "Warne opens with Rock" is Warne's first over."""
    return all(o in given and _same(given[o], n) for o, n in enumerate(openers, 1))


def build(groups: list[Group], context: tuple[int, int] | None, overs: int) -> str | None:
    """The groups of a plan line as canonical plan words, ``None`` if not plain; two readings
    on two lines where one bowler is given a phase and which end is not said."""
    copied = [
        replace(g, names=list(g.names), overs=list(g.overs), partner=list(g.partner))
        for g in groups
    ]
    first, ends = _build(copied, context, overs, False)
    if first is None or not ends:
        return first
    # "Flintoff at the death": a bowler bowls from one end, every second over; from the
    # phase's first over or its second is not said, so both are shown and asked
    second, _ = _build(groups, context, overs, True)
    return first if second is None or second == first else f"{first}\n{second}"


def _build(
    groups: list[Group], context: tuple[int, int] | None, overs: int, second_end: bool
) -> tuple[str | None, bool]:
    """``build``'s reading, and whether a bowler's end was left unsaid; ``second_end``: read
    such a bowler from the phase's second over."""
    one_end = False
    found = _starts(groups)
    if found is None or not _counts_to_rest(found, overs // 5):
        return None, False
    restated = _restated(found)
    if restated is None:
        return None, False
    groups, said_open = restated
    out: list[str] = []
    given: dict[int, str] = {}
    openers: list[str] = []
    rest_names: list[str] = []
    pending_rest = False
    shared: set[int] = set()
    for i, g in enumerate(groups):
        # "Anderson and Grey in harness from the 11th to the 26th, Anderson taking the odd
        # overs and Grey the even": the pair's span, then how they share it
        if len(g.names) < 2 or g.span is None or g.overs or g.parity is not None:
            continue
        later = [h for h in groups[i + 1 :] if h.names and set(h.names) <= set(g.names)]
        if {n for h in later for n in h.names} == set(g.names) and all(
            h.span is None and not h.overs and h.parity is not None for h in later
        ):
            shared.add(i)
            for h in later:
                h.span = g.span
    for i, g in enumerate(groups):
        if i in shared:
            continue
        if not g.names:
            pending_rest = pending_rest or g.rest
            continue
        if pending_rest:
            g.rest, pending_rest = True, False
        if g.rest:
            if g.overs or g.span or g.partner:
                return None, False
            rest_names += g.names
            continue
        if (g.alt or g.spell) and len(g.names) == 1 and g.parity is None:
            # "alternate overs", "in one spell": one bowler's overs from one end
            g.every = g.every or g.span is not None or g.end is not None
        if len(g.names) > 1 and g.started and len(g.overs) == 1 and g.count and g.span is None:
            # "Jimmy and Grey from over 11, 6 each": in turn from there, each his count
            g.span, g.overs = (g.overs[0], g.overs[0] + g.count * len(g.names) - 1), []
        if g.opens and len(g.names) == 1 and g.count is not None and not g.overs:
            # "Anderson opens, five overs on the trot": his spell from the first over
            g.overs = [1]
        elif g.opens and g.overs == [1] and g.count is None:
            g.overs = []  # "to open the bowling from the first over": opening is over 1
        if g.ends and len(g.names) != 2:
            return None, False  # two ends are two bowlers' ("Warne, Flintoff and Stone")
        if g.started and len(g.overs) > 1:
            return None, False  # "3 overs from 11 and 3 from 41": two spells, or overs and one
        if g.started and g.overs and not (g.every or g.spell or g.count or g.end or g.partner):
            return None, False  # "Anderson from the 11th": a spell whose length is not said
        if g.partner and g.span is not None and not g.every and g.parity is None:
            # "overs 1 to 10 in turn with Flintoff": the two in turn over the span
            g.names, g.partner = g.names + g.partner, []
        if g.end is not None and g.span is None:
            # "from the 9th ... until the 19th": where he starts to where he ends
            if len(g.overs) != 1:
                return None, False
            g.span, g.overs = (g.overs[0], g.end), []
            g.every = g.every or g.spell
        if len(g.overs) == 1 and g.count is not None and g.count > 1 and g.span is None:
            # "on at 21 and bowls four overs (in one spell)": a spell from one end
            g.span, g.every, g.overs = (g.overs[0], overs), True, []
        if g.overs and g.span is not None and not g.every and g.parity is None:
            # "death overs 17 and 19": the overs said, inside the phase said with them
            if not all(g.span[0] <= o <= g.span[1] for o in g.overs):
                return None, False
            g.span = None
        span = g.span or (
            context if (g.parity is not None or g.every or len(g.names) > 1) else None
        )
        if g.opens and not g.overs and span is None:
            if g.count is not None:
                # "Warne and Flintoff to open, two overs each": in turn from the first over
                span = (1, g.count * len(g.names))
            else:
                openers += g.names
                continue
        mine: list[int]
        if g.overs and span is None and g.parity is None and not g.every:
            mine = g.overs
            if g.count is not None and g.count != len(mine):
                return None, False
        elif span is not None or (g.every and g.overs):
            a, b = span if span is not None else (g.overs[0], overs)
            if not 1 <= a <= b <= overs:
                return None, False
            if (
                len(g.names) > 1
                and g.count is not None
                and not (g.every or g.opens)
                and g.parity is None
                and g.count * len(g.names) != b - a + 1
            ):
                return None, False  # "11 to 30, 5 each": which ten of the twenty is not said
            if g.every:
                if g.count is not None:
                    b = a + 2 * (g.count - 1)
                    if b > overs:
                        return None, False  # "6 overs from the 46th": the innings ends first
                mine = list(range(a, b + 1, 2))
            elif g.parity is not None:
                mine = [o for o in range(a, b + 1) if o % 2 == g.parity]
            elif len(g.names) == 1 and b - a > 1 and g.count is None:
                one_end = True
                mine = list(range(a + int(second_end), b + 1, 2))
            else:
                mine = list(range(a, b + 1))
            if g.opens and min(mine) > 2:
                return None, False  # "opening" said of overs from the 21st
            if len(g.names) > 1 and g.parity is None and not g.every:
                # a pair over a range: in turn, from both ends
                if g.partner:
                    return None, False
                text = " and ".join(g.names) + f" bowl overs {a}-{b}"
                for k, o in enumerate(mine):
                    if given.setdefault(o, g.names[k % len(g.names)]) != g.names[k % len(g.names)]:
                        return None, False
                out.append(text)
                continue
            if g.count is not None and g.count != len(mine) and not g.every:
                return None, False
        else:
            return None, False  # a bowler with no overs: nothing to build (a quota is not a plan)
        if len(g.names) != 1 or not mine or len(g.partner) > 1 or (g.opens and min(mine) > 2):
            return None, False  # ... and an opener whose first over is not the new ball's
        for o in mine:
            if not 1 <= o <= overs or given.setdefault(o, g.names[0]) != g.names[0]:
                return None, False  # an over given to two bowlers in one line: not plain
        out.append(f"{g.names[0]} overs {', '.join(map(str, mine))}")
        if g.partner:
            # "changing ends with Grey": Grey bowls the overs between his, at the other end
            theirs = _between(mine, given)
            if not theirs:
                return None, False
            given.update((o, g.partner[0]) for o in theirs)
            out.append(f"{g.partner[0]} overs {', '.join(map(str, theirs))}")
    if len(openers) == 1:
        out.insert(0, f"{openers[0]} opens the bowling")  # "Stone takes the new ball"
    elif openers:
        if len(openers) != 2:
            return None, False
        out.insert(0, f"{openers[0]} opens the bowling with {openers[1]}")
    if rest_names:
        out.append(_listed(rest_names) + " the rest")
    if pending_rest or not out or (said_open and not _opened_by(given, said_open)):
        return None, False
    return ", ".join(out), one_end


def _listed(names: list[str]) -> str:
    """ "anderson, grey and rock"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
