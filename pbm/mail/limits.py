"""The bounds on the work one mail can cause, and the mails pbm never answers.

A mail over a bound is refused as a whole, before any of it is read as orders, with a reply
that says which bound and by how much (:func:`screen`); the bounds are constants here and are
documented in ``docs/ops/operations.md`` (Hostile mail).

A mail over the byte cap (:data:`MAX_MAIL_BYTES`, the ``[smtp_listener] max_size`` setting,
the same for every door) is not read at all: a door that cannot refuse it at the protocol
(IMAP, and automatic mail through the MTA pipe) keeps its header block and stores a stand-in
(:func:`stand_in`), which :func:`pbm.mail.understand.understand` refuses on its first line
(:func:`oversize`) without reading further.

That first line is in band: any sender can write it. So the door signs it, with an HMAC under
``[security] secret_key`` over the line and everything after it, and :func:`oversize` honours
only a line whose MAC is right under one of the configured keys (the current one or one a
rotation keeps, as for the VERP addresses and the sealed copies): a sender's copy of the field
is an ordinary header of an ordinary mail. ``pbm secrets rotate`` signs a waiting stand-in
again under the new key (:func:`resign`), as it re-seals it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "HEAD_BYTES",
    "MAX_FLAGS",
    "MAX_LINES",
    "MAX_MAIL_BYTES",
    "MAX_MULTIPARTS",
    "MAX_REPLY_CHARS",
    "NULL_SENDER",
    "OVERSIZE_FIELD",
    "Oversize",
    "Screened",
    "count_multiparts",
    "cut_reply",
    "oversize",
    "resign",
    "screen",
    "stand_in",
    "too_big",
    "too_many_flags",
]

#: Lines of text pbm reads in one mail (a naming is 20, a full set of orders well under 200).
MAX_LINES = 400
#: Sentences one mail may leave for the GM to read; more and the mail is refused.
MAX_FLAGS = 20
#: ``multipart/*`` parts in one mail: bounds the MIME nesting (and the parser's recursion).
MAX_MULTIPARTS = 40
#: Characters in the text of one reply; the rest is cut with a note saying so.
MAX_REPLY_CHARS = 60_000
#: Bytes in one mail, at every door (``[smtp_listener] max_size``): a mail of orders is a few KB.
MAX_MAIL_BYTES = 1_048_576
#: Bytes of a too-big mail's header block a door keeps (a header block is rarely 10 KB).
HEAD_BYTES = 64 * 1024
#: The field a door writes first in the stand-in of a mail over the cap, signed: pbm's own,
#: never the sender's (a sender's field of that name is dropped from the header block kept,
#: and one first in a mail's own bytes is not honoured: it carries no MAC of ours).
OVERSIZE_FIELD = "X-Pbm-Oversize"
#: How the doors record an empty SMTP reverse-path (``MAIL FROM:<>``).
NULL_SENDER = "<>"

_OVERSIZE = re.compile(rb"X-Pbm-Oversize: (\d{1,18}) (\d{1,18}) ([0-9a-f]{32}) ([^\r\n]*)\r?\n")
_FIELD_START = re.compile(rb"[!-9;-~]+:")
_MULTIPART = re.compile(rb"content-type:[ \t]*(?:\r?\n[ \t]+)?multipart/", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Screened:
    """Why a mail is not handled: ``answer`` is the reason told to the sender, or None when
    pbm must stay silent (then ``note`` alone is recorded)."""

    status: str
    note: str
    answer: str | None = None


@dataclass(frozen=True, slots=True)
class Oversize:
    """A mail a door did not read: its ``size`` in bytes, the ``cap`` it was over, and where
    the whole mail is ``kept`` (pbm's words, for the GM)."""

    size: int
    cap: int
    kept: str


def stand_in(head: bytes, over: Oversize, key: str) -> bytes:
    """What a door stores for a mail over the cap: :data:`OVERSIZE_FIELD` first, signed
    under ``key`` (``[security] secret_key``; see the module doc), then the mail's header
    block (at most :data:`HEAD_BYTES`, cut at a line end; a field of the sender's by that name
    dropped), then a body of pbm's own words.

    The Message-ID stays, so a second fetch of the mail has the same key and is stored once;
    the headers stay, so the stand-in is automatic, or whose, as the mail was."""
    head = head[:HEAD_BYTES]
    for end in (b"\r\n\r\n", b"\n\n"):
        head = head.split(end, 1)[0]
    lines = head.replace(b"\r\n", b"\n").split(b"\n")
    if len(head) == HEAD_BYTES and len(lines) > 1:
        lines.pop()  # cut inside its last line
    kept, dropping = [], False
    for line in lines:
        if line[:1] in (b" ", b"\t"):
            if not dropping:
                kept.append(line)
            continue
        dropping = line.lower().startswith(OVERSIZE_FIELD.lower().encode() + b":")
        if not dropping and _FIELD_START.match(line):
            kept.append(line)
    where = _plain(over.kept)
    body = (
        f"pbm did not read this mail: it was {over.size} bytes, over the limit of "
        f"{over.cap}. Its header fields are above; the whole mail is kept: {where}."
    ).encode()
    rest = b"".join(line + b"\r\n" for line in kept) + b"\r\n" + body + b"\r\n"
    return _signed(over.size, over.cap, where.encode(), rest, key)


def _signed(size: int, cap: int, where: bytes, rest: bytes, key: str) -> bytes:
    mac = _mac(key, size, cap, where, rest)
    return b"%s: %d %d %s %s\r\n" % (OVERSIZE_FIELD.encode(), size, cap, mac, where) + rest


def _mac(key: str, size: int, cap: int, where: bytes, rest: bytes) -> bytes:
    """The MAC of a stand-in: its three fields and every byte after its first line, so a
    signed line copied onto another mail is not honoured either."""
    signed = b"pbm stand-in\n%d %d %s\n" % (size, cap, where) + rest
    return hmac.new(key.encode(), signed, hashlib.sha256).hexdigest()[:32].encode()


def _read(raw: bytes, keys: str | Sequence[str]) -> tuple[Oversize, bytes, str] | None:
    """The stand-in in ``raw`` (its fields, the bytes after its first line and the key that
    signed it), if one of ``keys`` signed it."""
    if not raw.startswith(b"X-Pbm-Oversize: "):
        return None
    found = _OVERSIZE.match(raw)
    if found is None:
        return None
    size, cap, mac, where = int(found[1]), int(found[2]), found[3], found[4]
    rest = raw[found.end() :]
    for key in (keys,) if isinstance(keys, str) else keys:
        if hmac.compare_digest(mac, _mac(key, size, cap, where, rest)):
            kept = where.decode("ascii", "replace").strip()
            return Oversize(size, cap, kept), rest, key
    return None


def oversize(raw: bytes, keys: str | Sequence[str]) -> Oversize | None:
    """The cap a door found ``raw``'s mail over, if ``raw`` is a :func:`stand_in` signed
    under one of ``keys`` (the current key first, then those a rotation keeps); None for
    anything else, a sender's forged first line included."""
    read = _read(raw, keys)
    return None if read is None else read[0]


def resign(raw: bytes, keys: Sequence[str]) -> bytes:
    """``raw`` signed under ``keys[0]`` if it is a stand-in another of ``keys`` signed (a key
    rotation: the old key will be dropped), else ``raw`` itself."""
    read = _read(raw, keys)
    if read is None or read[2] == keys[0]:
        return raw
    over, rest, _ = read
    return _signed(over.size, over.cap, over.kept.encode(), rest, keys[0])


def too_big(over: Oversize, silent: str | None = None) -> Screened:
    """The refusal of a mail over the cap: answered, unless ``silent`` says why not (it is
    automatic, or came with a null reverse-path). Names nothing the sender wrote."""
    note = f"too big ({over.size} bytes, the limit is {over.cap}; kept: {over.kept})"
    if silent is not None:
        return Screened("ignored", f"{note}; not answered: {silent}")
    return Screened(
        "rejected",
        note,
        f"your mail was {_megabytes(over.size)} ({over.size} bytes), and pbm reads mail of "
        f"at most {_megabytes(over.cap)} ({over.cap} bytes), so none of it was read. "
        "Send your orders as plain text in the body of a mail, with no attachment or picture.",
    )


def _megabytes(n: int) -> str:
    return f"{n / 1_048_576:.1f} MB" if n >= 104_858 else f"{max(1, round(n / 1024))} KB"


def _plain(text: str) -> str:
    """``text`` as one line of printable ASCII (a header value, and the GM's note)."""
    return "".join(c if " " <= c <= "~" else "?" for c in text)[:200].strip()


def count_multiparts(raw: bytes) -> int:
    """How many parts of ``raw`` declare a multipart type (an upper bound on its nesting)."""
    return len(_MULTIPART.findall(raw))


def screen(
    raw: bytes, body: str, envelope_from: str | None, keys: str | Sequence[str] = ()
) -> Screened | None:
    """Whether a (non-automatic) mail must be refused before it is read: None if it may go on.

    ``envelope_from`` is the door's record of the SMTP reverse-path: a null one is never
    answered, whatever the From header says (RFC 5321 §4.5.5). ``keys`` are those a door's
    stand-in is signed under (:func:`oversize`).
    """
    over = oversize(raw, keys)
    if envelope_from == NULL_SENDER:
        null = "null reverse-path (MAIL FROM:<>)"
        return too_big(over, null) if over else Screened("ignored", f"{null}: never answered")
    if over is not None:
        return too_big(over)
    parts = count_multiparts(raw)
    if parts > MAX_MULTIPARTS:
        return Screened(
            "rejected",
            f"too many MIME parts ({parts})",
            f"your mail has {parts} nested multipart parts; pbm reads at most "
            f"{MAX_MULTIPARTS}. Send your orders as plain text.",
        )
    lines = body.count("\n") + (0 if body.endswith("\n") or not body else 1)
    if lines > MAX_LINES:
        return Screened(
            "rejected",
            f"too long ({lines} lines)",
            f"your mail has {lines} lines of text; pbm reads at most {MAX_LINES} lines "
            "in one mail, so none of it was read. Send your orders in a shorter mail.",
        )
    return None


def too_many_flags(count: int) -> str | None:
    """The answer to a mail that would leave ``count`` sentences for the GM, if too many."""
    if count <= MAX_FLAGS:
        return None
    return (
        f"{count} sentences of your orders could not be read, and pbm passes at most "
        f"{MAX_FLAGS} to the GM from one mail, so none of it was kept. Check the orders "
        "against the player's guide and send them again."
    )


def cut_reply(text: str) -> str:
    """``text`` cut to :data:`MAX_REPLY_CHARS`, saying so at the end."""
    if len(text) <= MAX_REPLY_CHARS:
        return text
    cut = text[:MAX_REPLY_CHARS].rsplit("\n", 1)[0]
    return (
        f"{cut}\n\n[pbm cut this reply here: it sends at most {MAX_REPLY_CHARS} characters "
        f"in one mail, and {len(text) - len(cut)} more were left out.]\n"
    )
