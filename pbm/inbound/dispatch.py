"""The one place that decides what a mail wants, and runs it.

:func:`route` is one call on the :class:`~pbm.mail.understand.Understood` mail: the flows'
view of it (game code, command lines, secret) and the :class:`Decision`, from the known
competitions' games, before any row is read. :func:`decide` is the pure decision (tested as a
table). :func:`run` carries a decision out in the message's transaction: admission first (a
person's mail: "mailed again" and the rate limit, :func:`pbm.inbound.ratelimit.admit`), then
:func:`execute`: it authenticates the GM, turns an :class:`~pbm.core.errors.AuthError` into
the refusal mail, and calls the handler.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbm.core.errors import AuthError
from pbm.inbound.commands import Audience, Command, CommandLine, fallbacks, registry
from pbm.inbound.context import Handled, MailContext, Status
from pbm.inbound.intake import Incoming, incoming_of
from pbm.inbound.ratelimit import admit
from pbm.mail.understand import Understood
from pbm.secrets.seats import normalise_secret

__all__ = [
    "Decision",
    "Ignore",
    "NotUnderstood",
    "Routed",
    "Run",
    "admitted",
    "decide",
    "execute",
    "route",
]


@dataclass(frozen=True, slots=True)
class Ignore:
    """Automatic mail: never answered (that is how mail loops start)."""

    note: str


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """Nothing in the mail names a command pbm can run for it."""

    note: str
    unknown_code: str | None = None


@dataclass(frozen=True, slots=True)
class Run:
    """Run these handlers, in order: one command, or every GM command of a GM's mail."""

    steps: tuple[tuple[Command | None, CommandLine], ...]  # None: the game's fallback
    gm: bool = False


Decision = Ignore | NotUnderstood | Run

#: The line a fallback handler is given: the whole body is the orders.
BODY = CommandLine(0, "", "", "")


def decide(
    msg: Incoming,
    game: str | None,
    commands: Mapping[str, Command] | None = None,
    games_with_fallback: frozenset[str] | None = None,
    gm_address: str | None = None,
) -> Decision:
    """What ``msg`` wants. ``game`` is the game of the competition its code names (None: no
    code). The highest-priority command applicable wins (the earliest line on a tie); a GM
    command makes the mail the GM's, and then every GM command in it runs in line order.

    From an address that is not ``gm_address``, GM words count only when the mail has no other
    command: a player's "drop 2, 5" (a Hit for Six window) is not the GM's DROP, while a
    stranger's NEWGAME alone still gets the GM refusal that says why."""
    if msg.is_automatic:  # a delivery report never comes here: the pipeline records it
        return Ignore(f"automatic: {msg.auto_reason}")
    table = registry() if commands is None else commands
    known = [(table[c.word], c) for c in msg.commands if c.word in table]
    gm_steps = tuple((cmd, line) for cmd, line in known if cmd.audience is Audience.GM)
    fits = [
        (cmd, line)
        for cmd, line in known
        if cmd.audience is not Audience.GM
        and (
            (game is None and not cmd.needs_code) or (game is not None and cmd.game in (None, game))
        )
    ]
    from_gm = gm_address is None or msg.from_addr == gm_address.lower()
    if gm_steps and (from_gm or not fits):
        return Run(gm_steps, gm=True)
    if fits:
        best = max(fits, key=lambda p: (p[0].priority, -p[1].line_no))
        return Run((best,))
    if game is None:
        if msg.unknown_code:
            return NotUnderstood(f"unknown game {msg.unknown_code}", msg.unknown_code)
        return NotUnderstood("no game code")
    with_fallback = frozenset(fallbacks()) if games_with_fallback is None else games_with_fallback
    if game in with_fallback:
        return Run(((None, BODY),))
    return NotUnderstood("no command")


@dataclass(frozen=True, slots=True)
class Routed:
    """A mail routed: the flows' view of it, and what it wants."""

    msg: Incoming
    decision: Decision


def route(
    mail: Understood, own_address: str, games: Mapping[str, str], gm_address: str | None
) -> Routed:
    """Routing and the decision, one call on the understood mail: ``games`` maps each known
    competition's code (upper case) to its game. Pure: the same mail can be routed again
    when the known codes change."""
    msg = incoming_of(mail.email, own_address, frozenset(games))
    game = games.get(msg.code) if msg.code else None
    return Routed(msg, decide(msg, game, gm_address=gm_address))


def admitted(ctx: MailContext, decision: Decision, *, person: bool) -> Handled | Run:
    """``decision`` settled as far as it can be without a handler: a ``person``'s mail is
    admitted first (the rate limit says so once an hour to the address, never for a full
    domain: the notice would itself be the flood, one to each new address; then it stays
    quiet); an ignored or not understood mail is answered. What is left is the :class:`Run`
    for the caller to carry out (the pipeline, with :func:`execute`)."""
    if person:
        limited = admit(
            ctx.session, ctx.box, ctx.config, ctx.clock, ctx.msg.from_addr, ctx.msg.secret
        )
        if limited is not None:
            if limited.count == limited.limit + 1 and not limited.sender.startswith("?@"):
                ctx.reply("rate-limited", limit=limited.limit)
            return ctx.handled(Status.REJECTED, "rate limited")
    match decision:
        case Ignore(note):
            return Handled(Status.IGNORED, note)
        case NotUnderstood(note, unknown):
            return ctx.not_understood(note, unknown_code=unknown)
        case Run():
            return decision
    raise AssertionError(decision)  # pragma: no cover - the match is exhaustive


def is_gm(ctx: MailContext) -> bool:
    """Whether the mail comes from the GM's address with the GM's secret."""
    gm = ctx.config.gm
    given = ctx.msg.secret or ""
    return ctx.msg.from_addr == gm.address and hmac.compare_digest(
        normalise_secret(given).encode(), normalise_secret(gm.secret).encode()
    )


def execute(ctx: MailContext, decision: Run) -> Handled:
    """Run a :class:`Run` decision; an :class:`AuthError` becomes the refusal mail."""
    if decision.gm and not is_gm(ctx):
        ctx.record("gm-auth-failed")
        return ctx.refuse("GM commands need the GM's address and the GM's secret.", "not GM")
    outcomes: list[Handled] = []
    for cmd, line in decision.steps:
        handler: Callable[[MailContext, CommandLine], Handled]
        if cmd is None:
            assert ctx.competition is not None
            handler = fallbacks()[ctx.competition.game]
        else:
            handler = cmd.handler
        try:
            outcomes.append(handler(ctx, line))
        except AuthError as exc:
            outcomes.append(ctx.refuse(exc.message, exc.note))
    if len(outcomes) == 1:
        return outcomes[0]
    status = (
        Status.APPLIED if any(o.status is Status.APPLIED for o in outcomes) else outcomes[-1].status
    )
    secrets = tuple(dict.fromkeys(s for o in outcomes for s in o.secrets))
    return Handled(status, "; ".join(o.note for o in outcomes), secrets)
