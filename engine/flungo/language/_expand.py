"""Orders that need the whole mail to mean something, and squad numbers in place of names.

* "Green and White the rest": the overs no other line gives, shared in turn;
* "Openers: Root and Stokes", "Jones at 3": places in the batting order, merged with the
  batting order (or the XI) the mail or the standing orders give;
* "Everyone else normal", "all batsmen normal except Flintoff": styles for the batsmen that
  the other lines leave out; in a rule that names nobody else, "everyone else" leaves out
  the batsmen the mail's other lines give a style;
* a numbered list of 18 new names, and "XI: 1, 2, 3 ...".
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from engine.errors import IllegalOrder, OrderError
from engine.flungo.formats import FormatSpec
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine, FreeText
from engine.flungo.language._model import OrderContext
from engine.flungo.language._names import NameBook
from engine.flungo.language._reader import kept
from engine.flungo.orders import BattingStyle, Rule, StyleChange, StyleTarget
from engine.flungo.squad import SQUAD_SIZE, Team

__all__ = ["batting_names", "expand_items", "numbered_names", "squad_numbers"]

_NUMBER_LINE = re.compile(
    r"^(?:(?:the\s+|our\s+|playing\s+)?xi|eleven|selection|selected|select|pick|team|side"
    r"|captain|capt\.?|skipper|wicket[\s-]?keeper|keeper|wk)\b\s*(?:is\s+|are\s+)?[:=-]?\s*"
    r"(?=[\d\s,&/]*\d[\d\s,&/]*$|(?:[\d\s,&/]|and\b)*\d(?:[\d\s,&/]|and\b)*$)",
    re.IGNORECASE,
)
_HASH = re.compile(r"#(\d{1,2})(?!\d)")
_DIGITS = re.compile(r"(?<![\w.])(\d{1,2})(?![\w.])")


def _token(slot: int, length: int) -> str:
    return chr(0xE100 + slot - 1) + "\ue000" * (length - 1)


def squad_numbers(masked: str, found: dict[int, str], own: tuple[str, ...]) -> str:
    """Squad numbers read as the players they number: "#14" anywhere, and every number of a
    line that is only an XI, captain or keeper by numbers ("XI: 1,2,3,5,7,9,10,14,15,16,17").

    Each number becomes the name token of that squad slot (same length), and ``found`` is
    told which name it is.
    """
    text, slots = _squad_numbers(masked, min(SQUAD_SIZE, len(own)))
    for n in slots:
        found[n - 1] = own[n - 1]
    return text


@kept(maxsize=4096)
def _squad_numbers(masked: str, most: int) -> tuple[str, tuple[int, ...]]:
    """:func:`squad_numbers` for a squad of ``most`` numbers: the text, and the numbers read
    (remembered: it reads the masked line, which a turn's mails have alike)."""
    slots: list[int] = []

    def repl(m: re.Match[str]) -> str:
        n = int(m.group(1))
        if not 1 <= n <= most:
            return m.group(0)
        slots.append(n)
        return _token(n, len(m.group(0)))

    if "#" in masked:
        masked = _HASH.sub(repl, masked)
    head = _NUMBER_LINE.match(masked)
    if head is not None:
        masked = masked[: head.end()] + _DIGITS.sub(repl, masked[head.end() :])
    return masked, tuple(slots)


_NUMBERED = re.compile(r"^\s*(\d{1,2})\s*[.):]\s+(\S.*?)\s*$")


def numbered_names(
    lines: list[CleanLine | None],
    free: dict[int, FreeText],
    team: Team,
    keywords: frozenset[str],
) -> dict[int, FreeText]:
    """A run of five or more numbered lines ("1. Homer Simpson" ... "18. Lionel Hutz") that are
    neither orders nor the squad's names: the squad named slot by slot.

    A line that is already that slot's name is left alone; a run with a word of the orders in
    it is not a naming (it is a numbered batting order, or orders).
    """
    book = NameBook([p.name for p in team.players])
    out: dict[int, FreeText] = {}
    run: list[tuple[CleanLine, int, str]] = []

    def close() -> None:
        if len(run) >= 5 and all(a[1] < b[1] for a, b in itertools.pairwise(run)):
            for cl, slot, text in run:
                if text.casefold() != team.players[slot - 1].name.casefold():
                    out[cl.number] = FreeText("slot", text, 0, slot=slot)
        run.clear()

    for cl in lines:
        if cl is None:
            continue  # a blank line does not end a list
        m = _NUMBERED.match(cl.raw)
        if m is None or cl.number in free:
            close()
            continue
        slot, text = int(m.group(1)), " ".join(cl.plain.split())
        first = text.split()[0].lower().strip(":,")
        known = (
            book.candidates(text)
            and text.casefold()
            != team.players[min(max(slot, 1), len(team.players)) - 1].name.casefold()
        )
        if not 1 <= slot <= SQUAD_SIZE or first in keywords or known:
            close()
            continue
        run.append((cl, slot, text))
    close()
    return out


def batting_names(items: list[Item], upto: int, ctx: OrderContext) -> tuple[str, ...]:
    """Who "all batsmen" means at item ``upto``: the mail's batting order so far, else its XI,
    else the standing batting order or XI."""
    order = [i for i in items[:upto] if i.kind == "order" and i.ok]
    if order:
        return tuple(n for n, _ in order[-1].value)
    xi = [i for i in items if i.kind == "xi" and i.ok]
    if xi:
        return tuple(xi[-1].value)
    standing = ctx.standing
    if standing is not None:
        return standing.batting_order or standing.xi or ()
    return ()


def expand_items(items: list[Item], fmt: FormatSpec, ctx: OrderContext) -> list[OrderError]:
    """Turn the orders that need the whole mail into plain items, in place; the errors."""
    errors: list[OrderError] = []
    _rules_else(items)
    _places(items, ctx, errors)
    _rest(items, fmt, ctx)
    _other_styles(items, ctx)
    return errors


def _styled_elsewhere(items: list[Item]) -> tuple[str, ...]:
    """The batsmen the mail's plain lines single out with a style, in the order named."""
    names: list[str] = []
    for item in items:
        if not item.ok:
            continue
        if item.kind == "style":
            names.append(item.value[0])
        elif item.kind == "order":
            names += [n for n, s in item.value if s is not None]
        elif item.kind == "position" and item.value[2] is not None:
            names.append(item.value[0])
        elif item.kind == "except_style":
            names += item.value[1]
    return tuple(dict.fromkeys(n for n in names if n != "?"))


def _rules_else(items: list[Item]) -> None:
    """A rule's "everyone else" that names nobody in its own clause ("after 30 overs:
    everyone else normal") leaves out the batsmen the mail's other lines style."""
    if not any(i.kind == "rule_else" for i in items):
        return
    styled = _styled_elsewhere(items)
    for k, item in enumerate(items):
        if item.kind != "rule_else":
            continue
        rule, marks = item.value
        items[k] = replace(item, kind="rule", value=_exclude(rule, marks, styled))


def _exclude(
    rule: Rule, marks: tuple[tuple[int, int], ...], styled: tuple[str, ...], depth: int = 0
) -> Rule:
    acts = list(rule.actions)
    for clause, at in marks:
        a = acts[at] if clause == depth else None
        if isinstance(a, StyleChange):
            t = a.target
            keep = tuple(dict.fromkeys(t.excluding + styled))
            acts[at] = StyleChange(StyleTarget(t.kind, excluding=keep), a.style)
    then = tuple(_exclude(r, marks, styled, depth + 1) for r in rule.then)
    return replace(rule, actions=tuple(acts), then=then)


def _places(items: list[Item], ctx: OrderContext, errors: list[OrderError]) -> None:
    placed = [i for i in items if i.kind in ("openers", "position") and i.ok]
    if not placed:
        return
    orders = [i for i in items if i.kind == "order" and i.ok]
    base: list[tuple[str, BattingStyle | None]] = list(orders[-1].value) if orders else []
    if not base:
        xi = [i for i in items if i.kind == "xi" and i.ok]
        names = tuple(xi[-1].value) if xi else ()
        if not names and ctx.standing is not None:
            names = ctx.standing.batting_order or ctx.standing.xi or ()
        base = [(n, None) for n in names]
    mail_xi = [i for i in items if i.kind == "xi" and i.ok]
    standing_xi = ctx.standing.xi if ctx.standing is not None else None
    side: tuple[str, ...] = tuple(mail_xi[-1].value) if mail_xi else standing_xi or ()
    for item in placed:
        said = item.value if item.kind == "openers" else (item.value[0],)
        if away := [n for n in said if side and n not in side]:
            # "Grey at 8" with Grey not in the XI: said so, not "12 batsmen"
            errors.append(
                item.error(
                    IllegalOrder,
                    f"{away[0]} is not in the XI, so he has no place in its batting order",
                    hint="put him in the XI ('Grey in for White'), or give another place",
                )
            )
    if any(not i.ok for i in placed):
        return
    places: dict[int, tuple[str, BattingStyle | None]] = {}
    for item in placed:
        if item.kind == "openers":
            for k, n in enumerate(item.value, start=1):
                places[k] = (n, None)
        else:
            name, place, style = item.value
            places = {k: v for k, v in places.items() if v[0] != name}
            places[place] = (name, style)
    chosen = {n for n, _ in places.values()}
    rest = iter([e for e in base if e[0] not in chosen])
    size = max(len(base), max(places))
    order: list[tuple[str, BattingStyle | None]] = []
    for k in range(1, size + 1):
        entry = places.get(k) or next(rest, None)
        if entry is None:
            last = placed[-1]
            errors.append(
                last.error(
                    IllegalOrder,
                    f"nobody is given place {k} of the batting order",
                    hint="give the batting order, or the XI, with the places",
                )
            )
            for i in placed:
                i.ok = False
            return
        order.append(entry)
    order += list(rest)
    last = placed[-1]
    merged = replace(last, kind="order", value=tuple(order))
    at = items.index(last)
    out: list[Item] = []
    for k, i in enumerate(items):
        if k == at:
            out.append(merged)
        elif i.ok and i.kind in ("openers", "position", "order"):
            # its place is in the merged batting order, echoed on the last such line
            out.append(replace(i, kind="placed"))
        else:
            out.append(i)
    items[:] = out


def _rest(items: list[Item], fmt: FormatSpec, ctx: OrderContext) -> None:
    if not any(i.kind == "rest" and i.ok for i in items):
        return
    taken = {o for o, _ in ctx.bowled}
    plan: dict[int, str] = dict(ctx.bowled)
    # "the rest" is what the mail's other plan lines leave, those after it as well as before
    plan.update(i.value for i in items if i.kind == "plan" and i.ok)
    out: list[Item] = []
    for item in items:
        if item.kind != "rest" or not item.ok:
            out.append(item)
            continue
        bowlers = list(item.value)
        counts = {b: sum(1 for v in plan.values() if v == b) for b in bowlers}
        turn = 0
        for over in range(1, fmt.overs + 1):
            if over in plan or over in taken:
                continue
            for k in range(len(bowlers)):
                b = bowlers[(turn + k) % len(bowlers)]
                if counts[b] >= fmt.max_overs_per_bowler or not _fits(plan, over, b, fmt):
                    continue
                plan[over] = b
                counts[b] += 1
                out.append(replace(item, kind="plan", value=(over, b)))
                turn = (turn + k + 1) % len(bowlers)
                break
    items[:] = out


def _fits(plan: dict[int, str], over: int, b: str, fmt: FormatSpec) -> bool:
    """Whether ``b`` may bowl ``over`` beside the plan's overs on either side of it: no run
    longer than the format's, and in The Hundred no set carried on to the other end."""
    before = next(j for j in range(over - 1, -2, -1) if plan.get(j) != b)
    after = next(j for j in range(over + 1, fmt.overs + 3) if plan.get(j) != b)
    if after - before - 1 > fmt.max_consecutive:
        return False
    # The Hundred's ends change after every second set: sets 3, 5, ... start a new ten
    return not fmt.is_hundred or (
        not (over % 2 == 1 and plan.get(over - 1) == b)
        and not (over % 2 == 0 and plan.get(over + 1) == b)
    )


def _other_styles(items: list[Item], ctx: OrderContext) -> None:
    if not any(i.kind in ("others_style", "except_style") for i in items):
        return
    styled: set[str] = set()
    out: list[Item] = []
    for k, item in enumerate(items):
        if item.ok and item.kind == "order":
            styled |= {n for n, s in item.value if s is not None}
        elif item.ok and item.kind == "style":
            styled.add(item.value[0])
        elif item.ok and item.kind == "all_style":
            styled |= set(batting_names(items, k, ctx))
        if item.kind not in ("others_style", "except_style"):
            out.append(item)
            continue
        if not item.ok:
            continue
        names = batting_names(items, k, ctx)
        style = item.value if item.kind == "others_style" else item.value[0]
        if not names and style is not BattingStyle.NORMAL:
            # no XI or order to take "all but ..." from: the error "all" gets. ("Everybody
            # else normal" asks for what no order at all gives, so it stays said and kept.)
            out.append(replace(item, kind="all_style", value=style))
            continue
        if item.kind == "others_style":
            style, skip = item.value, styled
        else:
            style, excepted = item.value
            skip = set(excepted)
        chosen = [n for n in names if n not in skip]
        out += [replace(item, kind="style", value=(n, style)) for n in chosen]
        if not chosen:
            out.append(replace(item, kind="placed"))  # nobody left to style: said, kept
        styled |= set(chosen)
    items[:] = out


def order_in_force(items: list[Item], ctx: OrderContext) -> tuple[str, ...]:
    """The batting order at the end of ``items`` (the mail's lines read so far): its batting
    order with the places given since, else its XI's order or the order that stands."""
    copies = [
        replace(i) for i in items if i.ok and i.kind in ("order", "xi", "openers", "position")
    ]
    if any(i.kind in ("openers", "position") for i in copies):
        _places(copies, ctx, [])
    return batting_names(copies, len(copies), ctx)
