"""``pbm secrets rotate``: re-seal stored mail under the current ``[security] secret_key``
(see :mod:`pbm.secrets.rotation` for the whole rotation)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from pbm.app import App
from pbm.cli._common import config_option, load
from pbm.db.session import transaction
from pbm.inbound.spool import SpoolRotation, is_spool_dead_letter
from pbm.secrets.rotation import rotate, sealed_count

__all__ = ["COMMANDS"]


@click.group("secrets")
def secrets() -> None:
    """The secret key: rotate it (put the new key in secret_key, the old in old_secret_keys)."""


@secrets.command("rotate")
@config_option
def rotate_command(config_path: Path | None) -> None:
    """Re-seal every stored raw mail under the current secret_key; say what still needs an
    old key (so you know when old_secret_keys can go)."""
    config = load(config_path, logs=False)
    app = App.from_config(config)
    try:
        with transaction(app.sessions) as s:
            total = sealed_count(s)
            with Progress(
                TextColumn("[bold]re-sealing"),
                BarColumn(),
                MofNCompleteColumn(),
                console=Console(stderr=True),
                transient=True,
            ) as progress:
                task = progress.add_task("re-seal", total=total)
                report = rotate(
                    s, config, on_row=lambda: progress.advance(task), told=is_spool_dead_letter
                )
        # The spool's files (and dead/'s) are sealed mail too: after the rows, as a pass
        # may import a file meanwhile (its key then stored, the file only removed).
        spooled = (
            app.spool.reseal(config.security.keys) if app.spool is not None else SpoolRotation()
        )
    finally:
        app.close()
    click.echo(
        f"re-sealed {report.resealed} mail(s); {report.current} already under the current key"
    )
    if spooled.resealed or spooled.current or spooled.unreadable or spooled.dead:
        click.echo(
            f"re-sealed {spooled.resealed} spool file(s); {spooled.current} already under "
            "the current key"
        )
    dead = []
    if report.dead:
        dead.append(f"{len(report.dead)} row(s) ({_first([f'#{i}' for i in report.dead])})")
    if spooled.dead:
        dead.append(f"{len(spooled.dead)} file(s) in dead/ ({_first(spooled.dead)})")
    if dead:
        # A dead letter of the spool is there because nothing could open it: failing here
        # would fail every rotation for ever, as no key may ever open a corrupt file.
        click.echo(
            f"dead letters of the spool that no configured key opens: {' and '.join(dead)}. "
            "The GM was told of each, and they do not hold back the old key. One sealed "
            "under a key you dropped: put that key back in old_secret_keys and run `pbm mail "
            "retry ID`; `pbm mail show ID` says why"
        )
    if report.waiting_secrets:
        click.echo(
            f"{report.waiting_secrets} mail(s) in the outbox still show a secret: keep "
            "old_secret_keys until they are sent"
        )
    failures = []
    if spooled.skipped:
        failures.append(
            f"{len(spooled.skipped)} spool file(s) could not be read now "
            f"({_first(spooled.skipped)}), so they are not re-sealed: run this again once "
            "they can be read"
        )
    if spooled.unreadable:
        failures.append(
            f"{len(spooled.unreadable)} spool file(s) open under no configured key "
            f"({_first(spooled.unreadable)}): put the key that sealed them in "
            "old_secret_keys and run this again"
        )
    if report.unreadable:
        failures.append(
            f"{len(report.unreadable)} sealed mail(s) open under no configured key "
            f"({_first([f'#{i}' for i in report.unreadable])}): put the key that sealed "
            "them in old_secret_keys and run this again"
        )
    if failures:
        raise click.ClickException("; ".join(failures))
    if not config.security.old_secret_keys:
        click.echo("no old_secret_keys configured: nothing else to rotate")
    else:
        but = " (but for the dead letters above)" if dead else ""
        click.echo(
            f"every stored mail is under the current key{but}; drop old_secret_keys once "
            "the outbox has sent what waits and late bounces have come back (a week or two)"
        )


def _first(names: list[str], shown: int = 20) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


COMMANDS = [secrets]
