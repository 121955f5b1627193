"""The GM's commands: ``pbm gm new``, ``list``, ``show``, ``digest``, ``new-secret``, and the
flags (sentences the parser could not read): ``pbm gm flags``, ``pbm gm resolve``."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.flungo.formats import Format
from engine.flungo.squad import Team
from pbm.app import App
from pbm.cli._common import config_option, load
from pbm.cli._console import make_console
from pbm.core.errors import GameError, NotFound
from pbm.core.types import parse_utc
from pbm.db.models import Competition, CompetitionKind, Player, Seat
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition, find_competition, reissue_secret
from pbm.games.flungo.gm import (
    add_house_team,
    add_standby,
    finish_flag,
    hand_seat,
    parse_when,
    post_editorial,
    reject_name,
    retire,
)
from pbm.games.flungo.house_rules import parse_settings
from pbm.games.flungo.overview import competition_json, verify_match
from pbm.games.flungo.schedule import format_deadline
from pbm.games.flungo.standing import open_flags
from pbm.games.flungo.turns import extend, hold, rerun, resume, rollback, run_now
from pbm.games.flungo.views import competition_ctx
from pbm.ops.digest import digest_context, flag_rows
from pbm.outbound.render import render_email
from pbm.outbound.replies import queue_mail

__all__ = ["COMMANDS"]


def _deadline(value: str) -> datetime:
    try:
        return parse_utc(value)
    except ValueError as exc:
        raise click.BadParameter("use YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC)") from exc


def _settings(pairs: tuple[str, ...], fmt: str) -> dict[str, Any]:
    try:
        return parse_settings(pairs, fmt)
    except GameError as exc:
        raise click.BadParameter(exc.message, param_hint="--set") from exc


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
@click.option(
    "--kind",
    type=click.Choice([k.value for k in CompetitionKind]),
    default="league",
    show_default=True,
    help="league (single round robin), double (home and away), knockout, or mini (4 teams).",
)
@click.option(
    "--schedule",
    default=None,
    help="Deadlines, e.g. 'mon,thu 20:00 Europe/London', 'every 2d 18:00 UTC', 'every 3m' "
    "(default: [turns] schedule).",
)
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    help="A setting for this competition: early, grace, naming_after_full (durations like 10m), "
    "reminders (comma-separated durations), hold_share (0 to 1), nmr_limit (stages in a row "
    "with nothing sent before the GM is alerted; 0: off), and the house rules "
    "no_consecutive_overs=yes and hundred_tiebreak=yes (The Hundred only).",
)
@config_option
def new(
    code: str,
    name: str,
    fmt: str,
    teams: int,
    naming_deadline: str,
    seed: str | None,
    kind: str,
    schedule: str | None,
    overrides: tuple[str, ...],
    config_path: Path | None,
) -> None:
    """Create a Cosmic Celebrity Cricket competition."""
    settings = _settings(overrides, fmt)
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
                kind=kind,
                schedule=schedule,
                settings=settings,
            )
            code = comp.code
    except GameError as exc:
        raise click.ClickException(exc.message) from exc
    finally:
        app.close()
    local, _, domain = config.server.address.partition("@")
    click.echo(f"created {code}: {name}, {fmt}, {kind}, {teams} teams")
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
    make_console(markup=False).print(table)  # names are player-chosen text


@gm.command("show")
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="Phase, turn, fixtures, standings, champion.")
@config_option
def show(code: str, as_json: bool, config_path: Path | None) -> None:
    """Show a competition: its teams and managers, the stage taking orders, the fixtures with
    their results, the standings and the champion (all of it with --json)."""
    app = App.from_config(load(config_path, logs=False))
    console = make_console(markup=False, width=200)  # names are player-chosen text
    try:
        with transaction(app.sessions) as s:
            comp = find_competition(s, code)
            if comp is None:
                raise click.ClickException(f"no competition {code!r}")
            data = competition_json(s, comp)
    finally:
        app.close()
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    table = Table("team", "name", "manager", "named", "retired")
    for t in data["teams"]:
        table.add_row(
            str(t["seat"]),
            t["team"],
            "the house (plays on the defaults)" if t["house"] else t["manager"] or "?",
            "yes" if t["named"] else "no",
            "yes" if t["retired"] else "",
        )
    console.print(
        f"[{data['code']}] {data['name']}: {data['phase']} ({data['kind']})", highlight=False
    )
    if data["turn"]:
        console.print(
            f"  {data['turn']['label']}: deadline {data['turn']['deadline']}", highlight=False
        )
    console.print(table)
    for f in data["fixtures"]:
        result = f"  {f['result']['text']}" if f["result"] else ""
        console.print(
            f"  {f['id']} {f['label']}: {f['home'] or '?'} v {f['away'] or '?'} at {f['pitch']}"
            f"{result}",
            highlight=False,
        )
    if data["champion"]:
        console.print(f"Champion: {data['champion']}", highlight=False)


@click.command("verify")
@click.argument("code", required=False)
@click.argument("fixture", required=False)
@click.option(
    "--file",
    "replay_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A replay document (the zine archive's replay/*.json): no database needed.",
)
@config_option
def verify(
    code: str | None, fixture: str | None, replay_file: Path | None, config_path: Path | None
) -> None:
    """Replay finished match FIXTURE (R1M1...) of CODE from its revealed seed and the orders as
    played, and check the seed against its published SHA-256 and the ball log against the one
    played (exit 1 if either differs). With --file, replay a published replay document
    instead: anyone can check a result without pbm's database."""
    if replay_file is not None:
        _verify_file(replay_file)
        return
    if code is None or fixture is None:
        raise click.UsageError("give CODE and FIXTURE, or --file REPLAY.json")
    app = App.from_config(load(config_path, logs=False))
    try:
        with transaction(app.sessions) as s:
            comp = find_competition(s, code)
            if comp is None:
                raise click.ClickException(f"no competition {code!r}")
            v = verify_match(s, comp, fixture.upper())
    except (GameError, NotFound) as exc:
        raise click.ClickException(exc.message) from exc
    finally:
        app.close()
    _verdict(
        f"{code.upper()} {v.fixture_id}", v.seed, v.commitment_ok, v.balls, v.identical, v.result
    )


