"""A mail of orders merged into the orders that stand, part by part.

A mail replaces only the parts it speaks to; the rest stand. The parts are the team name,
each squad slot's name, the XI, captain, wicketkeeper, toss, batting order, styles, bowling
plan, batting reviews, bowling reviews, conditional orders, helper points and notes. A part
with an error in the mail is *blocked*: what stood before stands, and the report says so, so
an error costs only its own part. "No conditional orders" (and the like) clears a part.

Styles follow the batting order: a mail with a new batting order gives the styles afresh (a
batsman it gives no style bats normal); a mail with styles only changes those batsmen's.

The GM's answer to a flag is merged with ``add=True``: its conditional orders are added after
those that stand (so they win a conflict, as a later line does) instead of replacing them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.flungo.language import ParsedOrders
from engine.flungo.orders import HelperSpend, MatchOrders, Orders, SquadNaming

__all__ = ["PARTS", "Merged", "PartReport", "merge_orders"]

PARTS = (
    "team name",
    "xi",
    "captain",
    "wicketkeeper",
    "toss",
    "batting order",
    "styles",
    "bowling plan",
    "batting reviews",
    "bowling reviews",
    "conditional orders",
    "helper points",
    "notes",
)
_CLEARS = {
    "rules": "conditional orders",
    "plan": "bowling plan",
    "order": "batting order",
    "styles": "styles",
    "helpers": "helper points",
    "notes": "notes",
}


@dataclass(frozen=True, slots=True)
class PartReport:
    """What the mail did to one part: ``status`` is ``new`` (the mail's stands now),
    ``blocked`` (the mail's had an error: what stood before still stands), ``cleared`` or
    ``added`` (conditional orders added by the GM); ``lines`` are the mail's lines behind it."""

    part: str
    status: str
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Merged:
    """The orders that stand after the mail, and what happened to each part it spoke to
    (parts it did not speak to are not listed: they stand as they were)."""

    orders: Orders
    parts: tuple[PartReport, ...]

    def status(self, part: str) -> str:
        """``kept`` for a part the mail did not touch, else its report's status."""
        return next((p.status for p in self.parts if p.part == part), "kept")

    @property
    def blocked(self) -> tuple[PartReport, ...]:
        """The parts whose new version had an error (the older one stands)."""
        return tuple(p for p in self.parts if p.status == "blocked")


def _spoken(mail: ParsedOrders) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """(part -> lines that spoke to it, part -> lines with an error in it)."""
    spoken: dict[str, list[int]] = {}
    for line, parts in mail.line_parts:
        for p in parts:
            spoken.setdefault(p, []).append(line)
    flagged = {n.line for n in mail.not_understood}
    by_line = dict(mail.line_parts)
    bad: dict[str, list[int]] = {}
    for e in mail.errors:
        if e.span is None or e.span.line in flagged:
            continue
        for p in by_line.get(e.span.line, ()):
            bad.setdefault(p, []).append(e.span.line)
    return spoken, bad


def merge_orders(standing: Orders, mail: ParsedOrders, *, add: bool = False) -> Merged:
    """``standing`` with ``mail`` merged in, part by part (see the module docstring)."""
    spoken, bad = _spoken(mail)
    reports: list[PartReport] = []
    cleared = {_CLEARS[c] for c in mail.clears}
    old = standing.match or MatchOrders()
    new = mail.orders.match or MatchOrders()

    def take(part: str, empty: bool = False) -> bool:
        """Whether the mail's version of ``part`` stands now (and report what happened).

        A "clear" line speaks to its part with nothing in it: the part is cleared."""
        if part in bad:
            reports.append(PartReport(part, "blocked", tuple(dict.fromkeys(bad[part]))))
            return False
        if part not in spoken:
            return False
        kind = "added" if add and part == "conditional orders" else "new"
        if part in cleared and empty:
            kind = "cleared"
        reports.append(PartReport(part, kind, tuple(dict.fromkeys(spoken[part]))))
        return True

    xi = new.xi if take("xi") else old.xi
    captain = new.captain if take("captain") else old.captain
    keeper = new.wicketkeeper if take("wicketkeeper") else old.wicketkeeper
    toss = new.toss if take("toss") else old.toss
    styles = dict(old.styles)
    if take("batting order", new.batting_order is None):
        order = new.batting_order
        styles = {}  # a new batting order gives the styles afresh
    else:
        order = old.batting_order
    if take("styles", not new.styles):
        styles = {} if "styles" in cleared else styles
        styles.update(new.styles)
    elif "batting order" not in bad and "batting order" in spoken:
        styles.update(new.styles)  # styles given with the new batting order
    plan = new.bowling_plan if take("bowling plan", not new.bowling_plan) else old.bowling_plan
    bat_rev = new.batting_reviews if take("batting reviews") else old.batting_reviews
    bowl_rev = new.bowling_reviews if take("bowling reviews") else old.bowling_reviews
    rules = old.rules
    if take("conditional orders", not new.rules):
        rules = old.rules + new.rules if add else new.rules
    match = MatchOrders(
        xi=xi,
        captain=captain,
        wicketkeeper=keeper,
        toss=toss,
        batting_order=order,
        styles=tuple(sorted(styles.items())),
        bowling_plan=plan,
        batting_reviews=bat_rev,
        bowling_reviews=bowl_rev,
        rules=rules,
    )
    helpers = standing.helpers
    if take("helper points", mail.orders.helpers is None):
        helpers = mail.orders.helpers
    extras = standing.extras
    if take("notes", not mail.orders.extras):
        extras = mail.orders.extras
    naming = _merge_naming(standing.naming, mail, spoken, bad, reports)
    merged = Orders(
        naming=naming,
        match=match if match != MatchOrders() else None,
        helpers=helpers if helpers != HelperSpend() else None,
        extras=extras,
    )
    order_of = {p: i for i, p in enumerate(PARTS)}
    reports.sort(key=lambda r: (order_of.get(r.part, len(PARTS)), _slot(r.part)))
    return Merged(merged, tuple(reports))


def _slot(part: str) -> int:
    return int(part.split()[1]) if part.startswith("name ") else 0


def _merge_naming(
    standing: SquadNaming | None,
    mail: ParsedOrders,
    spoken: dict[str, list[int]],
    bad: dict[str, list[int]],
    reports: list[PartReport],
) -> SquadNaming | None:
    """Names by slot: a mail's name line changes its slot only; an error in one keeps the
    slot's name that stood."""
    old = standing or SquadNaming()
    names = dict(old.names)
    team_name = old.team_name
    given = mail.orders.naming or SquadNaming()
    if "team name" in bad:
        reports.append(PartReport("team name", "blocked", tuple(bad["team name"])))
    elif given.team_name is not None:
        team_name = given.team_name
        reports.append(PartReport("team name", "new", tuple(spoken.get("team name", ()))))
    for slot, name in given.names:
        part = f"name {slot}"
        if part not in bad:
            names[slot] = name
            reports.append(PartReport(part, "new", tuple(spoken.get(part, ()))))
    for part, lines in bad.items():
        if part.startswith("name "):
            reports.append(PartReport(part, "blocked", tuple(lines)))
    if team_name is None and not names:
        return None
    return replace(old, team_name=team_name, names=tuple(sorted(names.items())))
