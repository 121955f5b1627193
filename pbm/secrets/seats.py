"""Players' secrets: made, shown once, stored only as argon2 hashes, and redacted everywhere.

A new player's secret must reach them in the JOIN reply, yet no secret may sit in the outbox
table. So the secret is *derived*: ``HMAC-SHA256(security.secret_key, "seat:<id>:<version>")``
rendered in an unambiguous alphabet. The reply is stored with a placeholder, and the outbox
sender fills it in at the moment of sending (:func:`fill_secrets`). The database holds the
argon2 hash; a database dump alone reveals no secret.

The hash is argon2id at a deliberately low cost (t=1, 64 KiB by default): a secret is 80 random
bits chosen by the server, not a password a person chose, so there is no small space of likely
guesses for a memory-hard hash to slow down. ``docs/ops/operations.md`` (Secrets at rest) has the
arithmetic; the cost stays configurable, and a hash made at another cost is re-made at the
configured one the next time its secret is verified (:meth:`SecretBox.needs_rehash`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from pbm.secrets.shapes import (
    ALPHABET,
    PLACEHOLDER,
    SECRET_BITS,
    SECRET_CHARS,
    secret_placeholder,
    ticket_placeholder,
)

if TYPE_CHECKING:  # the config reads pbm.ops.logs, which reads this package's scrubber
    from pbm.core.config import SecurityConfig

__all__ = [
    "SECRET_BITS",
    "HashLookup",
    "SecretBox",
    "has_placeholder",
    "normalise_secret",
    "secret_placeholder",
    "ticket_placeholder",
]

#: ``(kind, seat_id)`` to the stored hash of that seat's secret (``seat``) or ticket (``h6``).
HashLookup = Callable[[str, int], str | None]


class SecretBox:
    """Derives, hashes and checks secrets with the configured key and argon2 parameters."""

    def __init__(self, config: SecurityConfig) -> None:
        self._key = config.secret_key.encode()
        #: Keys of before a rotation: a secret made under one (a JOIN reply still waiting in
        #: the outbox) is shown as it was made, so it matches the hash stored for it.
        self._old_keys = tuple(k.encode() for k in config.old_secret_keys)
        self._hasher = PasswordHasher(
            time_cost=config.argon2_time_cost,
            memory_cost=config.argon2_memory_kib,
            parallelism=1,
        )

    def derive(
        self, seat_id: int, version: int, kind: str = "seat", key: bytes | None = None
    ) -> str:
        """The secret of a seat at a version, as ``XXXX-XXXX-XXXX-XXXX`` (80 bits); ``kind``
        ``h6`` is a Test by Post seat ticket (another key space, the same shape). ``key``:
        an old key's derivation instead of the current one's."""
        digest = hmac.new(key or self._key, f"{kind}:{seat_id}:{version}".encode(), hashlib.sha256)
        n = int.from_bytes(digest.digest()[: SECRET_BITS // 8], "big")
        chars = []
        for _ in range(SECRET_CHARS):  # 32 symbols = 5 bits each, so exactly SECRET_BITS
            n, r = divmod(n, len(ALPHABET))
            chars.append(ALPHABET[r])
        s = "".join(chars)
        return "-".join(s[k : k + 4] for k in range(0, SECRET_CHARS, 4))

    def hash(self, secret: str) -> str:
        """The argon2 hash to store."""
        return self._hasher.hash(normalise_secret(secret))

    def verify(self, stored_hash: str, secret: str) -> bool:
        """Whether ``secret`` matches the stored hash."""
        try:
            return self._hasher.verify(stored_hash, normalise_secret(secret))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored_hash: str) -> bool:
        """Whether ``stored_hash`` was made at other parameters than the configured ones."""
        try:
            return self._hasher.check_needs_rehash(stored_hash)
        except InvalidHashError:
            return True

    def fill_secrets(self, text: str, hash_of: HashLookup | None = None) -> str:
        """Replace every placeholder with the secret it stands for. While old keys are
        configured, ``hash_of(kind, seat_id)`` gives the stored hash, and the secret shown is
        the derivation (current key first) that matches it: a secret made before a rotation
        stays the secret the player has."""

        def secret(m: re.Match[str]) -> str:
            kind, seat_id, version = "h6" if m[1] else "seat", int(m[2]), int(m[3])
            current = self.derive(seat_id, version, kind)
            stored = hash_of(kind, seat_id) if hash_of is not None and self._old_keys else None
            if stored is None or self.verify(stored, current):
                return current
            for key in self._old_keys:
                if self.verify(stored, made := self.derive(seat_id, version, kind, key)):
                    return made
            return current

        return PLACEHOLDER.sub(secret, text)


def has_placeholder(text: str) -> bool:
    """Whether ``text`` still carries a secret placeholder."""
    return PLACEHOLDER.search(text) is not None


def normalise_secret(secret: str) -> str:
    """Secrets compare without case, spaces or dashes: people retype them."""
    return re.sub(r"[\s\-]", "", secret).upper()
