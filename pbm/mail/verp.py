"""VERP envelope senders: ``pbm+bounce-<row>-<mac>@host`` names the outbox row a report is
about, under an HMAC nobody else can make (:mod:`pbm.outbound.bounces` believes a report by it).

Pure (an address and a key in, a row number out), so the understanding of a mail
(:mod:`pbm.mail.understand`) can tell a report of ours without the outbox.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence

from pbm.mail.auto import base_address

__all__ = ["read_verp", "verp_address"]

_VERP = re.compile(
    r"^(?P<local>[^+@]+)\+bounce-(?P<row>\d{1,12})-(?P<mac>[0-9a-f]{12})@(?P<dom>.+)$"
)


def _mac(key: str, row_id: int) -> str:
    return hmac.new(key.encode(), f"bounce:{row_id}".encode(), hashlib.sha256).hexdigest()[:12]


def verp_address(own_address: str, key: str, row_id: int) -> str:
    """The envelope sender for outbox row ``row_id``: ``local+bounce-<id>-<mac>@domain``."""
    local, _, domain = own_address.rpartition("@")
    return f"{local.split('+', 1)[0]}+bounce-{row_id}-{_mac(key, row_id)}@{domain}"


def read_verp(address: str, own_address: str, key: str | Sequence[str]) -> int | None:
    """The outbox row a VERP address of ours names, if its MAC is right under ``key`` (or
    any of the keys given: a report of mail sent before a key rotation comes back too)."""
    match = _VERP.match(address.strip().strip("<>").lower())
    if match is None:
        return None
    if base_address(f"{match['local']}@{match['dom']}") != base_address(own_address):
        return None
    row = int(match["row"])
    keys = (key,) if isinstance(key, str) else key
    return row if any(hmac.compare_digest(match["mac"], _mac(k, row)) for k in keys) else None
