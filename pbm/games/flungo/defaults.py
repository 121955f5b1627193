"""What pbm will play if a team sends nothing more: its standing orders, settled by the
engine's defaults (the seed's: the default XI and order, normal style, reviews on every lbw,
the default plan, the default helper-point spend), and the squad's fitness: what each injured
member's injury means and the treatment he needs to play.

Every acknowledgement, reminder and turn report ends with these lines, written in the order
language's canonical form so that a player can copy, change and send them back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from engine.flungo.fitness import FitnessStatus, injury_points_text
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import canonical
from engine.flungo.orders import HelperSpend, MatchOrders, Orders
from engine.flungo.plan import Selection, select
from engine.flungo.plan_check import PlanContext, nearest_legal
from engine.flungo.squad import Team
from engine.flungo.turn import preview_side
from pbm.db.models import Seat
from pbm.games.flungo.outlook import Outlook
from pbm.games.flungo.standing import current_orders, read_standing

__all__ = ["DEFAULT_SPEND", "WillPlay", "standing_orders", "will_play", "will_play_for_seat"]


@dataclass(frozen=True, slots=True)
class WillPlay:
    """The orders in force: ``lines`` (canonical, to copy and send back), ``notes`` on what
    the defaults decide, the standing orders' ``version`` (None: the defaults alone), what
    the defaults fixed or filled in (``fixes``), and ``fitness``: a sentence for each squad
    member who is not fit, saying what it means and what treatment he needs to play."""

    lines: tuple[str, ...]
    notes: tuple[str, ...]
    version: int | None
    fixes: tuple[str, ...]
    default_plan: bool
    default_helpers: bool
    fitness: tuple[str, ...] = ()
    #: what breaks the limits in the plan as given, once per cause (the ``lines`` give the
    #: nearest legal plan, which the match plays)
    plan_problems: tuple[str, ...] = ()


#: The seed's default spend, in the words every mail uses: "If a manager does not specify what
#: the points are to be spent on, the default is to improve the fielding score of the 6 players
#: with the lowest numbers." It treats nobody (docs/rules/flungo-season.md).
DEFAULT_SPEND = "+1 fielding for the six lowest fielders, as the rules say; it treats nobody"


def standing_orders(
    text: str | None, team: Team, fmt: str, session: Session | None = None
) -> Orders | None:
    """Canonical standing orders read against ``team`` (None when there are none; kept by
    the App of ``session``, if given: :func:`read_standing`)."""
    if not text or not text.strip():
        return None
    return read_standing(text, team, fmt, session).orders


def _on_the_field(match: MatchOrders | None, sel: Selection) -> MatchOrders:
    """The orders in force during a match: its XI, captain and keeper as selected, the
    standing batting order and styles (read for the players who took injured men's slots),
    and the standing toss choice (the match's toss is done: it is for the next)."""
    subs = dict(sel.replacements)
    base = match or MatchOrders()
    given = [subs.get(n, n) for n in base.batting_order or ()]
    given = [n for n in dict.fromkeys(given) if n in sel.xi]
    styles = dict(sel.styles)
    styles.update((subs.get(n, n), st) for n, st in base.styles if subs.get(n, n) in sel.xi)
    return replace(
        base,
        xi=sel.xi,
        captain=sel.captain,
        wicketkeeper=sel.wicketkeeper,
        toss=base.toss or sel.toss,
        batting_order=(*given, *(n for n in sel.xi if n not in given)),
        styles=tuple(sorted((n, st) for n, st in styles.items() if st.value != "normal")),
    )


def _fitness_lines(
    outlook: Outlook, helpers: HelperSpend | None, sel: Selection, notice: str
) -> list[str]:
    treated = dict(helpers.treatments) if helpers is not None else {}
    subs = dict(sel.replacements)
    lines = []
    for f in outlook.fitness():
        if f.status is FitnessStatus.NEEDS_TREATMENT and not notice:
            given = treated.get(f.player, 0)
            if given >= f.injury_points:
                lines.append(
                    f"{f.player} is injured ({injury_points_text(f.injury_points)}): your orders "
                    f'treat him ("treat {f.player}: {given}"), so he is fit for '
                    f"{outlook.next_match()}"
                )
                continue
            line = f.sentence(outlook.next_match())
            if given:
                line += f"; your orders treat {given} of his {f.injury_points}, not enough"
        elif f.status is FitnessStatus.NEEDS_TREATMENT:
            line = f.sentence(outlook.next_match())  # the orders' spend is refused: the default
        else:
            line = f.sentence()
        if f.player in subs:
            line += f"; {subs[f.player]} plays in his place in your XI"
        lines.append(line)
    return lines


def will_play(
    team: Team,
    orders: Orders | None,
    fmt: str,
    version: int | None = None,
    outlook: Outlook | None = None,
) -> WillPlay:
    """What ``team`` plays on ``orders`` (or on nothing): XI, captain, keeper, toss, order and
    styles, its plan, reviews and helper spend, and its squad's fitness.

    With the team's ``outlook`` in its season: on the field, the XI actually playing; between
    matches, the next selection by the same call as the match (the helper points spent first,
    the fixture's pitch and weather: :func:`engine.flungo.turn.preview_side`). Without one
    (before the draw), :func:`engine.flungo.plan.select` on what is known."""
    match = orders.match if orders is not None else None
    helpers = orders.helpers if orders is not None else None
    notes: list[str] = []
    notice = ""
    if outlook is not None and outlook.live is not None:
        sel, fixes = outlook.live, []
        settled = _on_the_field(match, sel)
        notes.append(f"the XI on the field in {outlook.label}, chosen at its selection")
    else:
        if outlook is not None and outlook.fixture is not None:
            pv = preview_side(outlook.squad, outlook.spends, orders, outlook.fixture)
            sel, fixes, notice = pv.selection, list(pv.fixes), pv.notice
        else:
            sel, fixes = select(team, match)
        settled = replace(
            match or MatchOrders(),
            xi=sel.xi,
            captain=sel.captain,
            wicketkeeper=sel.wicketkeeper,
            toss=sel.toss,
            batting_order=sel.xi,
            styles=tuple(sorted((n, s) for n, s in sel.styles if s.value != "normal")),
        )
    spec = FORMATS[Format(fmt)]
    if outlook is not None and outlook.spec is not None:
        spec = outlook.spec  # with the competition's house rule on consecutive overs
    # the match plays the nearest legal plan (engine.flungo.match.start_match): say so here
    plan, problems = nearest_legal(
        settled.bowling_plan,
        spec,
        PlanContext(xi=sel.xi, unable=((sel.wicketkeeper, "keeps wicket"),)),
    )
    settled = replace(settled, bowling_plan=plan)
    lines = canonical(Orders(match=settled, helpers=helpers)).splitlines()
    if not settled.bowling_plan:
        notes.append(
            f"bowling: the default plan (the best bowlers for the pitch, at most "
            f"{spec.max_overs_per_bowler} overs each, never {spec.max_consecutive + 1} in a row)"
        )
    if settled.batting_reviews is None and settled.bowling_reviews is None:
        notes.append("reviews: on every lbw until both are used (the default)")
    if helpers is None:
        notes.append(f"helper points: the default ({DEFAULT_SPEND})")
    elif notice:
        notes.append(notice.split(": ", 1)[1])
    fitness = _fitness_lines(outlook, helpers, sel, notice) if outlook is not None else []
    return WillPlay(
        tuple(lines),
        tuple(notes),
        version,
        tuple(fixes),
        not settled.bowling_plan,
        helpers is None,
        tuple(fitness),
        tuple(p.text for p in problems),
    )


def will_play_for_seat(
    session: Session,
    seat: Seat,
    team: Team,
    fmt: str,
    latest: tuple[int, str] | bool | None = True,
    outlook: Outlook | None = None,
) -> WillPlay:
    """:func:`will_play` on the seat's standing orders (the latest version; ``latest`` gives
    its (version, text) when the caller has it already, None for none), read against
    ``team`` (the squad as the next selection finds it)."""
    if latest is True or latest is False:
        row = current_orders(session, seat)
        latest = (row.version, row.text) if row is not None else None
    orders = standing_orders(latest[1] if latest else None, team, fmt, session)
    return will_play(team, orders, fmt, latest[0] if latest else None, outlook)
