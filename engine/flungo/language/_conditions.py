"""Conditions in a parse tree: comparators, quantities and the ways of saying a condition."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lark import Token

from engine.flungo.language._drafts import CondD, NumberError, Ref
from engine.flungo.orders import Comparison, Condition, Quantity

__all__ = ["Conditions", "int_of", "tokens"]


def int_of(tok: Token) -> int:
    """A NUMBER token as a whole number (``NumberError``, located, for 2.5 or 9999999)."""
    text = str(tok)
    if "." in text:
        raise NumberError(
            f"'{text}' should be a whole number", tok.start_pos or 0, tok.end_pos or 0
        )
    if len(text) > 6:
        raise NumberError(f"'{text}' is too big a number", tok.start_pos or 0, tok.end_pos or 0)
    return int(text)


def tokens(children: list[Any], kind: str) -> list[Token]:
    """The tokens of type ``kind`` among a rule's children."""
    return [c for c in children if isinstance(c, Token) and c.type == kind]


_IN_HAND = "wickets in hand"
_NEGATE = {
    Comparison.LE: Comparison.GT,
    Comparison.LT: Comparison.GE,
    Comparison.GE: Comparison.LT,
    Comparison.GT: Comparison.LE,
}
_FLIP = {
    Comparison.LE: Comparison.GE,
    Comparison.LT: Comparison.GT,
    Comparison.GE: Comparison.LE,
    Comparison.GT: Comparison.LT,
    Comparison.EQ: Comparison.EQ,
}


def _in_hand(d: CondD) -> CondD:
    """A condition on wickets in hand, as one on wickets fallen (in hand = 10 - fallen)."""
    c = d.condition
    return CondD(Condition(Quantity.WICKETS, _FLIP[c.op], 10 - c.value))


