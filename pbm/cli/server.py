"""Server commands: ``pbm serve``, ``pbm run [--once]``, ``pbm ingest``, ``pbm check-config``."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from sqlalchemy.exc import SQLAlchemyError

from pbm.app import App, make_listeners, make_mailboxes, make_sender
from pbm.cli._common import config_option, load, problem, resolve
from pbm.cli._console import make_console
from pbm.core.config import Config, load_config
from pbm.core.errors import ConfigError, MessageParseError, PbmError
from pbm.daemon import Daemon
from pbm.db import migrate
from pbm.mail.pipe import TooBig, over_cap_answered, read_capped
from pbm.ops.footprint import footprint
from pbm.ops.status import serving_lock
from pbm.ops.workers import Registry, once_worker_id

__all__ = ["COMMANDS"]

EX_OK = 0
EX_DATAERR = 65
EX_TEMPFAIL = 75  # sendmail/Postfix/procmail: "try again later", the MTA keeps the mail
EX_CONFIG = 78
EX_CANTCREAT = 73


def build_daemon(config: Config, *, listen: bool = True) -> Daemon:
    """The daemon for a config: its mailboxes, its sender and (if ``listen``) the listener."""
    app = App.from_config(config)
    try:
        current = migrate.is_current(app.db_engine)
    except SQLAlchemyError as exc:
        app.close()
        raise click.ClickException(f"cannot open the database: {exc}") from exc
    if not current:
        app.close()
        raise click.ClickException("the database is not up to date: run `pbm db upgrade` first")
    daemon = Daemon(app, make_sender(config), make_mailboxes(config), handle_signals=True)
    if listen:
        daemon.listeners.extend(make_listeners(config, daemon.store))
    return daemon


@click.command("serve")
@config_option
def serve(config_path: Path | None) -> None:
    """Run the daemon: IMAP watcher, SMTP listener, outbox sender and scheduler, in one process.

    The first SIGTERM (or Ctrl-C) finishes the current message and exits; a second exits at once.
    """
    config = load(config_path)
    daemon = build_daemon(config)
    try:
        with serving_lock(config.database.url):
            daemon.run()
    except PbmError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        daemon.app.close()


@click.command("run")
@click.option("--once", is_flag=True, help="Do one pass of everything and exit (for cron).")
@config_option
def run(once: bool, config_path: Path | None) -> None:
    """Run the daemon loop, or with --once a single pass (fetch, handle, schedule, send)."""
    config = load(config_path)
    daemon = build_daemon(config, listen=not once)
    try:
        if once:
            with serving_lock(config.database.url):
                stats = daemon.run_once()
            # the pass worked: its heartbeat tells `pbm health` that cron's pbm is alive
            Registry(
                daemon.app.sessions, daemon.app.clock, config.workers, once_worker_id()
            ).register()
            for mb in daemon.mailboxes:
                mb.close()
            make_console(stderr=True).print(
                f"fetched {stats.fetched}, handled {stats.processed}, jobs {stats.jobs}, "
                f"sent {stats.sent}, failed {stats.failed}, errors {stats.errors}"
            )
        else:
            with serving_lock(config.database.url):
                daemon.run()
    except PbmError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        daemon.app.close()


@click.command("ingest")
@click.argument("source", default="-", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--process", is_flag=True, help="Also handle it and send the reply now.")
@click.option(
    "--sender",
    "envelope_sender",
    default=None,
    help="The SMTP envelope sender (Postfix: ${sender}); empty means MAIL FROM:<>, "
    "which pbm never answers.",
)
@config_option
def ingest(
    source: str, process: bool, envelope_sender: str | None, config_path: Path | None
) -> None:
    """Store one message from FILE or stdin (an MTA pipe: Postfix, procmail).

    Exit status: 0 stored (or already stored, or spooled while the database was busy: the
    next pass stores it), 75 temporary failure (the MTA retries later),
    78 bad configuration, 65 unreadable input, or a mail on stdin over [smtp_listener]
    max_size (the MTA bounces it with the line on stderr; automatic mail over it is not
    bounced: its headers are stored, never answered). A FILE over it is measured, not read:
    its headers are stored and its sender answered once, as from IMAP. The running daemon
    handles the stored message.
    """
    try:
        config = load_config(resolve(config_path))
    except ConfigError as exc:
        click.echo(f"pbm ingest: {exc}", err=True)
        sys.exit(EX_CONFIG)
    from pbm.ops.logs import configure_logging

    configure_logging(
        config.logging.format, config.logging.level, config.secrets(), config.logging.file
    )
    cap = config.max_mail_bytes
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        envelope_sender = "<>"  # the null reverse-path, as the SMTP door records it
    try:
        got = read_capped(sys.stdin.buffer if source == "-" else Path(source), cap)
    except OSError as exc:
        click.echo(f"pbm ingest: cannot read {source}: {exc}", err=True)
        sys.exit(EX_DATAERR)
    if isinstance(got, TooBig):
        kept = "nowhere: pbm ingest read no further"
        if source != "-":  # no MTA to bounce it: answered as from IMAP, the file left as it is
            kept = f"the file {Path(source).absolute()}"
        keys = config.security.keys
        raw = got.stand_in(cap, kept, keys[0])
        if source == "-" and over_cap_answered(raw, config.server.address, envelope_sender, keys):
            # The MTA's bounce is the answer: one line it quotes, a permanent status, and
            # nothing stored (the stand-in would be answered a second time by pbm).
            click.echo(
                f"pbm ingest: message too big: {got.size} bytes, the limit is {cap}; none of "
                "it was read. Send orders as plain text, without attachments.",
                err=True,
            )
            sys.exit(EX_DATAERR)
        # automatic: never answered (no bounce either); its headers are kept for the GM
    else:
        raw = got
    if not raw.strip():
        click.echo("pbm ingest: empty message", err=True)
        sys.exit(EX_DATAERR)
    app = App.from_config(config)
    try:
        try:
            # The database if its write lock is free soon, else the spool (SQLite): an MTA's
            # pipe is not held while a pass handles a long mail.
            stored = app.doors.store(raw, "ingest", envelope_sender)
        except MessageParseError as exc:
            click.echo(f"pbm ingest: {exc}", err=True)
            sys.exit(EX_DATAERR)
        if process:
            daemon = Daemon(app, make_sender(config))
            daemon.run_once()
    except (SQLAlchemyError, OSError, PbmError) as exc:
        click.echo(f"pbm ingest: temporary failure: {exc}", err=True)
        sys.exit(EX_TEMPFAIL)
    finally:
        app.close()
    if stored is None:
        click.echo("spooled (the database was busy; the next pass stores it)", err=True)
    else:
        said = "" if stored.created else " (already had it)"
        click.echo(f"stored #{stored.id}{said}", err=True)
    sys.exit(EX_OK)


@click.command("check-config")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
def check_config(file: Path | None) -> None:
    """Check a config file and say clearly what is wrong with it, and which files and folders
    pbm would create where (relative paths are from the config file's folder). Exit 78
    (EX_CONFIG) if the config is wrong, 73 (EX_CANTCREAT) if a path cannot be created."""
    path = resolve(file)
    console = make_console()
    try:
        config = load_config(path)
    except ConfigError as exc:
        # escaped: messages name sections like "[smtp]", which rich would take for markup
        console.print(f"[bold red]✗[/] {escape(problem(path, exc))}")
        sys.exit(EX_CONFIG)
    doors = []
    if config.listener:
        doors.append(f"SMTP listener on {config.listener.host}:{config.listener.port}")
    if config.imap:
        doors.append(f"IMAP {config.imap.username}@{config.imap.host}:{config.imap.port}")
    out = (
        f"SMTP via {config.smtp.host}:{config.smtp.port}"
        if config.smtp
        else f"Maildir {config.maildir.path}"
        if config.maildir
        else "?"
    )
    console.print(f"[bold green]✓[/] {escape(str(path))} is valid")
    console.print(f"  server   {config.server.address}")
    console.print(f"  database {escape(config.database.url.split('@')[-1])}")
    console.print(f"  mail in  {'; '.join(doors)}")
    console.print(f"  mail out {escape(out)}")
    console.print(f"  GM       {config.gm.address}")
    nmr = config.turns.nmr_limit
    policy = (
        f"after {nmr} stage{'s' * (nmr != 1)} in a row with nothing sent, the GM is alerted "
        "and the standby list offered the team"
        if nmr
        else "off: a team that sends nothing plays on its standing orders and the defaults"
    )
    console.print(f"  nmr      {policy}")
    _print_footprint(console, path, config)


def _print_footprint(console: Console, path: Path, config: Config) -> None:
    entries = footprint(config)
    console.print(f"  files    (relative paths are from {escape(str(path.absolute().parent))})")
    for e in entries:
        kind = "folder" if e.folder else "file"
        if e.state == "exists":
            said = f"{kind}, exists"
        elif e.state == "create":
            said = f"{kind}, will be created by {e.by}"
        else:
            said = f"[bold red]✗[/] {escape(e.reason)}"
        console.print(f"    {e.what:<14} {escape(str(e.path))}  {said}")
    bad = [e for e in entries if e.state in ("cannot", "missing")]
    if not bad:
        return
    first = bad[0]
    verb = "cannot create" if first.state == "cannot" else "cannot read"
    console.print(
        f"[bold red]✗[/] {verb} the {first.what} at {escape(str(first.path))}: "
        f"{escape(first.reason)} (fix the path in {escape(str(path))}, or the folder's owner)"
    )
    sys.exit(EX_CANTCREAT if first.state == "cannot" else EX_CONFIG)


COMMANDS = [serve, run, ingest, check_config]
