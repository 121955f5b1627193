"""The database alone holds no secret in clear: what pbm stores is scrubbed, what it needs
again is sealed.

* :func:`scrub_text` and :func:`scrub_message` hide secrets in text and in whole raw mails:
  the secrets pbm knows (a seat's, the GM's), anything shaped like a seat secret (16 symbols
  of pbm's alphabet in groups of four, any case, dashes or not: a quoted welcome mail, a
  bounce returning it, a secret typed into a Subject or an order), and, in mail from
  outside, the word after ``SECRET``/``PASSWORD`` at the start of a line (a wrong guess, a
  second SECRET line). Every decoded MIME part is searched, in every transfer encoding, and
  the bytes once more after.
* The columns that keep mail or player text scrub on assignment (``pbm.db.models``), so no
  code path can forget to.
* :class:`Sealer` keeps the one thing pbm must read again, the raw mail as it came, until it
  is handled: encrypted (Fernet, a key derived from ``security.secret_key`` by HKDF) in
  ``inbound_mail.sealed``. A handled mail loses its sealed copy; a dead letter keeps it, so
  ``pbm mail retry`` works without any plaintext at rest.
"""

from __future__ import annotations

import base64
import email
import re
from collections.abc import Iterable
from email import policy
from email.header import Header
from email.message import Message

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbm.core.errors import PbmError
from pbm.mail.encoded_words import UTF8
from pbm.mail.headers import decoded
from pbm.mail.mime import decode_bytes
from pbm.secrets.redact import REDACTED, redact, transfer_plain

__all__ = [
    "SECRET_SHAPE",
    "Sealer",
    "has_secret_shape",
    "scrub_bytes",
    "scrub_message",
    "scrub_text",
]

_SYM = "[A-HJ-NP-Z2-9]"
#: A seat secret as pbm writes it (``ABCD-EFGH-JKLM-NPQR``), or typed without dashes: a whole
#: token, so no part of a longer code (Hit for Six's base64url codes) is ever taken for one.
SECRET_SHAPE = re.compile(rf"(?<![\w-]){_SYM}{{4}}(?:-?{_SYM}{{4}}){{3}}(?![\w-])", re.IGNORECASE)
_SECRET_LINE = re.compile(
    r"(?im)^([ \t>*\-•]*(?:your[ \t]+)?(?:secret|password)(?![\w-])[ \t]*[:=]?[ \t]*)"
    r"(\S+)"
)
_SECRET_SHAPE_B = re.compile(SECRET_SHAPE.pattern.encode(), re.IGNORECASE)
_SECRET_LINE_B = re.compile(_SECRET_LINE.pattern.encode(), re.IGNORECASE | re.MULTILINE)
_KEEP = re.compile(r"\[\[pbm-secret:(?:h6:)?\d+:\d+\]\]|\[redacted\]")


def scrub_text(text: str, known: Iterable[str | None] = (), *, lines: bool = True) -> str:
    """``text`` with the ``known`` secrets, secret-shaped tokens and (if ``lines``) the word
    after a SECRET/PASSWORD line start replaced by ``[redacted]``."""
    text = redact(text, known)
    text = SECRET_SHAPE.sub(REDACTED, text)
    if lines:
        text = _SECRET_LINE.sub(
            lambda m: m.group(0) if _KEEP.match(m.group(2)) else m.group(1) + REDACTED,
            text,
        )
    return text


def has_secret_shape(raw: bytes, texts: Iterable[str] = ()) -> bool:
    """Whether ``raw`` or any of ``texts`` holds something shaped like a seat secret."""
    return _SECRET_SHAPE_B.search(raw) is not None or any(SECRET_SHAPE.search(t) for t in texts)


def scrub_bytes(raw: bytes, known: Iterable[str | None] = (), *, lines: bool = True) -> bytes:
    """The byte-level pass of :func:`scrub_message`, for bytes no MIME reading reached."""
    for value in sorted({k.strip() for k in known if k and k.strip()}, key=len, reverse=True):
        raw = re.sub(
            re.escape(value.encode("utf-8", "replace")), REDACTED.encode(), raw, flags=re.I
        )
    raw = _SECRET_SHAPE_B.sub(REDACTED.encode(), raw)
    if lines:
        raw = _SECRET_LINE_B.sub(
            lambda m: (
                m.group(0)
                if _KEEP.match(m.group(2).decode("latin-1"))
                else m.group(1) + REDACTED.encode()
            ),
            raw,
        )
    return raw


def _scrub_part(part: Message, known: list[str], lines: bool, deep: bool) -> bool:
    if not deep and part.get_content_maintype() not in ("text", "message"):
        return False  # pbm's own attachments (a zine's PDF) are not text to search
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return False
    text, _ = decode_bytes(payload, part.get_content_charset())
    cleaned = scrub_text(text, known, lines=lines)
    if cleaned == text:
        return False
    del part["Content-Transfer-Encoding"]
    if part.get_content_maintype() == "text":
        part.set_payload(cleaned, charset="utf-8")
    else:  # an attachment that held text: keep its type, base64 the cleaned bytes
        part.set_payload(base64.encodebytes(cleaned.encode("utf-8")).decode("ascii"))
        part["Content-Transfer-Encoding"] = "base64"
    return True


def _scrub_headers(msg: Message, known: list[str], lines: bool) -> bool:
    changed = False
    for name, value in list(msg.items()):
        text = decoded(str(value))
        cleaned = scrub_text(text, known, lines=lines)
        if cleaned != text or scrub_text(str(value), known, lines=lines) != str(value):
            msg.replace_header(name, Header(cleaned, UTF8).encode())
            changed = True
    return changed


def scrub_message(
    raw: bytes, known: Iterable[str | None] = (), *, lines: bool = True, deep: bool = True
) -> bytes:
    """``raw`` with secrets hidden in every header and every decoded part (see module doc).

    Parts without a secret keep their bytes; the result is for storage and display. Mail too
    deep or too broken for the MIME reading still gets the byte-level pass. ``deep=False``
    (pbm's own outgoing mail, which is sent as stored) searches only text parts and skips the
    byte-level pass, which could take a run of base64 in an attachment for a secret.
    """
    values = [k.strip() for k in known if k and k.strip()]
    if deep and not _maybe_encoded(raw):
        if raw.isascii():
            # Every decoded part is its own bytes, so the byte pass finds all the MIME reading
            # would (and the bytes stay as they came, where rewriting the part would base64
            # it and send every later reading the long way).
            return scrub_bytes(raw, values, lines=lines)
        if scrub_bytes(raw, values, lines=lines) == raw:
            return raw  # beyond ASCII, only a byte pass that finds nothing is trusted alone
    try:
        msg = email.message_from_bytes(raw, policy=policy.compat32)
        changed = False
        for part in msg.walk():
            changed = _scrub_headers(part, values, lines) or changed
            if not part.is_multipart():
                changed = _scrub_part(part, values, lines, deep) or changed
        out = msg.as_bytes() if changed else raw
    except (RecursionError, Exception):  # unreadable MIME: the byte-level pass below
        out = raw
    return scrub_bytes(out, values, lines=lines) if deep else out


def _maybe_encoded(raw: bytes) -> bool:
    """Whether ``raw`` has parts or headers a byte search cannot see into: a transfer
    encoding, a charset that spells ASCII otherwise (UTF-7, UTF-16), an encoded-word."""
    low = raw.lower()
    return b"base64" in low or b"quoted-printable" in low or b"=?" in raw or not transfer_plain(raw)


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
