"""The CLI's edge: every command's failure becomes one line, the fix, and a sysexits code.

Two things happen here, once for the whole command tree (not in each command):

* :func:`guard_tree` wraps each command that opens the database (it takes ``--config`` or
  ``--url``) so that, before it runs, the database is checked (:mod:`pbm.db.readiness`): a
  missing directory or file, an empty database or one behind (or ahead of) this pbm's
  migrations stops it with the line naming the fix, instead of a SQLAlchemy traceback from
  the first query. ``pbm db upgrade``, ``restore`` and ``backup`` are the fixes themselves and
  are not stopped; ``pbm ingest`` exits EX_TEMPFAIL so that the MTA keeps the mail.
* :class:`PbmGroup` translates whatever escapes a command: pbm's error tree, SQLAlchemy's and
  the OS's errors, each to its sysexits code (``os.EX_*``) and one line. Anything else is a
  bug: one line saying so and where the traceback went (the log file of ``[logging] file``,
  else a file in the temporary directory), exit EX_SOFTWARE; the traceback never reaches the
  terminal.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from pbm.core.errors import (
    AuthError,
    ConfigError,
    DatabaseNotReady,
    DatabaseUnavailable,
    GameError,
    MailError,
    NotFound,
    PbmError,
    RateLimited,
    SmtpError,
)
from pbm.testhooks import fail_point

__all__ = [
    "DB_FREE",
    "EXIT_CODES",
    "Failure",
    "PbmGroup",
    "database_commands",
    "guard_tree",
    "walk",
]

#: Every exit code a pbm command may end with (sysexits.h, and 0).
EXIT_CODES = frozenset(
    {
        os.EX_OK,
        os.EX_USAGE,
        os.EX_DATAERR,
        os.EX_NOINPUT,
        os.EX_UNAVAILABLE,
        os.EX_SOFTWARE,
        os.EX_CANTCREAT,
        os.EX_IOERR,
        os.EX_TEMPFAIL,
        os.EX_NOPERM,
        os.EX_CONFIG,
    }
)

#: Commands that open the database but are not stopped when it is not ready: they are how
#: it is made ready (upgrade, restore) or saved before that (backup).
NOT_GUARDED = frozenset({"db upgrade", "db restore", "db backup", "mail login"})
#: Commands that open the database only when an option is not given (``verify --file``
#: replays a file).
UNLESS_GIVEN = {"verify": "replay_file"}
#: Commands whose "database not ready" is "try again later" for the caller (an MTA's pipe).
TEMPFAIL_WHEN_NOT_READY = frozenset({"ingest"})
#: Commands that never open the database (a test keeps this list honest).
DB_FREE = frozenset(
    {
        "check-config",
        "decks build",
        "decks list",
        "h6 card",
        "h6 challenge",
        "h6 deal",
        "h6 ground",
        "h6 play",
        "h6 replay",
        "h6 test",
        "mail preview",
        "orders check",
        "sim",
        "zine demo",
        "zine serve",
    }
)

_META_CONFIG = "pbm.config_path"
_META_COMMAND = "pbm.command"


class Failure(click.ClickException):
    """A command's failure as the operator reads it: one line, and a sysexits code."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(" ".join(message.split()) if "\n" in message else message)
        _set_exit_code(self, exit_code)


def _set_exit_code(exc: click.ClickException, code: int) -> None:
    # click types exit_code as a class variable; each failure carries its own
    vars(exc)["exit_code"] = code


# -- the tree --------------------------------------------------------------------------------


def walk(group: click.Group, prefix: str = "") -> Iterator[tuple[str, click.Command]]:
    """Every leaf command under ``group`` with its path (``"db upgrade"``)."""
    for name, cmd in sorted(group.commands.items()):
        path = f"{prefix}{name}"
        if isinstance(cmd, click.Group):
            yield from walk(cmd, path + " ")
        else:
            yield path, cmd


def _opens_database(cmd: click.Command) -> bool:
    return any(p.name in ("config_path", "url") for p in cmd.params)


def database_commands(group: click.Group) -> list[str]:
    """The paths of the commands that open the database."""
    return [path for path, cmd in walk(group) if _opens_database(cmd)]


def guard_tree(group: click.Group) -> None:
    """Check the database before each command of ``group`` that opens it (see the module
    doc); every command remembers its ``--config`` for the crash log."""
    for path, cmd in walk(group):
        if cmd.callback is None or getattr(cmd.callback, "__pbm_guarded__", False):
            continue
        check = _opens_database(cmd) and path not in NOT_GUARDED
        cmd.callback = _guarded(
            cmd.callback, check, path in TEMPFAIL_WHEN_NOT_READY, UNLESS_GIVEN.get(path)
        )


def _guarded(
    callback: Callable[..., Any], check: bool, tempfail: bool, unless: str | None
) -> Callable[..., Any]:
    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        ctx.meta[_META_CONFIG] = kwargs.get("config_path")
        ctx.meta[_META_COMMAND] = ctx.command_path
        fail_point("cli")
        if check and not (unless and kwargs.get(unless)):
            _check_database(kwargs.get("url"), kwargs.get("config_path"), tempfail)
        return callback(*args, **kwargs)

    run.__pbm_guarded__ = True  # type: ignore[attr-defined]
    return run


def _check_database(url: str | None, config_path: Path | None, tempfail: bool) -> None:
    from pbm.db.readiness import ensure_ready

    try:
        if url is None:
            from pbm.cli._common import resolve
            from pbm.core.config import load_config

            url = load_config(resolve(config_path)).database.url
        ensure_ready(url)
    except (DatabaseNotReady, DatabaseUnavailable) as exc:
        if tempfail:
            raise Failure(exc.message, os.EX_TEMPFAIL) from exc
        raise


