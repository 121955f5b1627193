"""The practice in every answer to an orders mail, and the bowling plan the match will play.

The engine plays the practice (:mod:`engine.flungo.practice`) and mends the plan
(:mod:`engine.flungo.plan_check`); this module finds what they need in the team's outlook
(the next opponent, the pitch and weather, the format and its house rule) and gives the
template its lines. Between seasons, or before the next opponent is known, there is no
practice and the answer says nothing of it.
"""

from __future__ import annotations

from dataclasses import replace

from engine.flungo.language import canonical
from engine.flungo.orders import MatchOrders, Orders
from engine.flungo.practice import practice_lines, practice_seed, practise
from engine.flungo.turn import side_at_selection
from pbm.games.flungo.outlook import Outlook

__all__ = ["practice_for"]


def practice_for(outlook: Outlook | None, orders: Orders | None, seat: str) -> list[str] | None:
    """The practice's lines for a team whose orders in force are ``orders`` (None: the
    defaults), ``seat`` naming it for the dice (the competition's code and seat number);
    None when it has no next match, or its opponent is not known yet."""
    if outlook is None or outlook.opponent is None or outlook.conditions is None:
        return None
    if outlook.format is None:
        return None
    match = orders.match if orders is not None else None
    if outlook.live is not None:
        # on the field: the XI, captain and keeper are the ones selected
        sel = outlook.live
        match = replace(
            match or MatchOrders(), xi=sel.xi, captain=sel.captain, wicketkeeper=sel.wicketkeeper
        )
        team = outlook.squad
    else:
        helpers = orders.helpers if orders is not None else None
        team, _, _ = side_at_selection(outlook.squad, outlook.spends, helpers)
    text = canonical(Orders(match=match)) if match is not None else ""
    practice = practise(
        team,
        match,
        outlook.opponent,
        outlook.format,
        outlook.conditions,
        practice_seed(text, seat),
        opponent_xi=outlook.opponent_xi,
        no_consecutive_overs=outlook.no_consecutive_overs,
    )
    return practice_lines(practice)
