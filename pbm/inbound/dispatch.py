"""The one place that decides what a mail wants, and runs it.

:func:`decide` is pure: from the parsed message, the registry and the competition's game it
returns a :class:`Decision` (tested as a table). :func:`execute` carries a decision out in the
message's transaction: it authenticates the GM, turns an :class:`~pbm.core.errors.AuthError` into
the refusal mail, and calls the handler.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.orm import defer

from pbm.core.errors import AuthError, RateLimited
from pbm.db.models import Competition
from pbm.inbound.commands import Audience, Command, CommandLine, fallbacks, registry
from pbm.inbound.context import Handled, MailContext, Status
from pbm.inbound.intake import Incoming
from pbm.secrets.seats import normalise_secret

__all__ = [
    "Decision",
    "Ignore",
    "NotUnderstood",
    "Run",
    "check_rate",
    "decide",
    "execute",
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


def check_rate(sender: str, count: int, limit: int) -> None:
    """Raise :class:`~pbm.core.errors.RateLimited` when ``count`` mails this hour exceed
    ``limit``."""
    if count > limit:
        raise RateLimited(sender, count, limit)


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


def competition_for(ctx: MailContext) -> Competition | None:
    """The competition the mail's code names, if any (routing only returns known codes)."""
    if not ctx.msg.code:
        return None
    return ctx.session.scalars(_BY_CODE, {"code": ctx.msg.code.upper()}).first()


#: Built once: building a statement costs about what running it does. The season is left to
#: load when read (over half a megabyte for a 64-team league): the orders mail knows its copy
#: is current from ``season_version``.
_BY_CODE = (
    select(Competition)
    .where(Competition.code == bindparam("code"))
    .options(defer(Competition.season))
)
