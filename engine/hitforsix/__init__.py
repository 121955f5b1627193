"""Hit for Six: the deal, the over of changes, the Rules, grading, codes and Test Matches.

The public surface; the modules hold the details::

    d = deal(deck, parse_seed("42"))                      # or daily_seed(deck.name, "2026-11-29")
    game = play_solo(d, Rule.MAXIMUMS, Decisions.from_text("0,4/11/"))
    game.xi, game.grade.grade, game.resemblance.match.name
    code = encode(game); replay(code, deck); compare(code, deck, Decisions.from_text("1"))
"""

from engine.hitforsix.cards import Card, Deck
from engine.hitforsix.code import CodeError, GhostResult, compare, decode, encode, replay
from engine.hitforsix.deal import Deal, daily_seed, deal, parse_seed
from engine.hitforsix.game import SoloGame, play_solo
from engine.hitforsix.grading import Grade, Grader
from engine.hitforsix.over import Decisions, Hand, is_reachable, play_over, route_to
from engine.hitforsix.resemblance import Resemblance, resemblance
from engine.hitforsix.rules import DeckRates, Rule
from engine.hitforsix.testmatch import MatchState, auto_match, career, new_match, play_round

__all__ = [
    "Card",
    "CodeError",
    "Deal",
    "Decisions",
    "Deck",
    "DeckRates",
    "GhostResult",
    "Grade",
    "Grader",
    "Hand",
    "MatchState",
    "Resemblance",
    "Rule",
    "SoloGame",
    "auto_match",
    "career",
    "compare",
    "daily_seed",
    "deal",
    "decode",
    "encode",
    "is_reachable",
    "new_match",
    "parse_seed",
    "play_over",
    "play_round",
    "play_solo",
    "replay",
    "resemblance",
    "route_to",
]