def _verdict(
    what: str, seed: int, commitment_ok: bool, balls: int, same: bool, result: str
) -> None:
    """Say what a replay found; exit 1 unless the seed opens its commitment and the match
    came out identical."""
    click.echo(
        f"{what}: seed {seed}; commitment {'matches' if commitment_ok else 'DOES NOT MATCH'}; "
        f"{balls} balls replayed: {'identical' if same else 'DIFFERENT'}; {result}"
    )
    if not (commitment_ok and same):
        raise SystemExit(1)


def _verify_file(path: Path) -> None:
    import json

    from engine.flungo.summary import CompetitionError
    from engine.flungo.turn import replay_from_document

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        v = replay_from_document(doc)
    except (OSError, ValueError, KeyError, TypeError, CompetitionError) as exc:
        raise click.ClickException(f"{path}: not a replay document pbm can read ({exc})") from exc
    balls = sum(len(i.balls) for i in v.state.innings)
    result = v.state.result.text if v.state.result else "no result"
    what = str(doc.get("fixture_id", "?"))
    _verdict(what, int(doc["seed"]), v.commitment_ok, balls, v.identical, result)


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
    console = make_console(markup=False, width=200)  # player-chosen text
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
            done = finish_flag(s, config, app.clock, flag_id, text, drop).text
    except (GameError, NotFound) as exc:
        raise click.ClickException(exc.message) from exc
    finally:
        app.close()
    click.echo(done)


def _service(
    code: str, config_path: Path | None, action: Callable[[Session, App, Competition], str]
) -> None:
    """Run ``action`` on competition CODE in one transaction; print what it says."""
    config = load(config_path, logs=False)
    app = App.from_config(config)
    try:
        with transaction(app.sessions) as s:
            comp = find_competition(s, code)
            if comp is None:
                raise click.ClickException(f"no competition {code!r}")
            said = action(s, app, comp)
    except (GameError, NotFound) as exc:
        raise click.ClickException(exc.message) from exc
    finally:
        app.close()
    click.echo(said)


@gm.command("run")
@click.argument("code")
@config_option
def run(code: str, config_path: Path | None) -> None:
    """Run the phase of CODE that is next, now (as the GM's PROCESS): while teams join, the
    close of joining and the draw; after, the current stage, the pre-run check waived. It is
    resolved and its mail queued before this returns (the daemon sends it)."""
    from pbm.scheduler import run_due

    def act(s: Session, app: App, comp: Competition) -> str:
        turn = run_now(s, app.clock, comp)
        what = "joining closes and the draw" if turn is None else turn.stage_key
        return f"{comp.code}: {what} runs now"

    _service(code, config_path, act)
    config = load(config_path, logs=False)
    app = App.from_config(config)
    try:
        steps = run_due(app.sessions, config, app.clock)
    finally:
        app.close()
    click.echo(f"{steps} step(s) run; the daemon sends the mail")


@gm.command("extend")
@click.argument("code")
@click.argument("by")
@config_option
def extend_cmd(code: str, by: str, config_path: Path | None) -> None:
    """Move the deadline of CODE's current stage: BY is a delay (2h, 1d) or a time
    (YYYY-MM-DDTHH:MM, UTC)."""

    def act(s: Session, app: App, comp: Competition) -> str:
        delay, to = parse_when(by)
        turn = extend(s, app.clock, comp, delay, to)
        return f"{comp.code} {turn.stage_key}: deadline {format_deadline(turn.deadline)}"

    _service(code, config_path, act)


