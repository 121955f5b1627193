"""Hide players' secrets in text and in whole raw messages, for echoes, archives and logs."""

from __future__ import annotations

import email
import re
from collections.abc import Iterable
from email import policy
from email.message import Message
from typing import AnyStr

from pbm.mail.mime import decode_bytes

__all__ = ["REDACTED", "is_plain_ascii", "redact", "redact_message", "transfer_plain"]

REDACTED = "[redacted]"
_MIN_ANYWHERE = 6


def _values(secrets: Iterable[str | None]) -> list[str]:
    return sorted({s.strip() for s in secrets if s and s.strip()}, key=len, reverse=True)


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with each secret (any case) replaced by ``[redacted]``.

    Secrets of six characters or more are hidden wherever they occur, even glued to other
    text; shorter ones (a player's mistyped guess) only as whole tokens, so that a stray
    ``SECRET x`` does not blank out every ``x``.
    """
    for value in _values(secrets):
        whole = len(value) < _MIN_ANYWHERE
        if text.isascii() and value.isascii():
            # by find, not a regex: each secret is new, and compiling its pattern cost more
            # than the rest of the redaction (re's cache holds 512 of a deadline's thousands)
            text = _replace_lowered(text, value.lower(), REDACTED, whole=whole)
            continue
        escaped = re.escape(value)
        pattern = rf"(?<![\w-]){escaped}(?![\w-])" if whole else escaped
        text = re.sub(pattern, REDACTED, text, flags=re.IGNORECASE)
    return text


def _replace_lowered(data: AnyStr, needle: AnyStr, marker: AnyStr, *, whole: bool) -> AnyStr:
    """``data`` with each place its lowered form holds ``needle`` (lower case) replaced by
    ``marker``, left to right as ``re.sub`` goes; with ``whole``, only where no ASCII
    ``[\\w-]`` stands next to it (the regex's lookarounds)."""
    low = data.lower()
    at = low.find(needle)
    if at < 0:
        return data
    out: list[AnyStr] = []
    done = 0
    while at >= 0:
        end = at + len(needle)
        if whole and (_wordy(low, at - 1) or _wordy(low, end)):
            at = low.find(needle, at + 1)  # where the lookarounds refuse, the regex moves on
            continue
        out += (data[done:at], marker)
        done = end
        at = low.find(needle, end)
    out.append(data[done:])
    return data[:0].join(out)


def _wordy(text: str | bytes, i: int) -> bool:
    """Whether ``text[i]`` is an ASCII ``[\\w-]``: what a short secret may not touch."""
    if not 0 <= i < len(text):
        return False
    c = text[i : i + 1]
    return c.isalnum() or c in ("_", "-", b"_", b"-")


def _redact_part(part: Message, secrets: list[str]) -> None:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return
    text, _ = decode_bytes(payload, part.get_content_charset())
    cleaned = redact(text, secrets)
    if cleaned != text:
        # Re-encoded as UTF-8 so a secret hidden by base64 or quoted-printable is really gone.
        del part["Content-Transfer-Encoding"]
        part.set_payload(cleaned, charset="utf-8")


def redact_message(raw: bytes, secrets: Iterable[str | None]) -> bytes:
    """``raw`` with the secrets hidden in its headers and in every decoded text part.

    Parts are decoded first, so a secret inside base64 or quoted-printable is found too. Parts
    without a secret keep their bytes. A final byte-level pass catches what the MIME reading
    missed; the result is for storage and display, not for re-parsing as the original.
    """
    values = _values(secrets)
    if not values:
        return raw
    if is_plain_ascii(raw):
        return _redact_bytes(raw, values)  # nothing is encoded: the byte pass finds it all
    return _redact_bytes(_redact_mime(raw, values), values)


def _redact_mime(raw: bytes, values: list[str]) -> bytes:
    """The MIME pass: headers, and each text part decoded (base64, quoted-printable, its
    charset), redacted and re-encoded; ``raw`` itself when it cannot be read as MIME."""
    try:
        msg = email.message_from_bytes(raw, policy=policy.compat32)
        for name, value in list(msg.items()):
            cleaned = redact(str(value), values)
            if cleaned != str(value):
                msg.replace_header(name, cleaned)
        for part in msg.walk():
            if not part.is_multipart() and part.get_content_maintype() == "text":
                _redact_part(part, values)
        return msg.as_bytes()
    except Exception:  # unreadable MIME still gets the byte-level pass
        return raw


def _redact_bytes(raw: bytes, values: list[str]) -> bytes:
    """Each secret's bytes, in any ASCII case, replaced wherever they occur (as a caseless
    bytes regex would: ``bytes.lower`` folds only ASCII letters, as such a regex does)."""
    marker = REDACTED.encode()
    for value in values:
        raw = _replace_lowered(raw, value.encode("utf-8", "replace").lower(), marker, whole=False)
    return raw


_CTE = re.compile(rb"content-transfer-encoding[ \t]*:\s*([^\s;]*)", re.I)
_CHARSET = re.compile(rb"charset(\*?)\s*=\s*\"?([^\s\";]*)", re.I)
_ASCII_CHARSET = re.compile(
    rb"(?:us-)?ascii|utf-?8|iso-8859-\d{1,2}|latin-?1|windows-125\d|cp125\d", re.I
)


def transfer_plain(raw: bytes) -> bool:
    """Whether every part of ``raw`` says it is written as it reads (7bit, 8bit, binary) in a
    charset where ASCII text is its own bytes: then any ASCII text a part decodes to is in
    the bytes as it reads. Not so for base64, quoted-printable, uuencode, UTF-7 (which can
    spell any letter in base64), UTF-16 or an RFC 2231 charset."""
    if any(cte.lower() not in (b"7bit", b"8bit", b"binary") for cte in _CTE.findall(raw)):
        return False
    return all(not star and _ASCII_CHARSET.fullmatch(cs) for star, cs in _CHARSET.findall(raw))


def is_plain_ascii(raw: bytes) -> bool:
    """Whether ``raw`` is ASCII and :func:`transfer_plain`. Then each decoded text part is
    its bytes, character for character, and a secret anywhere in it is in the bytes: the
    byte pass alone hides it, without the email package's reading and re-writing of the
    whole message (most of the cost of storing a mail with a secret). (ASCII, so no case
    rule beyond ASCII's can make a secret match in text but not in bytes.)"""
    return raw.isascii() and transfer_plain(raw)
