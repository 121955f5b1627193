"""The canonical text of orders: one line per order, in words the parser reads back."""

from __future__ import annotations

from collections.abc import Iterable

from engine.flungo.orders import (
    Action,
    BattingStyle,
    BowlingChange,
    BowlingRest,
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

__all__ = [
    "CLEAR_WORDS",
    "boost_line",
    "bowler_lines",
    "canonical",
    "canonical_lines",
    "captain_line",
    "keeper_line",
    "note_line",
    "order_line",
    "overs_text",
    "reviews_line",
    "rule_line",
    "slot_line",
    "style_line",
    "team_line",
    "toss_line",
    "treat_line",
    "xi_line",
]


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)


def team_line(name: str) -> str:
    return f"team name: {name}"


def slot_line(slot: int, name: str) -> str:
    return f"name {slot}: {name}"


def xi_line(names: Iterable[str]) -> str:
    return f"xi: {_names(names)}"


def captain_line(name: str) -> str:
    return f"captain: {name}"


def keeper_line(name: str) -> str:
    return f"wicketkeeper: {name}"


def toss_line(choice: TossChoice) -> str:
    return f"toss: {choice.value}"


def order_line(order: Iterable[str], styles: dict[str, BattingStyle]) -> str:
    parts = [f"{n} ({styles[n].value})" if n in styles else n for n in order]
    return f"batting order: {_names(parts)}"


def style_line(name: str, style: BattingStyle) -> str:
    return f"{name} bats {style.value}"


def overs_text(overs: Iterable[int]) -> str:
    """``1, 3, 5-7``: runs of three or more consecutive overs become ranges."""
    nums = sorted(set(overs))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{nums[i]}-{nums[j]}")
        else:
            parts.extend(str(n) for n in nums[i : j + 1])
        i = j + 1
    return ", ".join(parts)


def _bowl(name: str, overs: Iterable[int]) -> str:
    overs = tuple(overs)
    word = "over" if len(overs) == 1 else "overs"
    return f"{name} bowls {word} {overs_text(overs)}"


def bowler_lines(plan: Iterable[tuple[int, str]]) -> list[str]:
    """One line per bowler, in the order of each one's first over."""
    by: dict[str, list[int]] = {}
    for over, bowler in sorted(plan):
        by.setdefault(bowler, []).append(over)
    return [_bowl(b, overs) for b, overs in by.items()]


def _policy(policy: ReviewPolicy) -> str:
    if policy.mode is ReviewMode.NAMED:
        return f"only for {_names(policy.names)}"
    if policy.mode is ReviewMode.TOP_ORDER:
        return f"only for the top {policy.top}"
    return policy.mode.value


def reviews_line(side: str, policy: ReviewPolicy) -> str:
    return f"{side} reviews: {_policy(policy)}"


def treat_line(name: str, points: int | None) -> str:
    # None: the line named no points ("treat Rock"), echoed before the checks give it all the
    # player's injury points (the readings compared in _read._meaning_line): as it was said
    return f"treat {name}" if points is None else f"treat {name}: {points}"


def boost_line(name: str, stat: Stat) -> str:
    return f"boost {name}: {stat.value}"


# The parts a mail may clear or give afresh, as the echo and the answer name them.
CLEAR_WORDS = {
    "rules": "conditional orders",
    "plan": "bowling plan",
    "order": "batting order",
    "styles": "styles",
    "helpers": "helper points",
    "notes": "notes",
}


def clear_line(part: str) -> str:
    """ "clear conditional orders": a part of the standing orders cleared."""
    return f"clear {CLEAR_WORDS[part]}"


def fresh_line(part: str) -> str:
    """ "new bowling plan:": the lines that follow give that part afresh (whole)."""
    return f"new {CLEAR_WORDS[part]}:"


def note_line(text: str) -> str:
    return f"note: {text}"


# ---- rules --------------------------------------------------------------------------------

_QUANTITY = {
    Quantity.WICKETS: "wickets",
    Quantity.SCORE: "score",
    Quantity.RUN_RATE: "run rate",
    Quantity.REQUIRED_RATE: "required rate",
    Quantity.OVERS: "overs",
    Quantity.RUNS_NEEDED: "runs needed",
    Quantity.BALLS_LEFT: "balls left",
}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _event(t: Trigger) -> str:
    """The trigger without its leading word, as after "when" or "until"."""
    v = t.value or 0
    match t.kind:
        case TriggerKind.AFTER_OVERS:
            return f"after {v} {'over' if v == 1 else 'overs'}"
        case TriggerKind.AFTER_BALLS:
            return f"after {v} balls"
        case TriggerKind.AT_DRINKS:
            return "drinks"
        case TriggerKind.WICKET:
            return f"the {_ordinal(v)} wicket falls"
        case TriggerKind.BATSMAN_OUT:
            return f"{t.name} is out"
        case TriggerKind.SCORE_REACHES:
            return f"the score reaches {v}"
        case TriggerKind.RUNS_NEEDED:
            return f"{v} runs are needed"
        case TriggerKind.BALLS_LEFT:
            return f"{v} balls are left"
    raise ValueError(t.kind)  # pragma: no cover


