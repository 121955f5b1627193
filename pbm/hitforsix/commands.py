"""Hit for Six's mail commands, ready for the mail-command registry (``pbm/inbound/commands.py``).

This module does no routing. Each command is one :class:`MailCommand`: its word, its help line,
who may send it, and an adapter ``(session, clock, box, sender, args) -> replies`` that calls the
service and returns the replies (template kind, context, address) for the caller to render with
:func:`pbm.render.render_email` and queue. The daemon's registrations, which read the mail
itself (wire code from the subject tag or plus-address, ticket from a SECRET line, multi-line
answers) and queue the replies in the message's transaction, are :mod:`pbm.hitforsix.mail`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from pbm.auth import SecretBox
from pbm.clock import Clock
from pbm.hitforsix import averages, post, solo
from pbm.hitforsix.solo import Reply

__all__ = ["COMMANDS", "MailCommand"]

Adapter = Callable[[Session, Clock, SecretBox, str, Sequence[str]], tuple[Reply, ...]]


@dataclass(frozen=True, slots=True)
class MailCommand:
    """One command: the first word of the mail, a help line, who may send it, the adapter."""

    word: str
    help: str
    who: str  # "anyone", or "seat" (needs a seat ticket)
    run: Adapter


def _to(sender: str, *replies: Reply) -> tuple[Reply, ...]:
    return tuple(r if r.to else replace(r, to=sender) for r in replies)


def _deal(
    s: Session, c: Clock, b: SecretBox, sender: str, args: Sequence[str]
) -> tuple[Reply, ...]:
    return _to(sender, solo.deal_game(secrets.randbits(64), args[0] if args else "t20i"))


def _daily(
    s: Session, c: Clock, b: SecretBox, sender: str, args: Sequence[str]
) -> tuple[Reply, ...]:
    return _to(sender, solo.daily(c.now(), args[0] if args else "t20i"))


def _challenge(
    s: Session, c: Clock, b: SecretBox, sender: str, args: Sequence[str]
) -> tuple[Reply, ...]:
    if not args:
        return _to(sender, Reply("h6-refused", {"reason": "CHALLENGE needs a code"}))
    return _to(sender, solo.challenge(args[0], c.now()))


def _game(
    s: Session, c: Clock, b: SecretBox, sender: str, args: Sequence[str]
) -> tuple[Reply, ...]:
    # The body of a reply to a game mail: the H6GAME line and the answer.
    return _to(sender, solo.solo_answer("\n".join(args), c.now()))


def _test(
    s: Session, c: Clock, b: SecretBox, sender: str, args: Sequence[str]
) -> tuple[Reply, ...]:
    words = list(args)
    if words[:1] and words[0].upper() == "NEW":
        seats = int(words[1]) if len(words) > 1 and words[1].isdecimal() else 2
        deck = words[2] if len(words) > 2 else "t20i"
        return post.open_match(s, c, b, address=sender, seats=seats, deck=deck).replies
    if words[:1] and words[0].upper() == "JOIN" and len(words) > 1:
        return post.join_match(s, c, b, address=sender, wire=words[1]).replies
    if len(words) >= 2:
        wire, ticket, text = words[0], words[1], " ".join(words[2:])
        return post.over_reply(s, c, b, address=sender, wire=wire, ticket=ticket,
                               text=text).replies  # fmt: skip
    usage = "TEST NEW <seats> [deck], TEST JOIN <wire>, or TEST <wire> <ticket> <answer>"
    return _to(sender, Reply("h6-refused", {"reason": usage}))


def _averages(
    s: Session, c: Clock, b: SecretBox, sender: str, args: Sequence[str]
) -> tuple[Reply, ...]:
    words = list(args)
    upper = [w.upper() for w in words]
    if not words or "NAME" not in upper:
        reason = "AVERAGES <code> NAME <your name> [NUMBER <the number it gave you>]"
        return _to(sender, Reply("h6-refused", {"reason": reason}))
    at = upper.index("NAME")
    end = upper.index("NUMBER") if "NUMBER" in upper else len(words)
    number = words[end + 1] if end + 1 < len(words) else None
    out = averages.post_daily(
        s, c, b, code=words[0], name=" ".join(words[at + 1 : end]), number=number
    )
    return _to(sender, out.reply)


COMMANDS: tuple[MailCommand, ...] = (
    MailCommand("DEAL", "DEAL [deck] — a random deal to play by reply", "anyone", _deal),
    MailCommand("DAILY", "DAILY [deck] — today's Daily XI, the one deal shared by all", "anyone",
                _daily),
    MailCommand("CHALLENGE", "CHALLENGE <code> — a rival's deal, against their ghost", "anyone",
                _challenge),
    MailCommand("H6GAME", "(a reply to a game mail: the H6GAME line and your answer)", "anyone",
                _game),
    MailCommand("TEST", "TEST NEW <seats> [deck] | TEST JOIN <wire> | TEST <wire> <ticket> "
                "<answer> — Test by Post", "anyone", _test),
    MailCommand("AVERAGES", "AVERAGES <code> NAME <name> [NUMBER <n>] — post a finished daily",
                "anyone", _averages),
)  # fmt: skip
