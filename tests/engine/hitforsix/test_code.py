"""Challenge codes (law 6.01): compact, checked, replayable, and playable against a ghost."""

from __future__ import annotations

import base64
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.hitforsix.code import (
    CodeError,
    build_tag,
    compare,
    decode,
    encode,
    replay,
)
from engine.hitforsix.deal import deal
from engine.hitforsix.game import play_solo
from engine.hitforsix.over import Decisions, reachable_xis, route_to
from engine.hitforsix.rules import RULES, Rule
from tests.engine.hitforsix.synthetic import synthetic_deck

DECK = synthetic_deck(60, 11)


def _code(seed: int = 7, rule: Rule = Rule.MAXIMUMS, drops: str = "0,1,2/11,3/12") -> str:
    return encode(play_solo(deal(DECK, seed), rule, Decisions.from_text(drops)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**64 - 1),
    st.sampled_from(RULES),
    st.sampled_from(sorted(reachable_xis())),
)
def test_code_round_trip(seed: int, rule: Rule, xi: tuple[int, ...]) -> None:
    """Any finished game encodes in ≤ 72 URL-safe characters and replays to the same XI/grade."""
    game = play_solo(deal(DECK, seed), rule, route_to(xi))
    code = encode(game)
    assert len(code) <= 72
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    again = replay(code, DECK)
    assert again.xi == game.xi == xi
    assert again.grade == game.grade
    assert decode(code).decisions == game.decisions


def test_code_holds_version_deck_build_seed_rule() -> None:
    """The decoded challenge has the deck, the build tag, the seed and the Rule."""
    ch = decode(_code(seed=123456789, rule=Rule.THE_TOSS))
    assert (ch.version, ch.deck, ch.seed, ch.rule) == (1, "t20i", 123456789, Rule.THE_TOSS)
    assert ch.build_tag == build_tag(DECK.build)


def test_every_single_character_change_is_rejected() -> None:
    """Changing any one character of a code is caught (checksum or structure)."""
    code = _code()
    for i in range(len(code)):
        for ch in "AQw-":
            if ch != code[i]:
                with pytest.raises(CodeError):
                    replay(code[:i] + ch + code[i + 1 :], DECK)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("short", "32 characters"),
        ("!" * 32, "only letters"),
        ("A" * 32, "does not check out"),
    ],
)
def test_malformed_codes(code: str, message: str) -> None:
    """Malformed codes are refused with a message saying why."""
    with pytest.raises(CodeError, match=message):
        decode(code)


def test_wrong_build_or_deck_is_rejected() -> None:
    """A code made with another build (or deck) cannot be replayed."""
    code = _code()
    with pytest.raises(CodeError, match="another build"):
        replay(code, replace(DECK, build="other"))
    with pytest.raises(CodeError, match="for the t20i deck"):
        replay(code, replace(DECK, name="odi"))


def test_forged_checksum_with_bad_fields_is_rejected() -> None:
    """A well-checksummed code with an unknown version or illegal decisions is still refused."""
    import hashlib

    raw = bytearray(base64.urlsafe_b64decode(_code() + "=="))

    def seal(body: bytes) -> str:
        whole = body + hashlib.sha256(body).digest()[:4]
        return base64.urlsafe_b64encode(whole).decode().rstrip("=")

    v2 = bytearray(raw[:20])
    v2[0] = 2
    with pytest.raises(CodeError, match="version 2"):
        decode(seal(bytes(v2)))
    # window 1 dropping all 11 men: structurally encodable, illegal in play.
    bad = bytearray(raw[:20])
    bits = (1 << 46) | (0x7FF << 35)
    bad[14:20] = bits.to_bytes(6, "big")
    with pytest.raises(CodeError, match="not legal"):
        replay(seal(bytes(bad)), DECK)


def test_ghost_play() -> None:
    """A rival plays the code's deal and Rule against its ghost, grade for grade."""
    code = _code()
    same = compare(code, DECK, decode(code).decisions)
    assert same.winner is None and same.margin == 0.0
    other = compare(code, DECK, Decisions.from_text(""))
    assert other.rival.deal.indices == other.ghost.deal.indices
    expected = (
        None
        if other.rival.grade.tenths == other.ghost.grade.tenths
        else ("rival" if other.rival.grade.tenths > other.ghost.grade.tenths else "ghost")
    )
    assert other.winner == expected


def test_documented_code_vector() -> None:
    """The byte-by-byte example of docs/rules/hitforsix.md encodes to its documented code."""
    from engine.hitforsix.cards import Deck

    deck = Deck("t20i", "example", DECK.cards)
    game = play_solo(deal(deck, 2026), Rule.MAXIMUMS, Decisions.from_text("0,1,2/11/12"))
    code = encode(game)
    assert code == "AQNQ2FjgAAAAAAAAB-rAOQACAAAQkMUP"
    raw = base64.urlsafe_b64decode(code)
    assert raw.hex(" ") == "01 03 50 d8 58 e0 00 00 00 00 00 00 07 ea c0 39 00 02 00 00 10 90 c5 0f"


def _seal(body: bytes) -> str:
    import hashlib

    whole = body + hashlib.sha256(body).digest()[:4]
    return base64.urlsafe_b64encode(whole).decode().rstrip("=")


def test_one_game_has_one_code() -> None:
    """A second spelling of a game (empty windows counted at the end) is refused, not replayed."""
    code = _code(drops="0,4")
    raw = bytearray(base64.urlsafe_b64decode(code))
    assert decode(code).decisions == Decisions.from_text("0,4//")
    bits = int.from_bytes(raw[14:20], "big")
    for played in (2, 3):  # the same drops, counted as two or three windows played
        other = bytearray(raw[:20])
        other[14:20] = ((bits & ~(0b11 << 46)) | (played << 46)).to_bytes(6, "big")
        with pytest.raises(CodeError, match="empty windows"):
            decode(_seal(bytes(other)))
    assert encode(replay(code, DECK)) == code


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=20, max_size=20))
def test_every_code_that_decodes_is_the_code_of_its_game(body: bytes) -> None:
    """Any checked code that replays re-encodes to itself: codes and games correspond one to one."""
    raw = bytearray(base64.urlsafe_b64decode(_code() + "=="))
    mixed = bytes(raw[:2]) + bytes(raw[2:6]) + body[6:14] + body[14:20]
    code = _seal(mixed)
    try:
        game = replay(code, DECK)
    except CodeError:
        return
    assert encode(game) == code


def test_a_daily_under_another_rule_is_refused() -> None:
    """check_daily replays the day's deal under the day's Rule and refuses any other."""
    from engine.hitforsix.code import check_daily
    from engine.hitforsix.deal import daily_seed

    day = "2026-11-29"
    the_deal = deal(DECK, daily_seed("t20i", day))
    good = encode(play_solo(the_deal, the_deal.rule, Decisions.from_text("0")))
    assert check_daily(good, DECK, day).rule is the_deal.rule
    other_rule = next(r for r in RULES if r is not the_deal.rule)
    bad = encode(play_solo(the_deal, other_rule, Decisions.from_text("0")))
    with pytest.raises(CodeError, match="the day's Rule is"):
        check_daily(bad, DECK, day)
    with pytest.raises(CodeError, match="not the t20i Daily XI of 2026-11-30"):
        check_daily(good, DECK, "2026-11-30")
