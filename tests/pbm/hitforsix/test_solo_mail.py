"""DEAL, DAILY and CHALLENGE by mail: the game travels in the replies, decisions only."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.hitforsix.code import decode, encode
from engine.hitforsix.deal import daily_seed, deal
from engine.hitforsix.game import play_solo
from engine.hitforsix.over import Decisions
from engine.hitforsix.rules import Rule
from pbm.core.config import ServerConfig
from pbm.games.hitforsix.decks.load import load_deck
from pbm.games.hitforsix.solo import challenge, daily, deal_game, solo_answer
from pbm.outbound.render import render_email

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _render(kind: str, ctx: dict[str, object]) -> str:
    return render_email(kind, {"server": ServerConfig(address="pbm@example.test"), **ctx}).text


def test_daily_by_reply_window_by_window() -> None:
    """DAILY deals the day's deal; answers by name, 'none' and position play it to a code."""
    first = daily(NOW, "odi")
    assert first.kind == "h6-deal" and "The Daily XI of 2026-12-01" in _render(
        first.kind, first.ctx
    )
    line = first.ctx["game"]
    d = deal(load_deck("odi"), daily_seed("odi", "2026-12-01"))
    surname = d.cards[0].name
    second = solo_answer(f"> {line}\n> \n{surname}, 1\n", NOW)
    assert second.ctx["window"] == 2 and not second.ctx["errors"]
    third = solo_answer(f"{second.ctx['game']}\nnone\n", NOW)
    assert third.ctx["window"] == 3
    done = solo_answer(f"{third.ctx['game']}\n2\n", NOW)
    assert done.kind == "h6-result"
    ch = decode(done.ctx["code"])
    assert ch.decisions == Decisions.from_text("0,1//2") and ch.rule is d.rule
    text = _render(done.kind, done.ctx)
    assert "most resembles" in text and "The best XI of the deal" in text


def test_instructions_and_errors_by_reply() -> None:
    """The whole over at once by instructions; a bad answer is quoted back with a caret."""
    start = deal_game(42, "t20i")
    bad = solo_answer(f"{start.ctx['game']}\n0, 1, 2, 3\n", NOW)
    assert bad.kind == "h6-deal" and "drops at most 3" in bad.ctx["errors"][0]
    done = solo_answer(f"{start.ctx['game']}\ndrop 0, 1; then drop the lowest average\n", NOW)
    assert done.kind == "h6-result"
    assert decode(done.ctx["code"]).decisions.windows[0] == frozenset({0, 1})


def test_the_toss_stays_concealed_until_the_xi_is_named() -> None:
    """Until the XI is named no reply names The Toss's hidden Rule."""
    seed = next(s for s in range(500) if deal(load_deck("t20i"), s).rule is Rule.THE_TOSS)
    start = deal_game(seed, "t20i")
    hidden = deal(load_deck("t20i"), seed).hidden_rule.title
    assert hidden not in _render(start.kind, start.ctx) and "concealed" in start.ctx["rule"]
    done = solo_answer(f"{start.ctx['game']}\nname\n", NOW)
    assert f"the Rule revealed: {hidden}" in _render(done.kind, done.ctx)


def test_challenge_against_the_ghost_and_a_re_ruled_daily_is_refused() -> None:
    """CHALLENGE plays the ghost's deal; a daily code under another Rule is refused."""
    d = deal(load_deck("t20i"), daily_seed("t20i", "2026-12-01"))
    good = encode(play_solo(d, d.rule, Decisions.from_text("3")))
    start = challenge(good, NOW)
    assert start.kind == "h6-deal" and start.ctx["ghost"] == good
    done = solo_answer(f"{start.ctx['game']}\nname\n", NOW)
    assert done.ctx["ghost"]["verdict"] in {"A tie.", "You beat the ghost.", "The ghost wins."}
    other = next(r for r in Rule if r is not d.rule)
    refused = challenge(encode(play_solo(d, other, Decisions())), NOW)
    assert refused.kind == "h6-refused" and "the day's Rule is" in refused.ctx["reason"]
    assert challenge("nonsense", NOW).kind == "h6-refused"
