"""Hit for Six by mail: the registry's entries for DEAL, DAILY, CHALLENGE, H6GAME, TEST and
AVERAGES (see :mod:`pbm.inbound.commands`).

Routing (documented in ``docs/players/hitforsix.md``): a Hit for Six mail names no Flungo
competition, so it is found by its command word alone. A Test by Post mail names its match by
the **wire code**: on the TEST line (``TEST ABC123 …``), or in the subject tag ``[H6 ABC123]``
that every match mail carries (so a plain reply keeps it), or in the plus-address
``pbm+h6-abc123@…``. The seat ticket comes on the TEST line or on a ``SECRET`` line; either way
it is redacted from the stored mail (:attr:`Handled.secrets`), and only its argon2 hash is kept.

Every reply goes through the message's one transaction: the sender's with
:meth:`MailContext.reply` (threaded), the other seats' (a new over, a reveal) queued beside it.
"""

from __future__ import annotations

import re
import secrets
from email.parser import BytesHeaderParser
from email.policy import compat32

from engine.hitforsix.post import parse_wire
from pbm.games.hitforsix import HitForSix, averages, post, solo
from pbm.games.hitforsix.card_images import hand_images
from pbm.games.hitforsix.decks.load import DECK_NAMES
from pbm.games.hitforsix.solo import Reply
from pbm.inbound.commands import CommandLine, command
from pbm.inbound.context import Handled, MailContext, Status
from pbm.outbound.replies import queue_mail

__all__ = [
    "WIRE_TAG",
    "averages_",
    "challenge",
    "daily",
    "deal",
    "game",
    "queue_replies",
    "test",
    "wire_of",
]

GAME = "hitforsix"
#: The name every Hit for Six mail is from and signed with (``queue_mail``'s ``from_name``).
SENDER = HitForSix.sender_name

#: The subject tag of a Test by Post mail: ``[H6 ABC123]`` (also ``[H6:ABC123]``, ``[h6-abc123]``).
WIRE_TAG = re.compile(r"\[\s*H6[\s:-]+([A-Za-z0-9]{6})\s*\]", re.IGNORECASE)
_PLUS = re.compile(r"\+h6-([A-Za-z0-9]{6})@", re.IGNORECASE)  # pbm+h6-abc123@host
_TICKET = re.compile(r"^[A-Za-z2-9]{4}(?:-[A-Za-z2-9]{4}){3}$")


def queue_replies(ctx: MailContext, replies: tuple[Reply, ...], note: str, ok: bool) -> Handled:
    """Queue every reply in the message's transaction: the sender's as a threaded reply, any
    other address's (another seat's over or reveal) as a new mail."""
    for r in replies:
        images = hand_images(r.kind, r.ctx)
        if r.to in (None, ctx.msg.from_addr):
            ctx.reply(r.kind, images=images, from_name=SENDER, **r.ctx)
        else:
            assert r.to is not None
            queue_mail(ctx.session, ctx.config, ctx.clock, kind=r.kind, to=r.to,
                       ctx=r.ctx, inbound_id=ctx.mail.id, images=images,
                       from_name=SENDER)  # fmt: skip
    return ctx.handled(Status.APPLIED if ok else Status.REJECTED, note)


def _solo(ctx: MailContext, reply: Reply, note: str) -> Handled:
    return queue_replies(ctx, (reply,), note, reply.kind != "h6-refused")


def _from_line(ctx: MailContext, line: CommandLine) -> str:
    """The command line and every line after it (an answer or instructions may run on)."""
    lines = ctx.msg.body.replace("\r\n", "\n").split("\n")
    return "\n".join(lines[line.line_no - 1 :])


def _answer_after(ctx: MailContext, line: CommandLine, rest: str) -> str:
    """``rest`` and the lines under the command line, up to the first blank line after some
    text (a SECRET line is blanked in the body, so blanks before the answer are skipped)."""
    lines = ctx.msg.body.replace("\r\n", "\n").split("\n")[line.line_no :]
    parts = [rest.strip()] if rest.strip() else []
    for text in lines:
        if not text.strip():
            if parts:
                break
            continue
        parts.append(text.strip())
    return "\n".join(parts)


@command("DEAL", help="Hit for Six: a random deal to play by reply", usage="DEAL [deck]",
         game=GAME)  # fmt: skip
