"""Test helpers: scripted dice and squads with chosen skills, so a test can say exactly what
each roll is and what the chance threshold H will be."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.dice import Dice, Roll
from engine.flungo.formats import Format
from engine.flungo.ground import Conditions
from engine.flungo.match import MatchSetup, MatchState, start_match
from engine.flungo.orders import MatchOrders, TossChoice
from engine.flungo.squad import BowlingStyle, Player, Role, Team

AVERAGE = Conditions("Test Ground", 3, 1)  # no pitch or weather modifiers


class Scripted(Dice):
    """Dice that return the values given, in order, and check each fits its die."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def roll(self, sides: int, purpose: str) -> int:
        """The next scripted value (``IndexError`` when the script runs out)."""
        value = self.values.pop(0)
        assert 1 <= value <= sides, f"scripted {value} for a D{sides} ({purpose})"
        self.rolls.append(Roll(sides, value, purpose))
        return value


def squad(name: str, batting: int = 20, bowling: int = 20, fielding: int = 3) -> Team:
    """18 players named ``<name> 1`` .. ``<name> 18``; player 3 is the wicketkeeper; all have
    the given skills and bowl medium pace."""
    players = tuple(
        Player(
            f"{name} {i}",
            Role.WICKETKEEPER if i == 3 else Role.BATSMAN,
            batting,
            bowling,
            fielding,
            BowlingStyle.MEDIUM,
        )
        for i in range(1, 19)
    )
    return Team(name, players)


def setup(fmt: Format = Format.T20, seed: int = 1, knockout: bool = False) -> MatchSetup:
    """Home ``H`` v away ``A``, equal skills (H = 10 for every ball), average conditions."""
    return MatchSetup(fmt, seed, AVERAGE, squad("H"), squad("A"), knockout)


def xi(name: str) -> tuple[str, ...]:
    """Players 1..11 of a :func:`squad`, in order."""
    return tuple(f"{name} {i}" for i in range(1, 12))


def orders(name: str, **kw: object) -> MatchOrders:
    """Orders for a :func:`squad`: players 1..11 in order, player 3 keeps, bat on the toss."""
    base = MatchOrders(
        xi=xi(name),
        captain=f"{name} 1",
        wicketkeeper=f"{name} 3",
        toss=TossChoice.BAT,
        batting_order=xi(name),
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def started(
    fmt: Format = Format.T20,
    home: MatchOrders | None = None,
    away: MatchOrders | None = None,
    seed: int = 1,
    knockout: bool = False,
) -> MatchState:
    """A started match between :func:`squad` sides with :func:`orders`."""
    return start_match(setup(fmt, seed, knockout), home or orders("H"), away or orders("A")).state


def batting_first(state: MatchState) -> str:
    """``"H"`` or ``"A"``: who bats first after the toss."""
    return "HA"[state.batting_first]


DOT = [6, 5]  # a dot ball for every style


def dots(n: int) -> list[int]:
    """Rolls for ``n`` dot balls."""
    return DOT * n
