"""TLS settings shared by the IMAP and SMTP doors."""

from __future__ import annotations

import ssl
from typing import Literal

__all__ = ["BadCaFile", "Security", "make_ssl_context"]

#: ``plain``: no TLS (loopback only); ``starttls``: upgrade on the plain port;
#: ``tls``: implicit TLS from the first byte (IMAPS 993, SMTPS 465).
Security = Literal["plain", "starttls", "tls"]

SECURITY_MODES: tuple[Security, ...] = ("plain", "starttls", "tls")


class BadCaFile(ValueError):
    """The configured CA file is missing or unreadable: a permanent configuration problem."""


def make_ssl_context(*, ca_file: str | None = None, verify: bool = True) -> ssl.SSLContext:
    """A client context: the system CAs (or ``ca_file``), or no checking when ``verify`` is off.

    ``verify=False`` exists for self-signed test servers; it turns off both the chain and the
    hostname check, so never use it across a network you do not own.
    """
    try:
        ctx = ssl.create_default_context(cafile=ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise BadCaFile(f"cannot load CA file {ca_file!r}: {exc}") from exc
    if not verify:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def tls_is_permanent(exc: ssl.SSLError) -> bool:
    """A TLS failure that retrying will not cure (bad certificate, TLS spoken to a plain port)."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return True
    # An EOF or a reset in the middle of a session is a lost connection, not a misconfiguration.
    if isinstance(exc, ssl.SSLEOFError | ssl.SSLZeroReturnError | ssl.SSLWantReadError):
        return False
    return exc.reason in {"WRONG_VERSION_NUMBER", "UNKNOWN_PROTOCOL", "UNSUPPORTED_PROTOCOL"}