def deal(ctx: MailContext, line: CommandLine) -> Handled:
    """``DEAL [deck]``: a fresh solo deal; the game travels in the replies, nothing is kept."""
    args = line.rest.split()
    return _solo(ctx, solo.deal_game(secrets.randbits(64), args[0].lower() if args else "t20i"),
                 "h6 deal")  # fmt: skip


@command("DAILY", help="Hit for Six: today's Daily XI, one deal shared by all",
         usage="DAILY [deck]", game=GAME)  # fmt: skip
def daily(ctx: MailContext, line: CommandLine) -> Handled:
    """``DAILY [deck]``: the day's deal of the deck under the day's Rule (law 7.01)."""
    args = line.rest.split()
    return _solo(ctx, solo.daily(ctx.clock.now(), args[0].lower() if args else "t20i"),
                 "h6 daily")  # fmt: skip


@command("CHALLENGE", help="Hit for Six: a rival's deal, against their ghost",
         usage="CHALLENGE <code>", game=GAME)  # fmt: skip
def challenge(ctx: MailContext, line: CommandLine) -> Handled:
    """``CHALLENGE <code>``: the code's deal and Rule, graded against the code's XI."""
    args = line.rest.split()
    if not args:
        return _solo(ctx, Reply("h6-refused", {"reason": "CHALLENGE needs a code"}), "no code")
    return _solo(ctx, solo.challenge(args[0], ctx.clock.now()), "h6 challenge")


@command("H6GAME", help="Hit for Six: your answer under the game line of a deal mail",
         usage="H6GAME … (the line as mailed) and your answer under it", game=GAME,
         priority=60, quotable=True)  # fmt: skip
def game(ctx: MailContext, line: CommandLine) -> Handled:
    """A reply to a solo game: the game line and the answer below it. When the line is only in
    the quoted mail (a reply written on top), the answer is the reply's own text."""
    text = f"{line.text}\n{ctx.msg.body}" if line.quoted else _from_line(ctx, line)
    return _solo(ctx, solo.solo_answer(text, ctx.clock.now()), "h6 answer")


def wire_of(ctx: MailContext) -> str | None:
    """The wire code the mail's subject tag or plus-address names, if any."""
    if found := WIRE_TAG.search(ctx.msg.subject):
        return found.group(1).upper()
    head = BytesHeaderParser(policy=compat32).parsebytes(ctx.mail.raw)
    recipients = [ctx.mail.envelope_to or ""]
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        recipients += [str(v) for v in head.get_all(name, [])]
    for text in recipients:
        if found := _PLUS.search(text):
            return found.group(1).upper()
    return None


def _as_wire(word: str) -> str | None:
    """``word`` as a wire code (upper case), or None if it cannot be one."""
    if len(word) != 6:
        return None
    try:
        return parse_wire(word)
    except ValueError:
        return None


_PACE = re.compile(r"^(\d{1,4})\s*(h|hr|hrs|hours?|d|days?)$", re.IGNORECASE)


def _new_args(words: list[str], default_hours: int) -> tuple[int, str, int]:
    """``TEST NEW [seats] [deck] [pace]``, in any order: ``3 seats``, ``odi``, ``24h``/``2d``/
    ``36 hours``. ValueError names a word that is none of them."""
    seats, deck, hours = 3, "t20i", default_hours
    rest = [w.lower() for w in words]
    i = 0
    while i < len(rest):
        word = rest[i]
        nxt = rest[i + 1] if i + 1 < len(rest) else ""
        if word.isdecimal() and _PACE.match(f"{word}{nxt}") and not nxt.startswith("seat"):
            found = _PACE.match(f"{word}{nxt}")
            i += 1
        else:
            found = _PACE.match(word)
        if found:
            n = int(found.group(1))
            hours = n * 24 if found.group(2).startswith("d") else n
        elif word.isdecimal():
            seats = int(word)
        elif word in {"seat", "seats"}:
            pass
        elif word in DECK_NAMES:
            deck = word
        else:
            raise ValueError(f"TEST NEW reads seats (2, 3 or 4), a deck ({', '.join(DECK_NAMES)}) "
                             f"and a pace (24h, 2d); {word!r} is none of them")  # fmt: skip
        i += 1
    return seats, deck, hours


_TEST_USAGE = (
    "TEST NEW [seats] [deck] [pace, e.g. 24h] to open a match, TEST JOIN <wire code> to take "
    "a seat, or "
    "TEST <wire code> <seat ticket> and your answer for the over"
)


