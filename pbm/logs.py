"""Structured logs to stderr (structlog): JSON lines for machines, or a console renderer.

Configure once at start-up with :func:`configure_logging`. Secrets in event dicts are
redacted by a processor, whatever the caller logged.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, MutableMapping
from typing import Any

import structlog

from pbm.auth import redact

__all__ = ["configure_logging"]


def _redactor(secrets: tuple[str, ...]) -> Any:
    def process(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> Any:
        if not secrets:
            return event
        for key, value in list(event.items()):
            if isinstance(value, str):
                event[key] = redact(value, secrets)
        return event

    return process


def configure_logging(
    fmt: str = "console", level: str = "info", secrets: Iterable[str] = ()
) -> None:
    """Route structlog (and stdlib logging) to stderr in the chosen format."""
    lvl = getattr(logging, level.upper(), logging.INFO)
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _redactor(tuple(s for s in secrets if s)),
    ]
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(lvl),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
    # Libraries (aiosmtpd, imapclient, the mail adapters) log through the standard library:
    # render them the same way, on the same stream.
    handler = logging.StreamHandler(sys.stderr)
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
