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
from pbm.inbound.spool import SpoolRotation
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
                report = rotate(s, config, on_row=lambda: progress.advance(task))
        # The spool's files (and dead/'s) are sealed mail too: after the rows, as a pass
        # may import a file meanwhile (its key then stored, the file only removed).
        spooled = app.spool.reseal() if app.spool is not None else SpoolRotation()
    finally:
        app.close()
    click.echo(
        f"re-sealed {report.resealed} mail(s); {report.current} already under the current key"
    )
    if spooled.resealed or spooled.current or spooled.unreadable:
        click.echo(
            f"re-sealed {spooled.resealed} spool file(s); {spooled.current} already under "
            "the current key"
        )
    if spooled.unreadable:
        names = ", ".join(spooled.unreadable[:20])
        raise click.ClickException(
            f"{len(spooled.unreadable)} spool file(s) open under no configured key "
            f"({names}): put the key that sealed them in old_secret_keys and run this again"
        )
    if report.waiting_secrets:
        click.echo(
            f"{report.waiting_secrets} mail(s) in the outbox still show a secret: keep "
            "old_secret_keys until they are sent"
        )
    if report.unreadable:
        ids = ", ".join(f"#{i}" for i in report.unreadable[:20])
        raise click.ClickException(
            f"{len(report.unreadable)} sealed mail(s) open under no configured key ({ids}): "
            "put the key that sealed them in old_secret_keys and run this again"
        )
    if not config.security.old_secret_keys:
        click.echo("no old_secret_keys configured: nothing else to rotate")
    else:
        click.echo(
            "every stored mail is under the current key; drop old_secret_keys once the "
            "outbox has sent what waits and late bounces have come back (a week or two)"
        )


COMMANDS = [secrets]
