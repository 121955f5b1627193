"""Players' secrets: made, shown once, stored only as argon2 hashes, and redacted everywhere.

A new player's secret must reach them in the JOIN reply, yet no secret may sit in the outbox
table. So the secret is *derived*: ``HMAC-SHA256(security.secret_key, "seat:<id>:<version>")``
rendered in an unambiguous alphabet. The reply is stored with a placeholder, and the outbox
sender fills it in at the moment of sending (:func:`fill_secrets`). The database holds the
argon2 hash; a database dump alone reveals no secret.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from pbm.config import SecurityConfig
from pbm.routing import REDACTED
from pbm.routing import redact as _redact

__all__ = [
    "REDACTED",
    "SecretBox",
    "redact",
    "secret_placeholder",
]

_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: secrets get typed by hand
_PLACEHOLDER = re.compile(r"\[\[pbm-secret:(\d+):(\d+)\]\]")


def secret_placeholder(seat_id: int, version: int) -> str:
    """The marker stored in place of a seat's secret until the moment of sending."""
    return f"[[pbm-secret:{seat_id}:{version}]]"


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret hidden (see :func:`pbm.routing.redact`)."""
    return _redact(text, secrets)


class SecretBox:
    """Derives, hashes and checks secrets with the configured key and argon2 parameters."""

    def __init__(self, config: SecurityConfig) -> None:
        self._key = config.secret_key.encode()
        self._hasher = PasswordHasher(
            time_cost=config.argon2_time_cost,
            memory_cost=config.argon2_memory_kib,
            parallelism=1,
        )

    def derive(self, seat_id: int, version: int) -> str:
        """The secret of a seat at a version, as ``XXXX-XXXX-XXXX`` (60 bits)."""
        digest = hmac.new(self._key, f"seat:{seat_id}:{version}".encode(), hashlib.sha256)
        n = int.from_bytes(digest.digest()[:8], "big")
        chars = []
        for _ in range(12):
            n, r = divmod(n, len(_ALPHABET))
            chars.append(_ALPHABET[r])
        s = "".join(chars)
        return f"{s[:4]}-{s[4:8]}-{s[8:]}"

    def hash(self, secret: str) -> str:
        """The argon2 hash to store."""
        return self._hasher.hash(normalise_secret(secret))

    def verify(self, stored_hash: str, secret: str) -> bool:
        """Whether ``secret`` matches the stored hash."""
        try:
            return self._hasher.verify(stored_hash, normalise_secret(secret))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def fill_secrets(self, text: str) -> str:
        """Replace every placeholder with the secret it stands for."""
        return _PLACEHOLDER.sub(lambda m: self.derive(int(m[1]), int(m[2])), text)


def has_placeholder(text: str) -> bool:
    """Whether ``text`` still carries a secret placeholder."""
    return _PLACEHOLDER.search(text) is not None


def normalise_secret(secret: str) -> str:
    """Secrets compare without case, spaces or dashes: people retype them."""
    return re.sub(r"[\s\-]", "", secret).upper()