class Conditions:
    """The transformer callbacks of conditions (mixed into the line transformer)."""

    def le(self, _: list[Any]) -> Comparison:
        return Comparison.LE

    def lt(self, _: list[Any]) -> Comparison:
        return Comparison.LT

    def ge(self, _: list[Any]) -> Comparison:
        return Comparison.GE

    def gt(self, _: list[Any]) -> Comparison:
        return Comparison.GT

    def eq(self, _: list[Any]) -> Comparison:
        return Comparison.EQ

    def comparator(self, c: list[Any]) -> Comparison:  # pragma: no cover - aliased
        return Comparison(c[0])

    def suffix(self, c: list[Any]) -> Comparison:  # pragma: no cover - aliased
        return Comparison(c[0])

    def q_wickets(self, _: list[Any]) -> Quantity:
        return Quantity.WICKETS

    def q_score(self, _: list[Any]) -> Quantity:
        return Quantity.SCORE

    def q_run_rate(self, _: list[Any]) -> Quantity:
        return Quantity.RUN_RATE

    def q_required_rate(self, _: list[Any]) -> Quantity:
        return Quantity.REQUIRED_RATE

    def q_overs(self, _: list[Any]) -> Quantity:
        return Quantity.OVERS

    def q_runs_needed(self, _: list[Any]) -> Quantity:
        return Quantity.RUNS_NEEDED

    def q_balls_left(self, _: list[Any]) -> Quantity:
        return Quantity.BALLS_LEFT

    def _cond(
        self,
        quantity: Quantity,
        c: list[Any],
        default: Comparison = Comparison.EQ,
        per_over: bool = False,
    ) -> CondD:
        ops = [x for x in c if isinstance(x, Comparison)]
        num = tokens(c, "NUMBER")[0]
        return CondD(Condition(quantity, ops[-1] if ops else default, float(str(num))), per_over)

    def q_in_hand(self, _: list[Any]) -> str:
        return _IN_HAND

    def in_hand_condition(self, c: list[Any]) -> CondD:
        """ "if we have 5 wickets in hand": at least 5 in hand, so at most 5 fallen."""
        return _in_hand(self._cond(Quantity.WICKETS, c, Comparison.GE))

    def quantity_condition(self, c: list[Any]) -> CondD:
        if _IN_HAND in c:
            return _in_hand(self._cond(Quantity.WICKETS, c))
        return self._cond(next(x for x in c if isinstance(x, Quantity)), c)

    def lost_condition(self, c: list[Any]) -> CondD:
        return self._cond(Quantity.WICKETS, c)

    def down_condition(self, c: list[Any]) -> CondD:
        return self._cond(Quantity.WICKETS, c)

    def scored_condition(self, c: list[Any]) -> CondD:
        return self._cond(Quantity.SCORE, c)

    # "we need 30" and "30 balls left" mean at least that many: the chase is still that hard,
    # there are still that many balls to go (a bare number would hold for one ball only).
    def need_condition(self, c: list[Any]) -> CondD:
        return self._cond(Quantity.RUNS_NEEDED, c, Comparison.GE)

    def rate_condition(self, c: list[Any]) -> CondD:
        """ "if we need more than 10 an over": the required rate."""
        return self._cond(Quantity.REQUIRED_RATE, c, Comparison.GE)

    def balls_left_condition(self, c: list[Any]) -> CondD:
        return self._cond(Quantity.BALLS_LEFT, c, Comparison.GE)

    def overs_left_condition(self, c: list[Any]) -> CondD:
        """ "if there are 10 overs left": with no comparison written, the moment they are
        (``EQ``, made the trigger where the line has none: ``_lower.moment_of``); "at least
        10 overs left" is the comparison said."""
        return self._cond(Quantity.BALLS_LEFT, c, Comparison.EQ, per_over=True)

    def cond_part(self, c: list[Any]) -> tuple[CondD, ...]:
        return tuple(x for x in c if isinstance(x, CondD))

    def not_out_condition(self, c: list[Any]) -> CondD:
        """ "if Root is still in": Root not out (``NOT_OUT = 1``)."""
        ref = next(x for x in c if isinstance(x, Ref))
        return CondD(Condition(Quantity.NOT_OUT, Comparison.EQ, 1.0), ref=ref)

    def unless_part(self, c: list[Any]) -> tuple[CondD, ...]:
        """ "unless we have lost 5 wickets": the condition turned round (wickets < 5)."""
        d = next(x for x in c if isinstance(x, CondD))
        cond = d.condition
        if cond.quantity is Quantity.NOT_OUT:
            raise NumberError("'unless ... is in' cannot be read: say 'when ... is out'", 0, 6)
        if cond.op is Comparison.EQ and d.per_over:
            # "unless there are 10 overs left": unless 10 or fewer remain, so more than 10
            return (CondD(replace(cond, op=Comparison.GT), d.per_over, d.ref),)
        if cond.op is Comparison.EQ and cond.quantity in (Quantity.WICKETS, Quantity.SCORE):
            # "unless we have lost 5 wickets": unless 5 or more are down
            return (CondD(replace(cond, op=Comparison.LT), d.per_over, d.ref),)
        if cond.op is Comparison.EQ:
            raise NumberError("'unless' with 'exactly' cannot be read: say 'if' instead", 0, 6)
        return (CondD(replace(cond, op=_NEGATE[cond.op]), d.per_over, d.ref),)

    def unless_out(self, c: list[Any]) -> tuple[CondD, ...]:
        """ "unless Root is out": Root still in."""
        ref = next(x for x in c if isinstance(x, Ref))
        return (CondD(Condition(Quantity.NOT_OUT, Comparison.EQ, 1.0), ref=ref),)

    def before_overs(self, c: list[Any]) -> tuple[CondD, ...]:
        """ "before 10 overs": fewer than 10 overs bowled when it fires."""
        n = int_of(tokens(c, "NUMBER")[0])
        return (CondD(Condition(Quantity.OVERS, Comparison.LT, float(n))),)

    def before_over(self, c: list[Any]) -> tuple[CondD, ...]:
        """ "before over 10" (or the 10th): over 10 not yet begun, so fewer than 9 bowled."""
        n = int_of(tokens(c, "NUMBER")[0])
        return (CondD(Condition(Quantity.OVERS, Comparison.LT, float(max(n - 1, 0)))),)
