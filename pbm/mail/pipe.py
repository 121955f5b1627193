"""The MTA pipe's door (``pbm ingest``): one mail from a stream or a file, never read past the cap.

A mail over the cap is not kept in memory: a stream is read to ``cap + 1`` bytes and the
rest counted and thrown away as it comes (so the MTA's write never fails half-way), a file is
measured with ``stat`` and only its header block read. What the command then does with it
(a bounce through the MTA, or a stand-in stored) is :func:`over_cap_answered`'s question.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pbm.mail.limits import HEAD_BYTES, Oversize, stand_in
from pbm.mail.understand import Kind, understand

__all__ = ["TooBig", "over_cap_answered", "read_capped"]

_CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class TooBig:
    """A mail over the cap: its first bytes (at most :data:`~pbm.mail.limits.HEAD_BYTES`,
    where its header block is) and its whole size."""

    head: bytes
    size: int

    def stand_in(self, cap: int, kept: str, key: str) -> bytes:
        """What a door stores for it, signed under ``key`` (:func:`pbm.mail.limits.stand_in`)."""
        return stand_in(self.head, Oversize(self.size, cap, kept), key)


def read_capped(source: BinaryIO | Path, cap: int) -> bytes | TooBig:
    """The mail in ``source`` (a binary stream, or a file's path), or :class:`TooBig` when it
    has more than ``cap`` bytes; at most ``cap + 1`` bytes are ever held. Raises ``OSError``."""
    if isinstance(source, Path):
        with source.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > cap:  # measured, not read
                return TooBig(f.read(HEAD_BYTES), size)
            return read_capped(f, cap)
    data = source.read(cap + 1)
    if len(data) <= cap:
        return data
    size = len(data)
    head = data[:HEAD_BYTES]
    del data
    while chunk := source.read(_CHUNK):
        size += len(chunk)
    return TooBig(head, size)


def over_cap_answered(
    stand_in_raw: bytes, own_address: str, envelope_from: str | None, keys: Sequence[str]
) -> bool:
    """Whether pbm would answer the mail a stand-in stands for: a person's, from a sender
    that may be answered. The same reading as any stored mail's
    (:func:`pbm.mail.understand.understand`, on the headers alone): automatic mail, a
    delivery report, a null reverse-path and a From pbm refuses are never answered. ``keys``
    are ``[security]``'s, the first the one ``stand_in_raw`` was signed under."""
    mail_is = understand(
        stand_in_raw, own_address=own_address, envelope_from=envelope_from, keys=keys
    )
    return mail_is.kind is Kind.REFUSED and (
        mail_is.refusal is not None and mail_is.refusal.answer is not None
    )
