"""The GM's commands: ``pbm gm new``, ``list``, ``show``, ``digest``, ``new-secret``, and the
flags (sentences the parser could not read): ``pbm gm flags``, ``pbm gm resolve``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table
from sqlalchemy import func, select

from engine.flungo.formats import Format
from engine.flungo.squad import Team
from pbm.app import App
from pbm.cli._common import config_option, load
from pbm.db.models import Competition, Flag, Player, Seat
from pbm.db.session import transaction
from pbm.digest import digest_context, flag_rows
from pbm.errors import GameError, NotFound
from pbm.flungo.competitions import create_competition, find_competition, reissue_secret
from pbm.flungo.standing import open_flags, resolve_flag
from pbm.flungo.views import competition_ctx
from pbm.render import render_email
from pbm.replies import queue_mail

__all__ = ["COMMANDS"]


def _deadline(value: str) -> datetime:
    try:
        when = datetime.fromisoformat(value)
    except ValueError as exc:
        raise click.BadParameter("use YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC)") from exc
    return when if when.tzinfo else when.replace(tzinfo=UTC)


@click.group("gm")
def gm() -> None:
    """The game master's commands: competitions and the digest."""


@gm.command("new")
@click.option("--code", required=True, help="Short code players put in the subject, e.g. DEMO.")
@click.option("--name", required=True, help="The competition's name.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice([f.value for f in Format]),
    default="t20",
    show_default=True,
    help="Match format.",
)
@click.option("--teams", type=int, required=True, help="Number of teams; joining closes when full.")
@click.option(
    "--naming-deadline", required=True, help="Squads must be named by then (YYYY-MM-DD, UTC)."
)
@click.option("--seed", default=None, help="Dice seed (default: random). For reproducible demos.")
@config_option
def new(
    code: str,
    name: str,
    fmt: str,
    teams: int,
    naming_deadline: str,
    seed: str | None,
    config_path: Path | None,
) -> None:
    """Create a Cosmic Celebrity Cricket competition."""
    config = load(config_path, logs=False)
    app = App.from_config(config)
    try:
        with transaction(app.sessions) as s:
            comp = create_competition(
                s,
                app.clock,
                code=code,
                name=name,
                fmt=fmt,
                teams=teams,
                naming_deadline=_deadline(naming_deadline),
                seed=seed,
            )
            code = comp.code
    except GameError as exc:
        raise click.ClickException(exc.message) from exc
    finally:
        app.close()
    local, _, domain = config.server.address.partition("@")
    click.echo(f"created {code}: {name}, {fmt}, {teams} teams")
    click.echo(f"players join by mailing JOIN to {local}+{code.lower()}@{domain}")
    click.echo(f"  or to {config.server.address} with [{code}] in the subject")


@gm.command("list")
@config_option
def list_(config_path: Path | None) -> None:
    """List competitions."""
    app = App.from_config(load(config_path, logs=False))
    table = Table("code", "name", "format", "teams", "status", "naming deadline")
    try:
        with transaction(app.sessions) as s:
            for c in s.scalars(select(Competition).order_by(Competition.code)):
                joined = s.scalar(select(func.count()).where(Seat.competition_id == c.id))
                table.add_row(
                    c.code,
                    c.name,
                    c.format,
                    f"{joined}/{c.teams}",
                    c.status,
                    f"{c.naming_deadline:%Y-%m-%d %H:%M}",
                )
    finally:
        app.close()
    Console(markup=False).print(table)  # names are player-chosen text


@gm.command("show")
@click.argument("code")
@config_option
def show(code: str, config_path: Path | None) -> None:
    """Show a competition's teams and who manages them."""
    app = App.from_config(load(config_path, logs=False))
    console = Console(markup=False)  # names are player-chosen text
    try:
        with transaction(app.sessions) as s:
            comp = find_competition(s, code)
            if comp is None:
                raise click.ClickException(f"no competition {code!r}")
            table = Table("team", "name", "manager", "named", "version")
            for seat in comp.seats:
                player = s.get(Player, seat.player_id)
                table.add_row(
                    str(seat.number),
                    Team.from_json(seat.team).name,
                    player.address if player else "?",
                    "yes" if seat.named else "no",
                    str(seat.naming_version),
                )
            console.print(f"[{comp.code}] {comp.name}: {comp.status}", highlight=False)
    finally:
        app.close()
    console.print(table)


