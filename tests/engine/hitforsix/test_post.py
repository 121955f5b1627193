"""Test by Post (laws 5, 9): wire codes, receipts that open on reveal, and replay codes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.hitforsix.code import CodeError
from engine.hitforsix.over import Decisions
from engine.hitforsix.post import (
    decode_match,
    encode_match,
    is_match_code,
    parse_wire,
    receipt,
    replay_code,
    verify,
    wire_code,
    wire_seed,
)
from engine.hitforsix.testmatch import auto_match, new_match, play_round
from tests.engine.hitforsix.synthetic import synthetic_deck

DECK = synthetic_deck(50, 21)
NONCE = "0123456789abcdef0123456789abcdef"


def test_wire_codes_are_six_unambiguous_characters() -> None:
    """A wire code is six characters with no I, O, 0 or 1; typing is forgiven case and spaces."""
    assert wire_code(0) == "AAAAAA" and wire_code(2**30 - 1) == "999999"
    code = wire_code(123456789)
    assert len(code) == 6 and not set(code) & set("IO01")
    assert parse_wire(f" {code.lower()[:3]} {code[3:]} ") == code
    with pytest.raises(ValueError, match="6 characters"):
        parse_wire("ABC")
    with pytest.raises(ValueError, match="no 'O'"):
        parse_wire("ABCDEO")
    assert wire_seed(code) == wire_seed(code.lower()) != wire_seed(wire_code(1))


def test_documented_wire_vector() -> None:
    """The vectors of docs/rules/hitforsix.md: wire 'K7PQ2M', its seed and a receipt."""
    assert wire_seed("K7PQ2M") == 0xCE3D2FAD0BA6F354
    assert receipt("K7PQ2M", 3, 2, Decisions.from_text("0,1/11"), NONCE) == (
        "095be02324941ee04257fbef61819044ea47a22f5cfa922df369411b56c7a025"
    )


def test_a_receipt_opens_only_with_its_decisions_and_nonce() -> None:
    """The commitment verifies the revealed over; any other over, seat or nonce fails."""
    d = Decisions.from_text("0,1/11")
    r = receipt("K7PQ2M", 3, 2, d, NONCE)
    assert len(r) == 64 and verify(r, "k7pq2m", 3, 2, d, NONCE)
    assert not verify(r, "K7PQ2M", 3, 2, Decisions.from_text("0,1"), NONCE)
    assert not verify(r, "K7PQ2M", 3, 1, d, NONCE)
    assert not verify(r, "K7PQ2M", 4, 2, d, NONCE)
    assert not verify(r, "K7PQ2M", 3, 2, d, "f" * 32)
    with pytest.raises(ValueError, match="nonce"):
        receipt("K7PQ2M", 1, 1, d, "short")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**64 - 1), st.sampled_from([2, 3, 4]))
def test_replay_code_derives_the_whole_match(seed: int, seats: int) -> None:
    """A finished match's replay code holds only decisions and replays to the same standings."""
    state = auto_match(DECK, seed, seats)
    code = encode_match(state, DECK)
    assert is_match_code(code)
    again = replay_code(code, DECK, state.players)
    assert again == state and again.standings == state.standings
    assert again.champion == state.champion


def test_a_match_in_progress_has_a_replay_code_too() -> None:
    """After one over the code replays to one over; before any, to none."""
    state = new_match(DECK, 5, ["a", "b"])
    assert replay_code(encode_match(state, DECK), DECK).overs == ()
    state = play_round(state, DECK, [Decisions.from_text("0"), Decisions()]).state
    assert decode_match(encode_match(state, DECK)).overs == (
        (Decisions.from_text("0"), Decisions()),
    )


def test_bad_replay_codes_are_refused() -> None:
    """Tampering, a cut, another build or another deck are refused with a reason."""
    from dataclasses import replace

    code = encode_match(auto_match(DECK, 3, 2), DECK)
    flipped = code[:20] + ("A" if code[20] != "A" else "B") + code[21:]
    with pytest.raises(CodeError, match="does not check out"):
        replay_code(flipped, DECK)
    with pytest.raises(CodeError):
        replay_code(code[:-6], DECK)
    with pytest.raises(CodeError, match="another build"):
        replay_code(code, replace(DECK, build="other"))
    with pytest.raises(CodeError, match="for the t20i deck"):
        replay_code(code, replace(DECK, name="odi"))


def test_match_codes_and_challenge_codes_never_meet() -> None:
    """A replay code, even of a match with no overs, is told apart from a challenge code."""
    from engine.hitforsix.code import encode as encode_solo
    from engine.hitforsix.deal import deal
    from engine.hitforsix.game import play_solo
    from engine.hitforsix.rules import RULES

    assert is_match_code(encode_match(new_match(DECK, 1, ["a", "b"]), DECK))
    for rule in RULES:
        solo = encode_solo(play_solo(deal(DECK, 4), rule, Decisions()))
        assert not is_match_code(solo)
