"""The mail commands' adapters: each word reaches its service and every reply has an address."""

from __future__ import annotations

from sqlalchemy.orm import Session

from pbm.auth import SecretBox
from pbm.clock import FixedClock
from pbm.config import ServerConfig
from pbm.hitforsix.commands import COMMANDS
from pbm.hitforsix.solo import Reply
from pbm.render import render_email

SENDER = "ann@example.test"


def _run(
    word: str, args: list[str], session: Session, clock: FixedClock, box: SecretBox
) -> list[Reply]:
    command = next(c for c in COMMANDS if c.word == word)
    replies = command.run(session, clock, box, SENDER, args)
    for r in replies:
        assert r.to
        render_email(r.kind, {"server": ServerConfig(address="pbm@x"), **r.ctx})
    return list(replies)


def test_every_command_answers(session: Session, h6_clock: FixedClock, box: SecretBox) -> None:
    """DEAL, DAILY, CHALLENGE, H6GAME, TEST and AVERAGES each give renderable replies."""
    assert {c.word for c in COMMANDS} == {"DEAL", "DAILY", "CHALLENGE", "H6GAME", "TEST",
                                          "AVERAGES"}  # fmt: skip
    assert all(c.help and c.who for c in COMMANDS)
    (dealt,) = _run("DAILY", ["odi"], session, h6_clock, box)
    (done,) = _run("H6GAME", [dealt.ctx["game"], "name"], session, h6_clock, box)
    assert done.kind == "h6-result"
    (posted,) = _run("AVERAGES", [done.ctx["code"], "NAME", "Ann", "Lee"], session, h6_clock, box)
    assert posted.kind == "h6-averages" and posted.ctx["name"] == "Ann Lee"
    (ghost,) = _run("CHALLENGE", [done.ctx["code"]], session, h6_clock, box)
    assert ghost.kind == "h6-deal" and ghost.ctx["ghost"] == done.ctx["code"]
    assert _run("DEAL", ["nope"], session, h6_clock, box)[0].kind == "h6-refused"
    (opened,) = _run("TEST", ["NEW", "2"], session, h6_clock, box)
    assert opened.kind == "h6-test-joined"
    assert _run("TEST", [], session, h6_clock, box)[0].kind == "h6-refused"
    assert _run("AVERAGES", ["x"], session, h6_clock, box)[0].kind == "h6-refused"
