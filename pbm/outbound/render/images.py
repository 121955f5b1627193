"""Pictures a mail's HTML shows inline, sent beside it and referenced as ``cid:<cid>``."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["InlineImage"]

# A Content-ID is a msg-id's left part: a token no header or URL can be smuggled through.
_CID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_SUBTYPES = frozenset(["png", "jpeg", "gif", "webp"])


@dataclass(frozen=True, slots=True)
class InlineImage:
    """One picture of a mail's HTML: the HTML shows it as ``<img src="cid:{cid}">``. Gmail and
    Outlook drop inline SVG and ``data:`` URLs, so pictures travel as parts of their own."""

    cid: str
    filename: str
    data: bytes
    subtype: str = "png"

    def __post_init__(self) -> None:
        if not _CID.match(self.cid):
            raise ValueError(f"not a usable Content-ID: {self.cid!r}")
        if self.subtype not in _SUBTYPES:
            raise ValueError(f"not an image type mail clients show: {self.subtype!r}")