# -- the errors ------------------------------------------------------------------------------


def _db_not_ready_code(exc: DatabaseNotReady) -> int:
    from pbm.db.readiness import Readiness

    if exc.state in (Readiness.NO_DIRECTORY, Readiness.NO_FILE):
        return os.EX_NOINPUT
    return os.EX_UNAVAILABLE


def _pbm_code(exc: PbmError) -> int:
    if isinstance(exc, ConfigError):
        return os.EX_CONFIG
    if isinstance(exc, DatabaseNotReady):
        return _db_not_ready_code(exc)
    if isinstance(exc, DatabaseUnavailable | RateLimited):
        return os.EX_TEMPFAIL
    if isinstance(exc, NotFound):
        return os.EX_NOINPUT
    if isinstance(exc, AuthError):
        return os.EX_NOPERM
    if isinstance(exc, SmtpError):
        return os.EX_TEMPFAIL if exc.transient else os.EX_UNAVAILABLE
    if isinstance(exc, MailError):
        return os.EX_UNAVAILABLE
    if isinstance(exc, GameError):
        return os.EX_DATAERR
    return os.EX_TEMPFAIL if exc.transient else os.EX_DATAERR


#: SQL errors that mean the schema is not this pbm's (a table or column it expects is not
#: there): SQLite's and PostgreSQL's words for them.
_SCHEMA_WORDS = ("no such table", "no such column", "undefinedtable", "undefinedcolumn")


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    return (text.splitlines() or [type(exc).__name__])[0][:300]


def _sql_failure(exc: SQLAlchemyError) -> Failure | None:
    from pbm.db.session import is_db_outage

    words = f"{type(getattr(exc, 'orig', None)).__name__} {exc}".lower()
    if any(w in words for w in _SCHEMA_WORDS):
        return Failure(
            f"the database does not have pbm's tables ({_first_line(exc)}): run `pbm db upgrade`",
            os.EX_UNAVAILABLE,
        )
    if isinstance(exc, DBAPIError) and (
        is_db_outage(exc) or "unable to open database file" in words
    ):
        return Failure(
            f"the database does not answer ({_first_line(exc)}): check database.url and that "
            "its server (or its directory) is there",
            os.EX_TEMPFAIL,
        )
    return None


def _os_failure(exc: OSError) -> Failure:
    where = f"{exc.filename}: " if exc.filename else ""
    what = exc.strerror or str(exc)
    if isinstance(exc, FileNotFoundError):
        return Failure(f"{where}{what}: check the path", os.EX_NOINPUT)
    if isinstance(exc, PermissionError):
        return Failure(f"{where}{what}: check who owns it and its mode", os.EX_NOPERM)
    return Failure(f"{where}{what}", os.EX_IOERR)


def _config_path(ctx: click.Context) -> Path | None:
    value = ctx.meta.get(_META_CONFIG)
    return value if isinstance(value, Path) else None


def _crash_log(ctx: click.Context, exc: BaseException) -> str:
    """Write the traceback where the operator's logs go; returns where."""
    text = "".join(traceback.format_exception(exc))
    secrets: Sequence[str] = ()
    target: Path | None = None
    as_json = False
    try:
        from pbm.cli._common import resolve
        from pbm.core.config import load_config

        config = load_config(resolve(_config_path(ctx)))
        secrets = config.secrets()
        if config.logging.file:
            target = Path(config.logging.file)
            as_json = config.logging.format == "json"
    except (PbmError, OSError):
        pass  # no config to read: the temporary directory
    from pbm.secrets.scrub import scrub_text

    text = scrub_text(text, secrets, lines=False)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    command = ctx.meta.get(_META_COMMAND, ctx.command_path)
    if as_json:  # one line among the daemon's JSON lines, the traceback a field of it
        entry = (
            json.dumps(
                {
                    "timestamp": stamp,
                    "level": "error",
                    "event": "cli.crashed",
                    "command": command,
                    "exception": text,
                }
            )
            + "\n"
        )
    else:
        entry = f"{stamp} `{command}` crashed:\n{text}\n"
    if target is None:
        name = f"pbm-crash-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{os.getpid()}.log"
        target = Path(tempfile.gettempdir()) / name
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(entry)
    except OSError:
        return "the log could not be written"
    return str(target)


def translate(ctx: click.Context, exc: BaseException) -> click.ClickException:
    """The one-line failure for ``exc``."""
    if isinstance(exc, PbmError):
        return Failure(exc.message, _pbm_code(exc))
    if isinstance(exc, SQLAlchemyError):
        failure = _sql_failure(exc)
        if failure is not None:
            return failure
    elif isinstance(exc, OSError):
        return _os_failure(exc)
    where = _crash_log(ctx, exc)
    return Failure(
        f"internal error ({type(exc).__name__}: {_first_line(exc)}); see the log: {where}",
        os.EX_SOFTWARE,
    )


def _sysexit(exc: click.ClickException) -> click.ClickException:
    # click's own codes (2 for usage, 1 for the rest) become sysexits
    if isinstance(exc, click.UsageError) and exc.exit_code == 2:
        _set_exit_code(exc, os.EX_USAGE)
    elif exc.exit_code == 1:
        _set_exit_code(exc, os.EX_DATAERR)
    return exc


class PbmGroup(click.Group):
    """The top group: every failure below it leaves as one line and a sysexits code."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as exc:
            raise _sysexit(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.Abort):
            raise
        except click.ClickException as exc:
            raise _sysexit(exc) from None
        except Exception as exc:  # the edge: nothing leaves as a traceback
            raise translate(ctx, exc) from exc
