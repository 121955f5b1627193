"""Structured logs to stderr or a file (structlog): JSON lines for machines, or a console
renderer.

With ``[logging] file``, lines are appended to that file instead; :func:`request_reopen` (the
daemon's SIGHUP) makes the next line reopen it, so logrotate can move the file away and the
new lines go to a new one. The signal handler only sets a flag: the reopen happens under the
log lock, never in the middle of a line.

Configure once at start-up with :func:`configure_logging`. Secrets in event dicts are
redacted by a processor, whatever the caller logged (the configured ones, and anything shaped
like a seat secret), and long values are cut.

One event is one line, always: structlog's ``PrintLogger`` writes the message and the newline
in two calls, so two threads (the SMTP listener's and the loop) could interleave them. Every
line here, from structlog and from the standard library alike, goes out through one lock as
one ``write`` of the whole line, then a flush.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from collections.abc import Iterable, MutableMapping
from pathlib import Path
from typing import Any, TextIO

import structlog

from pbm.secrets.scrub import scrub_text

__all__ = ["LineLogger", "configure_logging", "hide", "request_reopen"]

#: Longer string values are cut (a log line should fit one atomic pipe write).
MAX_VALUE_CHARS = 2000
_LOCK = threading.Lock()


class _Target:
    """Where lines go: stderr, or a file reopened on request."""

    path: str | None = None
    stream: TextIO | None = None
    reopen = False


_TARGET = _Target()


def request_reopen() -> None:
    """Reopen the log file before the next line (safe from a signal handler)."""
    _TARGET.reopen = True


def _stream() -> TextIO:
    if _TARGET.path is None:
        return sys.stderr
    if _TARGET.reopen or _TARGET.stream is None:
        _TARGET.reopen = False
        old, _TARGET.stream = _TARGET.stream, None
        if old is not None:
            with contextlib.suppress(OSError):
                old.close()
        try:
            target = Path(_TARGET.path)
            target.parent.mkdir(mode=0o750, parents=True, exist_ok=True)
            _TARGET.stream = target.open("a", encoding="utf-8")
        except OSError:
            return sys.stderr  # the file cannot be opened: stderr rather than nothing
    return _TARGET.stream


def write_line(line: str) -> None:
    """Write ``line`` and its newline in one call, under the process's log lock."""
    data = line.rstrip("\n") + "\n"
    with _LOCK:
        try:
            stream = _stream()
            stream.write(data)
            stream.flush()
        except (OSError, ValueError):  # the stream closed under us: nowhere left to log
            pass


class LineLogger:
    """A structlog logger writing each rendered event as one line (see module doc)."""

    def __init__(self, *_args: Any) -> None:
        pass

    def msg(self, message: str) -> None:
        """Write one rendered event."""
        write_line(message)

    log = debug = info = warn = warning = error = critical = exception = fatal = msg


class _LineHandler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        try:
            write_line(self.format(record))
        except Exception:
            self.handleError(record)


#: Secrets learnt while running (OAuth2 access and refresh tokens), the newest last: hidden
#: like the configured ones. Bounded: an access token lives an hour, and the oldest are dead.
_HIDDEN: list[str] = []
_HIDDEN_MAX = 32
_HIDDEN_LOCK = threading.Lock()


def hide(*values: str) -> None:
    """Hide ``values`` from every log line from now on (a token pbm got at run time)."""
    with _HIDDEN_LOCK:
        for value in values:
            if value and value not in _HIDDEN:
                _HIDDEN.append(value)
        del _HIDDEN[:-_HIDDEN_MAX]


def _redactor(secrets: tuple[str, ...]) -> Any:
    def process(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> Any:
        known = (*secrets, *tuple(_HIDDEN)) if _HIDDEN else secrets
        for key, value in list(event.items()):
            if isinstance(value, str):
                value = scrub_text(value, known, lines=False)
                limit = MAX_VALUE_CHARS * (4 if key == "exception" else 1)
                if len(value) > limit:
                    value = value[:limit] + f"... ({len(value)} characters)"
                event[key] = value
        return event

    return process


def configure_logging(
    fmt: str = "console",
    level: str = "info",
    secrets: Iterable[str] = (),
    file: str | None = None,
) -> None:
    """Route structlog (and stdlib logging) to stderr, or to ``file``, in the chosen format."""
    lvl = getattr(logging, level.upper(), logging.INFO)
    with _LOCK:
        if _TARGET.stream is not None:
            _TARGET.stream.close()
        _TARGET.path, _TARGET.stream, _TARGET.reopen = file, None, False
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=file is None and sys.stderr.isatty())
    )
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _redactor(tuple(s for s in secrets if s)),
    ]
    structlog.configure(
        processors=[
            *shared,
            structlog.processors.format_exc_info,
            _redactor(tuple(s for s in secrets if s)),  # the traceback too
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(lvl),
        logger_factory=LineLogger,
        cache_logger_on_first_use=False,
    )
    # Libraries (aiosmtpd, imapclient, the mail adapters) log through the standard library:
    # render them the same way, on the same stream.
    handler = _LineHandler()
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *shared],
        )
    )
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(lvl)
    # aiosmtpd narrates every connection at INFO; keep its warnings only.
    logging.getLogger("mail.log").setLevel(max(lvl, logging.WARNING))
