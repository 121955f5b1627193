"""``pbm db purge``: the retention rules of :mod:`pbm.ops.retention`, run now (the daemon runs
them once a day by itself)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from pbm.app import App
from pbm.cli._common import config_option, load
from pbm.cli.db import db
from pbm.db.session import transaction
from pbm.ops.retention import STEPS, purge

__all__ = ["COMMANDS"]


@db.command("purge")
@click.option("--dry-run", is_flag=True, help="Count what would be removed; change nothing.")
@config_option
def purge_command(dry_run: bool, config_path: Path | None) -> None:
    """Remove what pbm no longer keeps: handled raw mail older than [retention] raw_days,
    the addresses of non-players once answered, past rate counters. Dead letters stay."""
    config = load(config_path, logs=False)
    app = App.from_config(config)
    console = Console(stderr=True)
    try:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task("purging", total=STEPS)

            def step(label: str) -> None:
                progress.update(task, advance=1, description=label)

            with transaction(app.sessions) as s:
                # a dry run only counts: there is nothing to roll back
                report = purge(s, config, app.clock.now(), dry_run=dry_run, on_step=step)
    finally:
        app.close()
    table = Table(
        "what",
        "rows",
        title="would be removed (dry run)" if dry_run else "removed",
    )
    for what, count in report.rows(config.retention.raw_days):
        table.add_row(what, str(count))
    Console(markup=False).print(table)
    click.echo(f"{report.total} row(s) {'would change' if dry_run else 'changed'}")


COMMANDS: list[click.Command] = []  # ``purge`` joins the ``db`` group above