@command("TEST", help="Hit for Six: Test by Post — open, join, or answer the over in play",
         usage="TEST NEW [seats] [deck] [24h] | TEST JOIN <wire> | "
               "TEST [<wire>] [<ticket>] <answer>",
         game=GAME, priority=40)  # fmt: skip
def test(ctx: MailContext, line: CommandLine) -> Handled:
    """``TEST NEW``/``TEST JOIN``/a seat's answer (a window, ``name``, or instructions)."""
    s, c, b, me = ctx.session, ctx.clock, ctx.box, ctx.msg.from_addr
    words = line.rest.split()
    head = words[0].upper() if words else ""
    if head == "NEW":
        try:
            seats, deck, hours = _new_args(words[1:], ctx.config.hitforsix.over_hours)
        except ValueError as exc:
            return queue_replies(ctx, (Reply("h6-refused", {"reason": str(exc)}),), "usage",
                                 False)  # fmt: skip
        res = post.open_match(s, c, b, address=me, seats=seats, deck=deck, over_hours=hours)
        return queue_replies(ctx, res.replies, res.note, res.ok)
    if head == "JOIN":
        joining = words[1] if len(words) > 1 else (wire_of(ctx) or "")
        if not joining:
            return queue_replies(ctx, (Reply("h6-refused", {"reason": _TEST_USAGE}),), "usage",
                                 False)  # fmt: skip
        res = post.join_match(s, c, b, address=me, wire=joining)
        return queue_replies(ctx, res.replies, res.note, res.ok)
    # An answer: [wire] [ticket] then the answer, on the line and the lines under it.
    # The first word is the wire code when it is one and the subject names no other match.
    wire = wire_of(ctx)
    if words and (code := _as_wire(words[0])) and wire in (None, code):
        wire, _ = code, words.pop(0)
    ticket = ctx.msg.secret
    if words and _TICKET.match(words[0]):
        ticket = words.pop(0)
    answer = _answer_after(ctx, line, " ".join(words))
    first, _, after = answer.partition("\n")
    if ticket is None and _TICKET.match(first.strip()):  # the ticket alone under the TEST line
        ticket, answer = first.strip(), after
    secret = (ticket,) if ticket else ()
    if wire is None or ticket is None or not answer.strip():
        reason = _TEST_USAGE if answer.strip() else f"{_TEST_USAGE}: your answer was missing"
        out = queue_replies(ctx, (Reply("h6-refused", {"reason": reason}),), "usage", False)
        return Handled(out.status, out.note, (*out.secrets, *secret))
    res = post.over_reply(s, c, b, address=me, wire=wire, ticket=ticket, text=answer)
    out = queue_replies(ctx, res.replies, f"h6 {wire}: {res.note}", res.ok)
    return Handled(out.status, out.note, tuple(dict.fromkeys((*out.secrets, *secret))))


@command("AVERAGES", help="Hit for Six: post a finished Daily XI's code to The Averages",
         usage="AVERAGES <code> [NAME] <your name> [NUMBER <your number>]", game=GAME)  # fmt: skip
def averages_(ctx: MailContext, line: CommandLine) -> Handled:
    """``AVERAGES <code> <name>``: the book replays the daily and enters it under the name; a
    name's number (given the first time, law 8.02) must come with it later."""
    words = line.rest.split()
    upper = [w.upper() for w in words]
    if len(words) < 2:
        reason = "AVERAGES <code> <your name> [NUMBER <the number it gave you>]"
        return queue_replies(ctx, (Reply("h6-refused", {"reason": reason}),), "usage", False)
    end = upper.index("NUMBER") if "NUMBER" in upper else len(words)
    number = words[end + 1] if end + 1 < len(words) else ctx.msg.secret
    start = 2 if upper[1] == "NAME" else 1
    out = averages.post_daily(ctx.session, ctx.clock, ctx.box, code=words[0],
                              name=" ".join(words[start:end]), number=number)  # fmt: skip
    reply = out.reply if out.reply.to else Reply(out.reply.kind, out.reply.ctx, ctx.msg.from_addr)
    done = queue_replies(ctx, (reply,), "h6 averages", reply.kind != "h6-refused")
    return Handled(done.status, done.note, (*done.secrets, *((number,) if number else ())))
