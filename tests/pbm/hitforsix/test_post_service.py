"""Test by Post by mail, as services on SQLite: open, join, windows, instructions, deadlines."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.hitforsix.over import Decisions
from engine.hitforsix.post import replay_code, verify
from engine.hitforsix.testmatch import auto_seat
from pbm.core.clock import FixedClock
from pbm.games.hitforsix import post
from pbm.games.hitforsix.decks.load import load_deck
from pbm.games.hitforsix.models import H6Match, H6OverEntry, H6Seat
from pbm.games.hitforsix.solo import Reply
from pbm.secrets.seats import SecretBox
from tests.pbm.hitforsix.conftest import Draws

A, B, C = "ann@example.test", "bob@example.test", "cat@example.test"


def _one(replies: tuple[Reply, ...], kind: str, to: str) -> Reply:
    found = [r for r in replies if r.kind == kind and r.to == to]
    assert len(found) == 1, [(r.kind, r.to) for r in replies]
    return found[0]


def test_a_three_seat_match_to_its_champion(
    session: Session, h6_clock: FixedClock, box: SecretBox, draw: Draws
) -> None:
    """Seat 1 answers window by window, seat 2 sends instructions, seat 3 misses deadlines."""
    opened = post.open_match(session, h6_clock, box, address=A, seats=3, over_hours=24, draw=draw)
    joined = _one(opened.replies, "h6-test-joined", A).ctx
    wire, tickets = joined["wire"], {A: box.fill_secrets(joined["ticket"])}
    assert joined["ticket"].startswith("[[pbm-secret:h6:")  # the reply is stored without it
    for who in (B, C):
        res = post.join_match(session, h6_clock, box, address=who, wire=wire.lower(), draw=draw)
        tickets[who] = box.fill_secrets(_one(res.replies, "h6-test-joined", who).ctx["ticket"])
    assert "h6-test-over" in {r.kind for r in res.replies}
    session.commit()
    assert session.scalar(select(H6Match)).status == "playing"  # type: ignore[union-attr]
    assert len(set(tickets.values())) == 3
    assert all(tickets[s.address] not in s.ticket_hash for s in session.scalars(select(H6Seat)))
    seed = __import__("engine.hitforsix.post", fromlist=["wire_seed"]).wire_seed(wire)
    reveals: list[Reply] = []
    for _ in range(400):
        match = session.scalar(select(H6Match))
        assert match is not None
        if match.status == "won":
            break
        n = match.over
        for window in auto_seat(seed, n, 0).windows:  # seat 1: window by window, by position
            text = ", ".join(str(p) for p in sorted(window)) or "none"
            res = post.over_reply(session, h6_clock, box, address=A, wire=wire, ticket=tickets[A],
                                  text=text, draw=draw)  # fmt: skip
            assert res.ok, res.replies
        if len(auto_seat(seed, n, 0).windows) < 3:
            res = post.over_reply(session, h6_clock, box, address=A, wire=wire,
                                  ticket=tickets[A], text="name", draw=draw)  # fmt: skip
            assert res.ok, res
        sealed = session.scalar(select(H6OverEntry).where(H6OverEntry.over == n,
                                                          H6OverEntry.seat == 1))  # fmt: skip
        assert sealed is not None and sealed.sealed
        res = post.over_reply(
            session, h6_clock, box, address=B, wire=wire, ticket=tickets[B], draw=draw,
            text="drop the 3 lowest runs; then if 11 comes, keep him, else drop the lowest "
                 "average\nthen drop the fewest sixes" if n % 2 else "drop 0, 1; name",
        )  # fmt: skip
        assert res.ok, [r.ctx for r in res.replies]
        receipt = _one(res.replies, "h6-test-sealed", B).ctx["receipt"]
        h6_clock.advance(timedelta(hours=19))
        reminded = post.tick(session, h6_clock, draw)
        assert [r.kind for r in reminded.replies] == ["h6-test-reminder"]
        h6_clock.advance(timedelta(hours=6))
        done = post.tick(session, h6_clock, draw)
        reveal = _one(done.replies, "h6-test-reveal", C)
        assert all(s["verified"] for s in reveal.ctx["seats"])
        seat2 = reveal.ctx["seats"][1]
        assert seat2["receipt"] == receipt
        assert verify(receipt, wire, n, 2, Decisions.from_text(seat2["decisions"].replace(
            "(the dealt XI)", "")), seat2["nonce"])  # fmt: skip
        assert reveal.ctx["seats"][2]["how"] == "deadline"
        reveals.append(reveal)
        session.commit()
    match = session.scalar(select(H6Match))
    assert match is not None and match.status == "won"
    last = reveals[-1].ctx
    champion = last["champion"]
    assert champion is not None
    table = {s["seat"]: s for s in last["standings"]}
    assert table[champion]["overs_won"] == 10 and table[champion]["wickets"] == 20
    by_server = post.standings(session, wire)
    by_code = replay_code(last["replay_code"], load_deck("t20i"), by_server.players)
    assert by_code == by_server and by_code.standings == by_server.standings
    winner = by_server.players[champion - 1]
    line = post.career(session, winner)
    assert (line.matches, line.wins, line.overs_won) == (1, 1, 10)
    assert line.runs == by_server.standings[champion - 1].runs


def test_refusals(session: Session, h6_clock: FixedClock, box: SecretBox, draw: Draws) -> None:
    """Bad wire codes, a wrong ticket, a second seat, a full match, a bad order are refused."""
    opened = post.open_match(session, h6_clock, box, address=A, seats=2, draw=draw)
    wire = opened.replies[0].ctx["wire"]
    assert not post.join_match(session, h6_clock, box, address=A, wire=wire, draw=draw).ok
    assert "no 'O'" in post.join_match(session, h6_clock, box, address=B, wire="ABCDEO").note
    post.join_match(session, h6_clock, box, address=B, wire=wire, draw=draw)
    assert "full" in post.join_match(session, h6_clock, box, address=C, wire=wire).note
    bad = post.over_reply(session, h6_clock, box, address=B, wire=wire, ticket="AAAA-BBBB",
                          text="name")  # fmt: skip
    assert not bad.ok and "not a seat ticket" in bad.note
    ticket = box.fill_secrets(opened.replies[0].ctx["ticket"])
    wrong = post.over_reply(session, h6_clock, box, address=A, wire=wire, ticket=ticket,
                            text="0, 1, 2, 3")  # fmt: skip
    assert not wrong.ok and "drops at most 3" in wrong.replies[0].ctx["errors"][0]
    assert not post.open_match(session, h6_clock, box, address=A, seats=5).ok


def test_the_toss_is_revealed_and_each_seat_is_told_which_is_theirs(
    session: Session, h6_clock: FixedClock, box: SecretBox
) -> None:
    """An over under The Toss: no over mail names the hidden Rule, the reveal does; each seat's
    reveal says "you" for its own seat; the new pace is each over's time."""
    from engine.hitforsix.post import wire_code, wire_seed
    from engine.hitforsix.rules import Rule
    from engine.hitforsix.testmatch import over_deal
    from pbm.core.config import ServerConfig
    from pbm.outbound.render import render_email

    deck = load_deck("t20i")
    n = next(
        k for k in range(5000) if over_deal(deck, wire_seed(wire_code(k)), 1).rule is Rule.THE_TOSS
    )
    hidden = over_deal(deck, wire_seed(wire_code(n)), 1).hidden_rule.title
    numbers = iter([n, *range(1, 100)])
    draw = lambda bits: next(numbers) % (1 << bits)  # noqa: E731 — the wire first, then nonces
    opened = post.open_match(session, h6_clock, box, address=A, seats=2, over_hours=6, draw=draw)
    wire = opened.replies[0].ctx["wire"]
    joined = post.join_match(session, h6_clock, box, address=B, wire=wire, draw=draw)
    server = {"server": ServerConfig(address="pbm@x.test")}
    over = _one(joined.replies, "h6-test-over", B)
    assert hidden not in render_email(over.kind, {**server, **over.ctx}).text
    assert "The Toss" in over.ctx["rule"]
    match = session.scalar(select(H6Match))
    assert match is not None and match.over_hours == 6
    tickets = {
        A: box.fill_secrets(opened.replies[0].ctx["ticket"]),
        B: box.fill_secrets(_one(joined.replies, "h6-test-joined", B).ctx["ticket"]),
    }
    post.over_reply(session, h6_clock, box, address=A, wire=wire, ticket=tickets[A], text="name",
                    draw=draw)  # fmt: skip
    res = post.over_reply(session, h6_clock, box, address=B, wire=wire, ticket=tickets[B],
                          text="drop 0; name", draw=draw)  # fmt: skip
    assert res.ok
    for who, seat in ((A, 1), (B, 2)):
        reveal = _one(res.replies, "h6-test-reveal", who)
        text = render_email(reveal.kind, {**server, **reveal.ctx}).text
        assert f"the Rule revealed: {hidden}" in " ".join(text.split())
        assert f"You are seat {seat}." in " ".join(text.split()) and f"Seat {seat} (you)" in text
