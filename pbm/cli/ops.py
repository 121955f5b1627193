"""``pbm status`` (the queues, the workers and their claims, the next turns) and ``pbm health``
(for a supervisor)."""

from __future__ import annotations

import json
import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from pbm.cli._common import config_option, load
from pbm.cli._console import make_console
from pbm.core.clock import SystemClock
from pbm.db.session import READ_ONLY, make_db_engine, make_session_factory, transaction
from pbm.inbound.spool import SpoolState, spool_state
from pbm.ops.status import MAX_DEAD_LETTERS, health, status

__all__ = ["COMMANDS"]


@click.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@config_option
def status_cmd(as_json: bool, config_path: Path | None) -> None:
    """The queues (inbound by status, outbox, dead letters, split stages' matches), open
    incidents, the workers (alive or stale by heartbeat) and their claims, the next turns."""
    config = load(config_path, logs=False)
    db_engine = make_db_engine(config.database.url)
    stale = timedelta(seconds=config.workers.stale_seconds)
    now = SystemClock().now()
    try:
        # Read only: it answers while a pass holds SQLite's write lock.
        reader = db_engine.execution_options(**{READ_ONLY: True})
        with transaction(make_session_factory(reader)) as s:
            st = status(s, now, stale_after=stale)
    finally:
        db_engine.dispose()
    spooled = _spool(config.database.spool_dir)
    age = spooled.oldest_seconds(now)
    st["spool"] = {
        "count": spooled.count,
        "oldest": spooled.oldest.isoformat() if spooled.oldest is not None else None,
        "oldest_seconds": round(age, 1) if age is not None else None,
        "dead": spooled.dead,
    }
    if as_json:
        click.echo(json.dumps(st, indent=2, sort_keys=True))
        return
    console = make_console()
    queues = Table(title="Queues")
    queues.add_column("queue")
    queues.add_column("state")
    queues.add_column("count", justify="right")
    for name, count in st["inbound"].items():
        queues.add_row("inbound", name, str(count))
    for name in ("pending", "not_yet_due", "failed"):
        queues.add_row("outbox", name.replace("_", " "), str(st["outbox"][name]))
    queues.add_row("dead letters", "shunted", str(st["dead_letters"]))
    oldest = st["spool"]["oldest_seconds"]
    queues.add_row(
        "spool",
        "waiting" + (f" (oldest {oldest:.0f} s)" if oldest is not None else ""),
        str(st["spool"]["count"]),
    )
    if st["spool"]["dead"]:
        queues.add_row("spool", "unreadable (dead/)", str(st["spool"]["dead"]))
    for name, count in st["turn_matches"].items():
        queues.add_row("turn matches", name, str(count))
    for name, count in st["turn_mails"].items():
        queues.add_row("turn mails", name, str(count))
    console.print(queues)
    if st["incidents"]:
        down = Table(title="Open incidents (a door is down; pbm retries by itself)")
        for col in ("door", "kind", "since", "attempts", "last error"):
            down.add_column(col)
        for i in st["incidents"]:
            down.add_row(i["door"], i["kind"], i["since"], str(i["attempts"]), escape(i["error"]))
        console.print(down)
    else:
        console.print("no open incident")
    console.print(_workers_table(st["workers"]) if st["workers"] else "no worker is registered")
    due = Table(title="Next turns due")
    for col in ("competition", "stage", "status", "deadline"):
        due.add_column(col)
    for t in st["turns"]:
        due.add_row(t["competition"], t["stage"], t["status"], t["deadline"])
    console.print(due if st["turns"] else "no turn is due")
    console.print(
        "claims: 'doing' is the inbound or outbox row in hand at the worker's last heartbeat "
        "(held for one transaction or send); turn matches are claimed under a lease"
    )


def _workers_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(title="Workers")
    for col in ("worker", "host", "pid", "state", "heartbeat", "doing", "turn matches claimed"):
        table.add_column(col)
    for w in rows:
        doing = w["doing"] or ""
        if w["state"] == "stale" and w["last_doing"]:
            doing = f"(last: {w['last_doing']})"
        held = ", ".join(
            f"{c['matches']} of {c['competition']} {c['stage']}"
            + (" (lease lapsed)" if c["lapsed"] else f" until {c['lease_until']}")
            for c in w["turn_matches"]
        )
        table.add_row(
            escape(w["id"]),
            escape(w["host"] or ""),
            str(w["pid"] or ""),
            w["state"],
            w["heartbeat"] or "",
            escape(doing),
            escape(held),
        )
    return table


@click.command("health")
@click.option(
    "--max-dead",
    type=int,
    default=None,
    help=f"Dead letters tolerated (default: [health] max_dead_letters, {MAX_DEAD_LETTERS}).",
)
@config_option
def health_cmd(max_dead: int | None, config_path: Path | None) -> None:
    """Exit 0 and print "ok" if pbm is healthy, else exit 69 (EX_UNAVAILABLE) with one line
    per reason (for systemd, cron, monitoring): a worker's heartbeat is fresh ([health]
    heartbeat_seconds: `pbm serve` runs), the database answers and is at head, the outbox is
    not stuck nor past [health] max_outbox, no door (IMAP, SMTP, the database) is down for
    over 30 minutes, dead letters are not past [health] max_dead_letters, no mail has waited
    in the spool past [health] max_spool_seconds."""
    config = load(config_path, logs=False)
    limits = config.health
    verdict = health(
        config.database.url,
        SystemClock().now(),
        limits.max_dead_letters if max_dead is None else max_dead,
        fresh_within=timedelta(seconds=limits.heartbeat_seconds),
        max_outbox=limits.max_outbox,
        spool=_spool(config.database.spool_dir),
        max_spool_age=timedelta(seconds=limits.max_spool_seconds),
    )
    if verdict.ok:
        click.echo("ok")
        return
    for problem in verdict.problems:
        click.echo(f"unhealthy: {problem}", err=True)
    sys.exit(os.EX_UNAVAILABLE)


def _spool(path: Path | None) -> SpoolState:
    return spool_state(path) if path is not None else SpoolState(0, None, 0)


COMMANDS = [status_cmd, health_cmd]
