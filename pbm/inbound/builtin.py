"""The game-agnostic mail commands: HELP (every command the sender may use) and the GM's
DIGEST."""

from __future__ import annotations

from typing import Any

from pbm.inbound.commands import Audience, CommandLine, command, registry
from pbm.inbound.context import Handled, MailContext, Status
from pbm.inbound.dispatch import is_gm
from pbm.ops.digest import digest_context
from pbm.outbound.replies import queue_mail

__all__ = ["command_rows", "digest", "help_"]


def command_rows(gm: bool, game: str | None = None) -> list[dict[str, Any]]:
    """The commands as HELP lists them: players' first, the GM's own only for the GM."""
    rows = []
    for cmd in sorted(registry().values(), key=lambda c: (c.audience is Audience.GM, c.word)):
        if cmd.audience is Audience.GM and not gm:
            continue
        if game is not None and cmd.game not in (None, game):
            continue
        rows.append(
            {"word": cmd.word, "usage": cmd.usage, "help": cmd.help, "gm": cmd.audience == "gm"}
        )
    return rows


@command("HELP", help="this list of commands", priority=80)
def help_(ctx: MailContext, line: CommandLine) -> Handled:
    """``HELP``: how to play, every command (the GM's too, for the GM) and open competitions.

    HELP naming a competition speaks of its game; so does HELP from an address that plays
    one game and no other, in that game's own mail (Hit for Six's from and signed "Hit for
    Six"). An address that plays both games, or none yet, hears of both."""
    from pbm.games import GAMES

    game = ctx.competition.game if ctx.competition else None
    kind, from_name = "help", None
    if game is None:
        playing = [g for g in GAMES if g.plays(ctx.session, ctx.msg.from_addr)]
        if len(playing) == 1:
            game, kind, from_name = playing[0].name, playing[0].help_kind, playing[0].sender_name
    ctx.reply(
        kind,
        from_name=from_name,
        competitions=ctx.open_competitions(),
        commands=command_rows(is_gm(ctx), game),
    )
    return ctx.handled(Status.APPLIED, "help")


@command("DIGEST", help="the GM's digest now", audience=Audience.GM, priority=100)
def digest(ctx: MailContext, line: CommandLine) -> Handled:
    """``DIGEST``: the GM's digest, mailed now."""
    queue_mail(
        ctx.session,
        ctx.config,
        ctx.clock,
        kind="digest",
        to=ctx.config.gm.address,
        ctx=digest_context(ctx.session, ctx.clock),
        reply_to=ctx.reply_to,
        inbound_id=ctx.mail.id,
    )
    return ctx.handled(Status.APPLIED, "digest")