def trigger_text(t: Trigger) -> str:
    """``after 20 overs``, ``at drinks``, ``when the 6th wicket falls``..."""
    if t.kind in (TriggerKind.AFTER_OVERS, TriggerKind.AFTER_BALLS):
        return _event(t)
    if t.kind is TriggerKind.AT_DRINKS:
        return "at drinks"
    return f"when {_event(t)}"


def _condition(c: Condition) -> str:
    if c.quantity is Quantity.NOT_OUT:
        return f"{c.name} is in"
    return f"{_QUANTITY[c.quantity]} {c.op.value} {_number(c.value)}"


def _target(t: StyleTarget) -> str:
    match t.kind:
        case TargetKind.ALL:
            return "all batsmen"
        case TargetKind.NAMED:
            return " and ".join(t.names) if len(t.names) <= 2 else _names(t.names)
        case TargetKind.NEXT:
            return f"the next {t.count} batsmen"
        case TargetKind.REMAINING:
            return "the remaining batsmen"
    raise ValueError(t.kind)  # pragma: no cover


def action_text(a: Action) -> str:
    if isinstance(a, StyleChange):
        verb = "bats" if a.target.kind is TargetKind.NAMED and len(a.target.names) == 1 else "bat"
        text = f"{_target(a.target)} {verb} {a.style.value}"
        if a.target.excluding:
            # the echo names whom "everyone else" leaves out, so the player can check it
            text += f" except {_names(a.target.excluding)}"
        return text
    if isinstance(a, BowlingChange):
        return _bowl(a.bowler, a.overs)
    if isinstance(a, BowlingRest):
        verb = "bowls" if len(a.bowlers) == 1 else "bowl"
        return f"{' and '.join(a.bowlers)} {verb} the rest"
    if isinstance(a, ReviewsChange):
        return f"reviews {_policy(a.policy)}"
    raise TypeError(a)  # pragma: no cover


def _clause(rule: Rule) -> str:
    if rule.trigger.kind is TriggerKind.CONDITIONS:
        # no event: "if required rate > 8: ..." is watched until its conditions hold
        text = "if " + " and ".join(_condition(c) for c in rule.conditions)
    else:
        text = trigger_text(rule.trigger)
    if rule.conditions and rule.trigger.kind is not TriggerKind.CONDITIONS:
        text += ", if " + " and ".join(_condition(c) for c in rule.conditions)
    text += ": " + "; ".join(action_text(a) for a in rule.actions)
    if rule.until is not None:
        text += f", until {_event(rule.until)}"
    return text


def rule_line(rule: Rule) -> str:
    """A rule and its chain of "but" rules, each chained to the one before, on one line.

    Only a chain can be written (each rule has at most one ``then`` rule), as only a chain can
    be said in words; ``ValueError`` for a rule with two ``then`` rules.
    """
    parts = [_clause(rule)]
    while rule.then:
        if len(rule.then) > 1:
            raise ValueError("a rule can be written with at most one 'but' rule chained to it")
        rule = rule.then[0]
        parts.append("but " + _clause(rule))
    return "; ".join(parts)


# ---- whole orders -------------------------------------------------------------------------


def _naming_lines(n: SquadNaming) -> list[str]:
    lines = [team_line(n.team_name)] if n.team_name is not None else []
    return lines + [slot_line(s, name) for s, name in n.names]


def _match_lines(m: MatchOrders) -> list[str]:
    lines: list[str] = []
    styles = dict(m.styles)
    if m.xi is not None:
        lines.append(xi_line(m.xi))
    if m.captain is not None:
        lines.append(captain_line(m.captain))
    if m.wicketkeeper is not None:
        lines.append(keeper_line(m.wicketkeeper))
    if m.toss is not None:
        lines.append(toss_line(m.toss))
    in_order = set(m.batting_order or ())
    if m.batting_order is not None:
        lines.append(order_line(m.batting_order, styles))
    lines += [style_line(n, s) for n, s in m.styles if n not in in_order]
    lines += bowler_lines(m.bowling_plan)
    if m.batting_reviews is not None:
        lines.append(reviews_line("batting", m.batting_reviews))
    if m.bowling_reviews is not None:
        lines.append(reviews_line("bowling", m.bowling_reviews))
    lines += [rule_line(r) for r in m.rules]
    return lines


def _helper_lines(h: HelperSpend) -> list[str]:
    return [treat_line(n, p) for n, p in h.treatments] + [boost_line(n, s) for n, s in h.boosts]


def canonical_lines(orders: Orders) -> list[str]:
    """The canonical lines of ``orders``, in a fixed order (naming, match, helpers, extras)."""
    lines: list[str] = []
    if orders.naming is not None:
        lines += _naming_lines(orders.naming)
    if orders.match is not None:
        lines += _match_lines(orders.match)
    if orders.helpers is not None:
        lines += _helper_lines(orders.helpers)
    lines += list(orders.extras)  # already canonical lines ("note: ...")
    return lines


def canonical(orders: Orders) -> str:
    """``orders`` as canonical text, one order per line; ``parse_orders`` reads it back equal."""
    return "\n".join(canonical_lines(orders))
