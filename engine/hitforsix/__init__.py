"""Hit for Six: the deal, the over of changes, the Rules, grading, codes and Test Matches.

The public surface; the modules hold the details::

    d = deal(deck, parse_seed("42"))                      # or daily_seed(deck.name, "2026-11-29")
    game = play_solo(d, Rule.MAXIMUMS, Decisions.from_text("0,4/11/"))
    game.xi, game.grade.grade, game.resemblance.match.name
    code = encode(game); replay(code, deck); compare(code, deck, Decisions.from_text("1"))
    check_daily(code, deck, "2026-11-29")                 # a daily under the day's Rule only
    encode_match(state, deck); replay_code(code, deck)    # Test by Post: decisions only
"""

from engine.hitforsix.cards import Card, Deck
from engine.hitforsix.choose import parse_window
from engine.hitforsix.code import (
    CodeError,
    GhostResult,
    check_daily,
    compare,
    decode,
    encode,
    replay,
)
from engine.hitforsix.deal import Deal, daily_seed, deal, parse_seed
from engine.hitforsix.game import SoloGame, play_solo
from engine.hitforsix.grading import Grade, Grader
from engine.hitforsix.instructions import parse_instructions, run_instructions
from engine.hitforsix.over import Decisions, Hand, is_reachable, play_over, route_to
from engine.hitforsix.post import decode_match, encode_match, receipt, replay_code, verify
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
    "check_daily",
    "compare",
    "daily_seed",
    "deal",
    "decode",
    "decode_match",
    "encode",
    "encode_match",
    "is_reachable",
    "new_match",
    "parse_instructions",
    "parse_seed",
    "parse_window",
    "play_over",
    "play_round",
    "play_solo",
    "receipt",
    "replay",
    "replay_code",
    "resemblance",
    "route_to",
    "run_instructions",
    "verify",
]
