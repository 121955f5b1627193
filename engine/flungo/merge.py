"""A mail of orders merged into the orders that stand, part by part.

A mail changes only the parts it speaks to; the rest stand. The parts are the team name,
each squad slot's name, the XI, captain, wicketkeeper, toss, batting order, styles, bowling
plan, batting reviews, bowling reviews, conditional orders, helper points and notes. A part
with an error in the mail is *blocked*: what stood before stands, and the report says so, so
an error costs only its own part; an error that does not ``block`` (a bowling plan mended
to its nearest legal plan, ``MendedPlan``) is not blocked: the plan mended is taken. "No
conditional orders" (and the like) clears a part.

Within a part, a mail that names some overs or some batsmen changes those and keeps the rest
(the report's ``kept`` says what): the bowling plan by over ("Lenny Henry bowls overs 14 and
16" changes overs 14 and 16 only), styles by batsman, and the batting order by the batsmen it
names (they go first, in the mail's order; the rest follow in the order that stood). A new
batting order keeps the styles. "new bowling plan:", "new batting order:" or "new styles:"
(see the order language) give that part afresh, whole. The XI, captain, keeper, toss,
reviews and conditional orders are each one order, given whole.

The GM's answer to a flag is merged with ``add=True``: its conditional orders are added after
those that stand (so they win a conflict, as a later line does) instead of replacing them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.flungo.language import ParsedOrders
from engine.flungo.language._canonical import overs_text
from engine.flungo.orders import HelperSpend, MatchOrders, Orders, SquadNaming

__all__ = ["PARTS", "Merged", "PartReport", "kept_sentences", "merge_orders"]

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
    ``changed`` (the mail changed the overs or batsmen it names; ``kept`` are the overs, as
    numbers, or the batsmen that stand as they were), ``blocked`` (the mail's had an error:
    what stood before still stands), ``cleared`` or ``added`` (conditional orders added by the
    GM); ``lines`` are the mail's lines behind it."""

    part: str
    status: str
    lines: tuple[int, ...] = ()
    kept: tuple[str, ...] = ()  # what of the part stood and still stands: overs or batsmen


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
        if e.span is None or e.span.line in flagged or not e.blocks:
            continue  # a plan mended to the nearest legal one is taken as mended
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

    def keep(part: str, kept: tuple[str, ...]) -> None:
        """The mail changed only some of ``part``: say so, and what of it still stands."""
        at = next(i for i, r in enumerate(reports) if r.part == part)
        if kept and reports[at].status == "new":
            reports[at] = replace(reports[at], status="changed", kept=kept)

    xi = new.xi if take("xi") else old.xi
    captain = new.captain if take("captain") else old.captain
    keeper = new.wicketkeeper if take("wicketkeeper") else old.wicketkeeper
    toss = new.toss if take("toss") else old.toss
    styles = dict(old.styles)
    order = old.batting_order
    if take("batting order", new.batting_order is None):
        order = new.batting_order
        if "batting order" not in cleared and new.batting_order and old.batting_order:
            named = set(new.batting_order)
            rest = tuple(n for n in old.batting_order if n not in named)
            # those named first, the rest as they stood (an order is of the XI: 11 at most)
            order = (new.batting_order + rest)[:11]
            rest = order[len(new.batting_order) :]
            keep("batting order", rest)
    if take("styles", not new.styles):
        given = dict(new.styles)
        if "styles" in cleared:
            styles = {}
        else:
            keep("styles", tuple(n for n in sorted(styles) if n not in given))
        styles.update(given)
    elif "batting order" not in bad and "batting order" in spoken:
        styles.update(new.styles)  # styles given with the new batting order
    if xi is not None and "xi" in spoken:
        # a new XI: those of the batting order and styles who are not in it are gone
        order = tuple(n for n in order if n in xi) if order is not None else None
        styles = {n: st for n, st in styles.items() if n in xi}
    plan = old.bowling_plan
    if take("bowling plan", not new.bowling_plan):
        plan = new.bowling_plan
        if "bowling plan" not in cleared:
            given_overs = dict(new.bowling_plan)
            kept_overs = tuple((o, b) for o, b in old.bowling_plan if o not in given_overs)
            plan = tuple(sorted({**dict(old.bowling_plan), **given_overs}.items()))
            keep("bowling plan", tuple(str(o) for o, _ in kept_overs))
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


def _names(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def kept_sentences(merged: Merged) -> tuple[str, ...]:
    """What the mail kept of each part it changed only in part, in words for the reply (and
    how to give a part afresh instead); nothing when it kept nothing."""
    out: list[str] = []
    for r in merged.parts:
        if r.status != "changed":
            continue
        if r.part == "bowling plan":
            overs = overs_text(int(o) for o in r.kept)
            word = "over" if len(r.kept) == 1 else "overs"
            out.append(
                f"Bowling plan: the overs you gave are changed; {word} {overs} stand as they were."
            )
        elif r.part == "styles":
            out.append(f"Styles: those you gave are changed; the styles of {_names(r.kept)} stand.")
        elif r.part == "batting order":
            out.append(
                "Batting order: those you named go first, in your order; then "
                f"{_names(r.kept)}, as before."
            )
    if out:
        out.append(
            'To give a part afresh instead, start it with "new": "new bowling plan: ...", '
            '"new batting order: ...", "new styles: ...".'
        )
    return tuple(out)


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
