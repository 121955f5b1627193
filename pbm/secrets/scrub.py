"""The one scrubber: hides secrets in text, in bytes and in whole raw mails, for what is
stored (the scrubbing columns, :mod:`pbm.secrets.columns`), echoed and logged.

* :func:`redact` hides the secrets pbm *knows* (a seat's, the GM's, the configured keys).
* :func:`scrub_text` and :func:`scrub_message` hide those, anything shaped like a seat secret
  (16 symbols of pbm's alphabet in groups of four, any case, dashes or not: a quoted welcome
  mail, a bounce returning it, a secret typed into a Subject or an order), and, in mail from
  outside, the word after ``SECRET``/``PASSWORD`` at the start of a line (a wrong guess, a
  second SECRET line). Every decoded MIME part is searched, in every transfer encoding, and
  the bytes once more after.
"""

from __future__ import annotations

import base64
import email
import quopri
import re
from collections.abc import Iterable
from email import policy
from email.header import Header
from email.message import Message
from typing import AnyStr

from pbm.mail.encoded_words import UTF8
from pbm.mail.headers import decoded
from pbm.mail.mime import decode_bytes
from pbm.secrets.shapes import ALPHABET, PLACEHOLDER, REDACTED, SECRET_SHAPE, SECRET_SHAPE_BYTES

__all__ = [
    "REDACTED",
    "is_plain_ascii",
    "own_spans",
    "redact",
    "redact_message",
    "scrub_bytes",
    "scrub_message",
    "scrub_text",
    "transfer_plain",
]

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


_SECRET_LINE = re.compile(
    r"(?im)^([ \t>*\-•]*(?:your[ \t]+)?(?:secret|password)(?![\w-])[ \t]*[:=]?[ \t]*)"
    r"(\S+)"
)
_SECRET_LINE_B = re.compile(_SECRET_LINE.pattern.encode(), re.IGNORECASE | re.MULTILINE)
#: What a SECRET line may already hold: a placeholder, or what was hidden before.
_KEEP = re.compile(rf"{PLACEHOLDER.pattern}|{re.escape(REDACTED)}")


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


def scrub_bytes(raw: bytes, known: Iterable[str | None] = (), *, lines: bool = True) -> bytes:
    """The byte-level pass of :func:`scrub_message`, for bytes no MIME reading reached."""
    for value in sorted({k.strip() for k in known if k and k.strip()}, key=len, reverse=True):
        raw = re.sub(
            re.escape(value.encode("utf-8", "replace")), REDACTED.encode(), raw, flags=re.I
        )
    raw = SECRET_SHAPE_BYTES.sub(REDACTED.encode(), raw)
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
    if not deep and _own_unchanged(raw, values, lines):
        return raw  # the package's reading would find nothing to hide and return ``raw``
    return _scrub_read(raw, values, lines, deep)


def _scrub_read(raw: bytes, values: list[str], lines: bool, deep: bool) -> bytes:
    """:func:`scrub_message` by the email package's reading (for pbm's own clean mail,
    :func:`_own_unchanged` answers first, with the same result)."""
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


# pbm's own mail, read without the email package. The outbox's column scrubs every message pbm
# queues (``deep=False``): the package's reading of a reply's bytes cost more than composing
# them. A message in the shapes pbm's composer writes directly (ASCII, LF, headers; one
# quoted-printable UTF-8 text part, or a multipart/alternative of them under pbm's boundary)
# is read here into the same header values and decoded payloads the package's compat32
# reading gives, and searched the same way; only a message found clean returns early. Any
# other shape, or one with something to hide, takes the package's way, which writes the
# result. ``tests/pbm/test_own_mail_scrub.py`` compares the two over hostile messages.

_HEAD = re.compile(rb"[!-9;-~]+:[^\n]*\n(?:[ \t][^\n]*\n)*")
_TEXT_TYPE = re.compile(r'text/(?:plain|html); charset="utf-8"(?:; format="flowed")?')
_ALTERNATIVE = re.compile(r'multipart/alternative; boundary="(=_pbm_[0-9a-f]{24})"')
#: A secret's symbols (any case) and the dash as ``x``, every other byte a space.
_RUN_TABLE = bytes(
    ord("x") if chr(b) in f"{ALPHABET}{ALPHABET.lower()}-" else ord(" ") for b in range(256)
)
_SIXTEEN = b"x" * 16


def _own_unchanged(raw: bytes, values: list[str], lines: bool) -> bool:
    """Whether ``raw`` is a message of pbm's own shape in which the package's reading would
    change nothing; False for any other (then the package reads it)."""
    if b"\r" in raw or not raw.isascii():
        return False  # the package also breaks lines at CR; non-ASCII is read with surrogates
    try:
        read = _own_parts(raw)
        if read is None:
            return False
        values = _values(values)
        searched: list[str] = []
        for headers, payload in read:
            for value in headers:
                searched.append(value)
                if "=?" in value or not _PLAIN_VALUE.fullmatch(value):  # else decoded() is it
                    searched.append(decoded(value))
            if payload is not None:
                text, _ = decode_bytes(quopri.decodestring(payload), "utf-8")
                searched.append(text)
        if any(_JOIN in value for value in values):
            return not any(_changes(text, values, lines) for text in searched)
        # Searched as one text: a secret or its shape found in a piece is found in the whole
        # (the line end between pieces is no symbol, no word character and in no secret), so
        # a clean whole is a clean piece each; one search, not two a header.
        return not _changes(_JOIN.join(searched), values, lines)
    except Exception:  # whatever fails here, the package's reading decides
        return False


