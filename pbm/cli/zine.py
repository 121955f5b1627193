"""``pbm zine``: build the zine's static archive from the database, serve it, set delivery."""

from __future__ import annotations

import contextlib
import functools
import http.server
import ipaddress
import socket
from pathlib import Path

import click

from pbm.cli._common import config_option, load

__all__ = ["COMMANDS"]


def _loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback one ("" and 0.0.0.0 are all)."""
    if not host.strip():
        return False
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(
        ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in addresses
    )


def _url(url: str | None, config_path: Path | None) -> str:
    return url or load(config_path, logs=False).database.url


@click.group("zine")
def zine() -> None:
    """The zine: every turn an issue in HTML, text and PDF, and the archive of them all."""


@zine.command("build")
@click.argument("code", required=False)
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder to (re)build the archive in.",
)
@click.option("--url", default=None, help="Database URL (default: the config's).")
@click.option("--no-pdf", is_flag=True, help="Skip the PDFs (a quicker preview).")
@click.option("--jobs", type=int, default=2, show_default=True, help="Threads compiling PDFs.")
@config_option
def build(
    code: str | None, out: Path, url: str | None, no_pdf: bool, jobs: int, config_path: Path | None
) -> None:
    """(Re)build the archive from the database: every competition's issues, or only CODE and
    the competitions before it (careers count every season up to CODE's). The same data gives
    the same files; PDFs whose issue has not changed are kept."""
    from pbm.db.session import make_db_engine, make_session_factory, transaction
    from pbm.games.flungo.zine.archive import build_archive
    from pbm.games.flungo.zine.source import competition_codes, load_reports

    engine = make_db_engine(_url(url, config_path))
    try:
        with transaction(make_session_factory(engine)) as s:
            codes = competition_codes(s)
            if code is not None:
                if code not in codes:
                    raise click.ClickException(f"no turn reports for competition {code!r}")
                codes = codes[: codes.index(code) + 1]
            seasons = [(c, load_reports(s, c)) for c in codes]
    finally:
        engine.dispose()
    result = build_archive(seasons, out, pdf=not no_pdf, jobs=jobs)
    click.echo(f"{len(result.issues)} issues, {len(result.files)} files in {out}")


@zine.command("demo")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Folder."
)
@click.option("--teams", type=int, default=4, show_default=True, help="How many teams.")
@click.option("--knockout", is_flag=True, help="A knockout instead of a league.")
def demo(out: Path, teams: int, knockout: bool) -> None:
    """Build an archive of a made-up season (no database): to see what players will get."""
    from pbm.games.flungo.zine.archive import build_archive
    from pbm.games.flungo.zine.demo import demo_season

    reports = demo_season(teams, knockout=knockout, code="DEMO")
    result = build_archive([("DEMO", reports)], out)
    click.echo(f"{len(result.issues)} issues, {len(result.files)} files in {out}")


@zine.command("serve")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    required=True,
    help="The archive folder (as built by pbm zine build).",
)
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--bind",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: a loopback address only (127.0.0.1, ::1, localhost), "
    "unless --public is given.",
)
@click.option(
    "--public",
    is_flag=True,
    help="Allow a non-loopback --bind (0.0.0.0, a LAN address): anyone who reaches it can "
    "read the archive. For the world, serve the folder with a real web server instead.",
)
def serve(directory: Path, port: int, bind: str, public: bool) -> None:
    """Serve the archive locally (Python's http.server) for the GM to look at. It listens on
    loopback only; a non-loopback --bind is refused unless --public is given."""
    if not public and not _loopback(bind):
        raise click.UsageError(
            f"--bind {bind!r} is not a loopback address: the archive would be served to "
            "anyone who can reach it; give --public if that is meant",
            ctx=click.get_current_context(),
        )
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    with http.server.ThreadingHTTPServer((bind, port), handler) as httpd:
        click.echo(
            f"serving {directory} at http://{bind}:{httpd.server_address[1]}/ (Ctrl-C stops)"
        )
        with contextlib.suppress(KeyboardInterrupt):
            httpd.serve_forever()


@zine.command("delivery")
@click.argument("address")
@click.argument("choice", type=click.Choice(["attach", "inline", "link"]))
@click.option("--url", default=None, help="Database URL (default: the config's).")
@config_option
def delivery(address: str, choice: str, url: str | None, config_path: Path | None) -> None:
    """Set how ADDRESS gets the zine in every competition it plays: 'attach' (its PDF
    attached) or 'inline' (the issue in the mail alone, the default; 'link' says the same)."""
    from pbm.db.session import make_db_engine, make_session_factory, transaction
    from pbm.games.flungo.zine.delivery import set_zine_delivery

    engine = make_db_engine(_url(url, config_path))
    try:
        with transaction(make_session_factory(engine)) as s:
            try:
                set_zine_delivery(s, address, choice)
            except ValueError as exc:
                raise click.ClickException(str(exc)) from exc
    finally:
        engine.dispose()
    click.echo(f"{address}: zine by {choice}")


COMMANDS = (zine,)
