"""``pbm mail list/show/retry/deliverable/login``: the inbound store, dead letters, the outbox,
addresses marked undeliverable by a bounce, and a login to the mail doors. Senders' text is
shown neutralised (:mod:`pbm.core.textsafe`)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table
from sqlalchemy import select

from pbm.app import App
from pbm.cli import mail_preview
from pbm.cli._common import config_option, load
from pbm.cli._console import make_console
from pbm.core.errors import PbmError
from pbm.core.events import record
from pbm.core.textsafe import neutralise, neutralise_line
from pbm.db.models import InboundMail, MailStatus, OutboxMessage
from pbm.db.session import transaction
from pbm.inbound.spool import retry_dead
from pbm.outbound.bounces import clear

__all__ = ["COMMANDS"]

STATUSES = tuple(s.value for s in MailStatus)


@click.group("mail")
def mail() -> None:
    """Inbound mail, dead letters and the outbox."""


@mail.command("list")
@click.option("--status", type=click.Choice(STATUSES), help="Only this status.")
@click.option("--dead", is_flag=True, help="Only dead letters (same as --status shunted).")
@click.option("--outbox", is_flag=True, help="List the outbox instead.")
@click.option("--limit", default=50, show_default=True, help="Newest N rows.")
@config_option
def list_(
    status: str | None, dead: bool, outbox: bool, limit: int, config_path: Path | None
) -> None:
    """List stored mail, newest first."""
    app = App.from_config(load(config_path, logs=False))
    try:
        with transaction(app.sessions) as s:
            if outbox:
                table = Table("id", "status", "kind", "to", "attempts", "subject", "last error")
                for o in s.scalars(
                    select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(limit)
                ):
                    table.add_row(
                        str(o.id),
                        o.status,
                        o.kind,
                        neutralise_line(o.to_addr),
                        str(o.attempts),
                        neutralise_line(o.subject),
                        neutralise_line(o.last_error or ""),
                    )
            else:
                q = select(InboundMail).order_by(InboundMail.id.desc()).limit(limit)
                if dead or status:
                    q = q.where(InboundMail.status == (MailStatus.SHUNTED if dead else status))
                table = Table("id", "status", "door", "received", "from", "subject", "note")
                for m in s.scalars(q):
                    table.add_row(
                        str(m.id),
                        m.status,
                        m.door,
                        f"{m.received_at:%Y-%m-%d %H:%M}",
                        neutralise_line(m.from_addr or m.envelope_from or ""),
                        neutralise_line(m.subject or ""),
                        neutralise_line(m.note or ""),
                    )
    finally:
        app.close()
    # markup off: subjects and addresses are the senders' text ("[demo] join" would lose its tag)
    make_console(markup=False, min_width=160).print(table)


@mail.command("show")
@click.argument("mail_id", type=int)
@click.option("--raw", is_flag=True, help="Print the stored message itself.")
@config_option
def show(mail_id: int, raw: bool, config_path: Path | None) -> None:
    """Show one inbound mail: status, note, and the traceback of a dead letter."""
    app = App.from_config(load(config_path, logs=False))
    try:
        with transaction(app.sessions) as s:
            m = s.get(InboundMail, mail_id)
            if m is None:
                raise click.ClickException(f"no inbound mail #{mail_id}")
            click.echo(f"#{m.id} {m.status} via {m.door} at {m.received_at:%Y-%m-%d %H:%M:%S}")
            click.echo(f"key:     {m.key}")
            click.echo(f"from:    {neutralise_line(m.from_addr or m.envelope_from or '?')}")
            click.echo(f"subject: {neutralise_line(m.subject or '')}")
            click.echo(f"note:    {neutralise_line(m.note or '')}")
            if m.error:
                click.echo("\n" + neutralise(m.error))
            if raw and not m.raw:
                click.echo("\n(the raw mail was purged: see [retention] raw_days)")
            elif raw:
                click.echo("\n" + neutralise(m.raw.decode("utf-8", "replace")))
    finally:
        app.close()


@mail.command("retry")
@click.argument("mail_id", type=int)
@config_option
def retry(mail_id: int, config_path: Path | None) -> None:
    """Put a dead letter back in the queue for the daemon (a handled mail is refused). An
    unreadable spool file's dead letter is read again: stored if it can be read now, else
    kept as a dead letter with the reason."""
    app = App.from_config(load(config_path, logs=False))
    try:
        stored = retry_dead(app.spool, app.inbound, mail_id)
    except PbmError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        app.close()
    if stored is None:
        click.echo(f"#{mail_id} queued again")
    else:
        click.echo(f"#{mail_id}: the spool file was read and stored as #{stored.id}")


@mail.command("deliverable")
@click.argument("address")
@config_option
def deliverable(address: str, config_path: Path | None) -> None:
    """Clear the undeliverable mark (and soft-bounce count) a bounce left on ADDRESS."""
    app = App.from_config(load(config_path, logs=False))
    try:
        with transaction(app.sessions) as s:
            if not clear(s, address):
                raise click.ClickException(f"{address} is not marked undeliverable")
            record(s, app.clock, "deliverable", address=address.lower(), by="gm")
    finally:
        app.close()
    click.echo(f"{address.lower()}: mail goes out again")


@mail.command("login")
@config_option
def login(config_path: Path | None) -> None:
    """Log in to the configured IMAP mailbox and SMTP relay once, as the daemon does (with
    OAuth2, after refreshing the access token), and say what worked; exit 1 if any failed."""
    from pbm.app import make_mailboxes, make_sender
    from pbm.core.errors import MailError
    from pbm.mail.dkim import SigningSender
    from pbm.mail.imap import ImapMailbox
    from pbm.mail.smtp import SmtpSender

    config = load(config_path)
    failed = False
    for mb in make_mailboxes(config):
        try:
            assert isinstance(mb, ImapMailbox)
            mb.connect()
            click.echo(f"IMAP ok: {mb!r}")
        except MailError as exc:
            failed = True
            click.echo(f"IMAP failed: {exc}", err=True)
        finally:
            mb.close()
    if config.smtp is not None:
        sender = make_sender(config)
        assert isinstance(sender, SmtpSender | SigningSender)
        try:
            sender.connect()
            click.echo(f"SMTP ok: {sender!r}")
        except MailError as exc:
            failed = True
            click.echo(f"SMTP failed: {exc}", err=True)
        finally:
            sender.close()
    if failed:
        raise SystemExit(1)


mail_preview.register(mail)
COMMANDS = [mail]