@gm.command("digest")
@click.option("--send", is_flag=True, help="Also queue it as mail to the GM.")
@config_option
def digest(send: bool, config_path: Path | None) -> None:
    """Print the GM digest now: joins, unnamed teams, mails not understood, dead letters."""
    config = load(config_path, logs=False)
    app = App.from_config(config)
    try:
        with transaction(app.sessions) as s:
            ctx = digest_context(s, app.clock)
            if send:
                queue_mail(s, config, app.clock, kind="digest", to=config.gm.address, ctx=ctx)
    finally:
        app.close()
    click.echo(render_email("digest", {"server": config.server, **ctx}).text)


@gm.command("new-secret")
@click.argument("code")
@click.argument("team", type=int)
@config_option
def new_secret(code: str, team: int, config_path: Path | None) -> None:
    """Give team TEAM of competition CODE a new secret, mailed to its manager (the old one
    stops working). For a player who lost theirs; you never see the secret yourself."""
    config = load(config_path, logs=False)
    app = App.from_config(config)
    try:
        with transaction(app.sessions) as s:
            comp = find_competition(s, code)
            if comp is None:
                raise click.ClickException(f"no competition {code!r}")
            try:
                seat, secret = reissue_secret(s, app.clock, app.box, comp, team)
            except NotFound as exc:
                raise click.ClickException(exc.message) from exc
            player = s.get(Player, seat.player_id)
            assert player is not None
            queue_mail(
                s,
                config,
                app.clock,
                kind="new-secret",
                to=player.address,
                ctx={
                    "competition": competition_ctx(comp),
                    "team_name": Team.from_json(seat.team).name,
                    "secret": secret,
                    "notes": [],
                },
            )
            address = player.address
    finally:
        app.close()
    click.echo(f"new secret for team {team} of {code.upper()} queued to {address}")


@gm.command("flags")
@click.argument("code", required=False)
@config_option
def flags(code: str | None, config_path: Path | None) -> None:
    """List the open flags (sentences the parser could not read), of CODE or of all."""
    app = App.from_config(load(config_path, logs=False))
    table = Table("flag", "game", "team", "line", "sentence", "why")
    try:
        with transaction(app.sessions) as s:
            comp_id = None
            if code is not None:
                comp = find_competition(s, code)
                if comp is None:
                    raise click.ClickException(f"no competition {code!r}")
                comp_id = comp.id
            rows = flag_rows(s, open_flags(s, comp_id))
    finally:
        app.close()
    for r in rows:
        table.add_row(
            str(r["id"]),
            r["code"],
            f"{r['seat']} {r['team']}",
            str(r["line"]),
            r["text"],
            r["reason"],
        )
    console = Console(markup=False, width=200)  # player-chosen text
    console.print(table if rows else "no open flags")


@gm.command("resolve")
@click.argument("flag_id", type=int)
@click.argument("text", required=False)
@click.option("--drop", "drop", default=None, help="Dismiss the flag, telling the player why.")
@config_option
def resolve(flag_id: int, text: str | None, drop: str | None, config_path: Path | None) -> None:
    """Enter the meaning of flag FLAG_ID as canonical orders TEXT (read against the team; refused
    if it has errors), appended to the team's standing orders; the player is mailed the
    canonical line. Or dismiss it with --drop "reason"."""
    if (text is None) == (drop is None):
        raise click.UsageError('give either the canonical TEXT or --drop "reason"')
    config = load(config_path, logs=False)
    app = App.from_config(config)
    try:
        with transaction(app.sessions) as s:
            flag = s.get(Flag, flag_id)
            if flag is None:
                raise click.ClickException(f"no flag {flag_id}")
            if flag.status != "open":
                raise click.ClickException(f"flag {flag_id} is {flag.status}, not open")
            seat = s.get(Seat, flag.seat_id)
            comp = s.get(Competition, flag.competition_id)
            assert seat is not None and comp is not None
            team = Team.from_json(seat.team)
            ctx = {
                "competition": competition_ctx(comp),
                "team_name": team.name,
                "line": flag.line,
                "text": flag.text,
                "resolution": None,
                "version": 0,
                "note": drop,
                "notes": [],
            }
            if drop is not None:
                flag.status = "dropped"
                flag.note = drop
                flag.resolved_at = app.clock.now()
                done = f"flag {flag_id} dropped"
            else:
                assert text is not None
                result = resolve_flag(s, app.clock, flag, text, team, comp.format)
                if result.errors:
                    raise click.ClickException(
                        "not resolved: the text has errors\n\n" + "\n\n".join(result.errors)
                    )
                ctx.update(resolution=result.lines, version=result.version)
                done = f"flag {flag_id} resolved: standing orders version {result.version}"
            player = s.get(Player, seat.player_id)
            assert player is not None
            queue_mail(s, config, app.clock, kind="flag-resolved", to=player.address, ctx=ctx)
            done += f"; mail queued to {player.address}"
    finally:
        app.close()
    click.echo(done)


COMMANDS = [gm]