#: What parts the pieces :func:`_own_unchanged` searches as one text.
_JOIN = "\n"
#: A header value :func:`pbm.mail.headers.decoded` returns unchanged when it holds no "=?":
#: printable ASCII and spaces, no space at either end.
_PLAIN_VALUE = re.compile(r"(?:[!-~](?:[ !-~]*[!-~])?)?")


def _own_parts(raw: bytes) -> list[tuple[list[str], bytes | None]] | None:
    """Each part's header values and its text payload (None for the multipart), as compat32
    reads them; None when ``raw`` is not in one of pbm's shapes."""
    spans = own_spans(raw)
    if spans is None:
        return None
    return [(values, None if at is None else raw[at[0] : at[1]]) for values, at in spans]


def own_spans(raw: bytes) -> list[tuple[list[str], tuple[int, int] | None]] | None:
    """Each part of a message in one of pbm's composed shapes (see above): its header values
    as compat32 reads them, and where its quoted-printable UTF-8 payload lies in ``raw``
    (None for the multipart); None when ``raw`` is in no such shape. (The outbox fills a
    reply's secrets in these payloads alone.)"""
    head = _headers_of(raw, 0)  # read once, for either shape
    if head is None:
        return None
    single = _text_part(raw, head)
    if single is not None:
        return [(single[0], (single[1], len(raw)))]
    found = _ALTERNATIVE.fullmatch(_one(head[0], "content-type") or "")
    if found is None:
        return None
    sep = b"--" + found.group(1).encode("ascii")
    body = raw[head[1] :]
    if not body.startswith(sep + b"\n") or not body.endswith(b"\n" + sep + b"--\n"):
        return None  # no preamble, no epilogue
    chunks = body[len(sep) + 1 : -len(sep) - 4].split(b"\n" + sep + b"\n")
    if body.count(sep) != len(chunks) + 1:
        return None  # the boundary only where it separates the parts
    parts: list[tuple[list[str], tuple[int, int] | None]] = [([v for _, v in head[0]], None)]
    at = head[1] + len(sep) + 1
    for chunk in chunks:
        part = _text_part(chunk)
        if part is None:
            return None
        parts.append((part[0], (at + part[1], at + len(chunk))))
        at += len(chunk) + len(sep) + 2
    return parts


def _text_part(
    raw: bytes, head: tuple[list[tuple[str, str]], int] | None = None
) -> tuple[list[str], int] | None:
    """The header values of ``raw`` as one quoted-printable UTF-8 text part, and where its
    payload starts; None for anything else. ``head``: its headers, if already read."""
    head = head or _headers_of(raw, 0)
    if head is None:
        return None
    fields, at = head
    kind = _one(fields, "content-type")
    if kind is None or not _TEXT_TYPE.fullmatch(kind):
        return None
    if _one(fields, "content-transfer-encoding") != "quoted-printable":
        return None
    return [v for _, v in fields], at


def _headers_of(raw: bytes, at: int) -> tuple[list[tuple[str, str]], int] | None:
    """The header fields from ``at`` as compat32 keeps them (name, value: the first line's
    rest without leading blanks, then its continuation lines, the last line end taken off),
    and where the body starts (after the empty line); None without that empty line."""
    fields: list[tuple[str, str]] = []
    while raw[at : at + 1] != b"\n":
        found = _HEAD.match(raw, at)
        if found is None:
            return None
        line = found.group().decode("ascii")
        name, _, value = line.partition(":")
        fields.append((name, value.lstrip(" \t").rstrip("\r\n")))
        at = found.end()
    return fields, at + 1


def _one(fields: list[tuple[str, str]], name: str) -> str | None:
    """The value of the one field ``name`` (any case); None if there are several or none."""
    values = [v for n, v in fields if n.lower() == name]
    return values[0] if len(values) == 1 else None


def _changes(text: str, values: list[str], lines: bool) -> bool:
    """Whether :func:`scrub_text` would change ``text``. Without SECRET lines to look for,
    the secret shape is tried only where it can match: bounded by its lookarounds, it is a
    whole run of 16 to 19 symbols and dashes, each ASCII unless a character of
    :data:`_FOLDING` is in the text; such runs are found in the text's bytes (a character
    beyond ASCII ends a run, as it cannot be in one), a fraction of the pattern's search."""
    if lines:
        return scrub_text(text, values, lines=lines) != text
    if redact(text, values) != text:
        return True
    if not text.isascii() and any(c in text for c in _FOLDING):
        return SECRET_SHAPE.search(text) is not None
    runs = text.encode("ascii", "replace").translate(_RUN_TABLE)
    at = runs.find(_SIXTEEN)
    while at >= 0:
        end = runs.find(b" ", at)
        if (len(runs) if end < 0 else end) - at <= 19 and SECRET_SHAPE.match(text, at):
            return True
        if end < 0:
            return False
        at = runs.find(_SIXTEEN, end)
    return False


#: The characters beyond ASCII that the secret shape's caseless symbols match (the Kelvin sign
#: and the long s: ``tests/pbm/test_own_mail_scrub.py`` checks every code point).
_FOLDING = ("\u017f", "\u212a")
