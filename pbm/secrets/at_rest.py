"""What pbm must read again, the raw mail as it came, is sealed until it is handled.

:class:`Sealer` encrypts it (Fernet, a key derived from ``security.secret_key`` by HKDF) into
``inbound_mail.sealed``. A handled mail loses its sealed copy; a dead letter keeps it, so
``pbm mail retry`` works without any plaintext at rest. Everything else pbm stores is
scrubbed by its column's type (:mod:`pbm.secrets.columns`).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbm.core.errors import PbmError

__all__ = ["Sealer"]


def _fernet(secret_key: str) -> Fernet:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"pbm inbound seal")
    return Fernet(base64.urlsafe_b64encode(hkdf.derive(secret_key.encode())))


class Sealer:
    """Encrypts raw mail under a key derived from the configured ``security.secret_key``;
    opens what any of ``old_keys`` (``security.old_secret_keys``) sealed too, so a key can be
    rotated while mail waits (MultiFernet: the first key seals, every key opens)."""

    def __init__(self, secret_key: str, old_keys: Iterable[str] = ()) -> None:
        self._fernet = MultiFernet([_fernet(k) for k in (secret_key, *old_keys)])
        self._current = _fernet(secret_key)

    def seal(self, raw: bytes) -> bytes:
        """The encrypted copy to store."""
        return self._fernet.encrypt(raw)

    def unseal(self, sealed: bytes) -> bytes:
        """The raw mail back; ``PbmError`` if no configured key sealed it."""
        try:
            return self._fernet.decrypt(sealed)
        except InvalidToken as exc:
            raise PbmError(
                "cannot open a sealed mail: it was sealed under a security.secret_key that "
                "is neither the current one nor in security.old_secret_keys"
            ) from exc

    def is_current(self, sealed: bytes) -> bool:
        """Whether ``sealed`` is already under the current key."""
        try:
            self._current.decrypt(sealed)
        except InvalidToken:
            return False
        return True

    def reseal(self, sealed: bytes) -> bytes:
        """``sealed`` under the current key (``PbmError`` as :meth:`unseal`)."""
        try:
            return self._fernet.rotate(sealed)
        except InvalidToken as exc:
            raise PbmError("cannot re-seal a sealed mail: no configured key opens it") from exc