@gm.command("hold")
@click.argument("code")
@click.option("--reason", default="held by the GM", help="Why (shown in the digest).")
@config_option
def hold_cmd(code: str, reason: str, config_path: Path | None) -> None:
    """Hold CODE: no stage runs until `pbm gm resume`."""

    def act(s: Session, app: App, comp: Competition) -> str:
        hold(s, app.clock, comp, reason)
        return f"{comp.code} is held"

    _service(code, config_path, act)


@gm.command("resume")
@click.argument("code")
@config_option
def resume_cmd(code: str, config_path: Path | None) -> None:
    """Resume a held CODE; its current stage runs without the pre-run check."""

    def act(s: Session, app: App, comp: Competition) -> str:
        resume(s, app.clock, comp)
        return f"{comp.code} runs again"

    _service(code, config_path, act)


@gm.command("rerun")
@click.argument("code")
@click.option("--stage", default=None, help="The stage key (T3, R2-select); default: the latest.")
@config_option
def rerun_cmd(code: str, stage: str | None, config_path: Path | None) -> None:
    """Resolve a played stage of CODE again from its frozen inputs and compare byte for byte
    with what was stored (exit 1 if it differs)."""
    result: list[bool] = []

    def act(s: Session, app: App, comp: Competition) -> str:
        r = rerun(s, comp, stage)
        result.append(r.identical)
        verdict = "identical, byte for byte" if r.identical else "DIFFERENT"
        return f"{comp.code} {r.stage_key} (issue {r.issue}) rerun: {verdict}"

    _service(code, config_path, act)
    if not all(result):
        raise SystemExit(1)


@gm.command("rollback")
@click.argument("code")
@click.option("--new-seed", is_flag=True, help="Play the reopened stage on a new seed.")
@config_option
def rollback_cmd(code: str, new_seed: bool, config_path: Path | None) -> None:
    """Undo CODE's latest stage and reopen its orders until a new deadline from the schedule."""

    def act(s: Session, app: App, comp: Competition) -> str:
        turn = rollback(s, app.config, app.clock, comp, new_seed=new_seed)
        until = format_deadline(turn.deadline)
        return f"{comp.code} {turn.stage_key} is open again until {until}"

    _service(code, config_path, act)


@gm.command("house")
@click.argument("code")
@click.argument("names", nargs=-1, required=True)
@config_option
def house_cmd(code: str, names: tuple[str, ...], config_path: Path | None) -> None:
    """Seat house teams NAMES in CODE (for demos): they play on the defaults, are never
    mailed and never waited for."""

    def act(s: Session, app: App, comp: Competition) -> str:
        return "\n".join(add_house_team(s, app.config, app.clock, comp, n).text for n in names)

    _service(code, config_path, act)


@gm.command("retire")
@click.argument("code")
@click.argument("team", type=int)
@config_option
def retire_cmd(code: str, team: int, config_path: Path | None) -> None:
    """Retire team TEAM of CODE: it plays on the defaults and is no longer mailed."""
    _service(code, config_path, lambda s, app, comp: retire(s, app.clock, comp, team).text)


@gm.command("standby")
@click.argument("code")
@click.argument("address")
@config_option
def standby_cmd(code: str, address: str, config_path: Path | None) -> None:
    """Put ADDRESS on CODE's standby list (for `pbm gm seat ... --standby`)."""
    _service(code, config_path, lambda s, app, comp: add_standby(s, app.clock, comp, address).text)


@gm.command("seat")
@click.argument("code")
@click.argument("team", type=int)
@click.argument("address", required=False)
@config_option
def seat_cmd(code: str, team: int, address: str | None, config_path: Path | None) -> None:
    """Hand team TEAM of CODE to ADDRESS (default: the first on the standby list), with a
    new secret mailed to the new manager."""
    _service(
        code,
        config_path,
        lambda s, app, comp: hand_seat(s, app.config, app.clock, app.box, comp, team, address).text,
    )


@gm.command("reject")
@click.argument("code")
@click.argument("team", type=int)
@click.argument("what")
@click.argument("reason")
@config_option
def reject_cmd(code: str, team: int, what: str, reason: str, config_path: Path | None) -> None:
    """Reject a name of team TEAM (WHAT: TEAM or a squad slot) before the draw; REASON is
    mailed to the player."""
    _service(
        code,
        config_path,
        lambda s, app, comp: reject_name(s, app.config, app.clock, comp, team, what, reason).text,
    )


@gm.command("editorial")
@click.argument("code")
@click.argument("text")
@config_option
def editorial_cmd(code: str, text: str, config_path: Path | None) -> None:
    """Post TEXT as an editorial for CODE's next issue (stored with its turn report)."""
    _service(code, config_path, lambda s, app, comp: post_editorial(s, app.clock, comp, text).text)


COMMANDS = [gm, verify]
