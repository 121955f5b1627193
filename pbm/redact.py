"""Hide players' secrets in text and in whole raw messages, for echoes, archives and logs."""

from __future__ import annotations

import email
import re
from collections.abc import Iterable
from email import policy
from email.message import Message

from pbm.mail.mime import decode_bytes

__all__ = ["REDACTED", "redact", "redact_message"]

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
        escaped = re.escape(value)
        pattern = escaped if len(value) >= _MIN_ANYWHERE else rf"(?<![\w-]){escaped}(?![\w-])"
        text = re.sub(pattern, REDACTED, text, flags=re.IGNORECASE)
    return text


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
    try:
        msg = email.message_from_bytes(raw, policy=policy.compat32)
        for name, value in list(msg.items()):
            cleaned = redact(str(value), values)
            if cleaned != str(value):
                msg.replace_header(name, cleaned)
        for part in msg.walk():
            if not part.is_multipart() and part.get_content_maintype() == "text":
                _redact_part(part, values)
        out = msg.as_bytes()
    except Exception:  # unreadable MIME still gets the byte-level pass below
        out = raw
    for value in values:
        pattern = re.escape(value.encode("utf-8", "replace"))
        out = re.sub(pattern, REDACTED.encode(), out, flags=re.IGNORECASE)
    return out
