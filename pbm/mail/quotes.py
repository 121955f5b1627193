"""Remove quoted replies and signatures from a plain-text body, conservatively.

Written here after trying both libraries the project installs:

* quotequail marks everything after an "On … wrote:" line as quoted, so a bottom-posted
  reply (quote first, orders below) loses its orders;
* mail-parser-reply cuts at any two lines starting ``From:``/``Sent:``/``To:``, and at
  sign-offs such as "Best," or "Thanks,", and keeps inline ``>`` quotes.

Players reply to the zine, and a stripper that eats real orders is worse than none, so this
one only removes what it can recognise line by line:

* ``>`` lines (wherever they are, so inline replies keep the player's lines);
* an attribution ("On … wrote:", up to three lines, several languages) only when quoted
  lines follow it;
* a quoted original introduced by Outlook's "-----Original Message-----" or by a
  ``From:``/``Sent:``/``Subject:`` header block after a blank line, to the end;
* a forwarded message's marker and header block, keeping the forwarded text itself;
* a ``-- `` signature of at most a dozen lines, and "Sent from my iPhone" lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Stripped", "strip_quotes"]

_QUOTED = re.compile(r"^\s{0,3}>")
_ATTRIBUTION_OPENER = re.compile(
    r"^(?:On|Am|Le|El|Il|Op|Den|Dnia|W dniu|Em|Em\s\w+,|Kun|Pe)\s", re.IGNORECASE
)
_ATTRIBUTION_END = re.compile(
    r"(?:wrote|writes|schrieb|a\s+écrit|escribió|ha\s+scritto|schreef|skrev|escreveu"
    r"|napisał\(a\)|napisał|kirjoitti)\s*[^:\n]{0,80}:$",
    re.IGNORECASE,
)
_ORIGINAL_MESSAGE = re.compile(
    r"^\s*-{3,}\s*(?:original message|ursprüngliche nachricht|message d'origine"
    r"|mensaje original|messaggio originale|oorspronkelijk bericht|originalmeddelande)"
    r"\s*-{3,}\s*$",
    re.IGNORECASE,
)
_FORWARD_MARKER = re.compile(
    r"^\s*(?:-{3,}\s*(?:forwarded message|weitergeleitete nachricht|message transféré"
    r"|mensaje reenviado)\s*-{3,}|begin forwarded message:)\s*$",
    re.IGNORECASE,
)
_SEPARATOR = re.compile(r"^\s*_{10,}\s*$")
_HEADER_LINE = re.compile(r"^\s*\*?([A-Za-zÀ-ÿ][\w -]{0,20}?)\s*:\*?(?:\s|$)")
_FROM_NAMES = {"from", "von", "de", "van", "da", "fra", "från", "od"}
_DATE_NAMES = {"sent", "date", "gesendet", "datum", "envoyé", "enviado", "fecha", "inviato"}
_DATE_NAMES |= {"data", "verzonden", "sendt", "skickat", "wysłano"}
_SUBJECT_NAMES = {"subject", "betreff", "objet", "asunto", "oggetto", "onderwerp", "emne"}
_SUBJECT_NAMES |= {"ämne", "temat", "assunto"}
_SENT_FROM = re.compile(
    r"^\s*(?:Sent from my |Sent from (?:Mail|Outlook|Yahoo Mail) for |Get Outlook for "
    r"|Sent from (?:Outlook|Yahoo Mail|Proton Mail|ProtonMail)\b"
    r"|Gesendet von meinem |Von meinem \S+ gesendet|Envoyé de mon "
    r"|Enviado desde mi |Inviato da |Verzonden met |Verstuurd vanaf mijn "
    r"|Skickat från min |Sendt fra min ).{0,60}$"
)
_SIGNATURE = "-- "
_MAX_SIGNATURE_LINES = 12
_MAX_HEADER_BLOCK = 8
MAX_LINES = 20_000


@dataclass(frozen=True, slots=True)
class Stripped:
    """A body with quotes and signature removed, and counts of what went."""

    text: str
    quoted_lines: int
    signature_lines: int
    forwarded: bool
    too_long: bool  # over MAX_LINES: left as it is, so hostile mail cannot cost minutes


def _blank(line: str) -> bool:
    return not line.strip()


def _header_block(lines: list[str], start: int) -> int | None:
    """End (exclusive) of a From/Sent/Subject header block starting at ``start``, or None."""
    names: set[str] = set()
    end = start
    while end < len(lines) and end - start < _MAX_HEADER_BLOCK:
        match = _HEADER_LINE.match(lines[end])
        if not match:
            break
        names.add(match.group(1).strip().lower())
        end += 1
    if names & _FROM_NAMES and names & _DATE_NAMES and names & _SUBJECT_NAMES:
        return end
    return None


def _separator_above(lines: list[str], i: int) -> int:
    """Where a header block at ``i`` really starts: at an underscore rule just above it."""
    j = i - 1
    while j >= 0 and _blank(lines[j]):
        j -= 1
    return j if j >= 0 and _SEPARATOR.match(lines[j]) else i


def _next_nonblank(lines: list[str], i: int) -> int:
    while i < len(lines) and _blank(lines[i]):
        i += 1
    return i


def _attribution(lines: list[str], i: int) -> int:
    """Number of lines (1-3) of an attribution starting at ``i`` followed by a quote; else 0."""
    first = lines[i].strip()
    # One line is an attribution only if it ends in ':', two or three only if the first opens
    # one ("On", "Am"...): most lines are neither, and need not be joined three ways.
    if not first.endswith(":") and not _ATTRIBUTION_OPENER.match(first):
        return 0
    for k in (1, 2, 3):
        chunk = lines[i : i + k]
        if len(chunk) < k or any(_blank(x) or _QUOTED.match(x) for x in chunk):
            return 0
        if k > 1 and not _ATTRIBUTION_OPENER.match(chunk[0].strip()):
            return 0
        joined = " ".join(x.strip() for x in chunk)
        # The cheap end test first: the regex is only worth running on lines ending in ':'.
        if joined.endswith(":") and len(joined) <= 400 and _ATTRIBUTION_END.search(joined[-120:]):
            after = _next_nonblank(lines, i + k)
            if after == len(lines) or _QUOTED.match(lines[after]):
                return k
            return 0
    return 0


def _ends_signature(lines: list[str], i: int) -> bool:
    line = lines[i]
    return bool(
        _QUOTED.match(line)
        or _ORIGINAL_MESSAGE.match(line)
        or _FORWARD_MARKER.match(line)
        or _SEPARATOR.match(line)
        or _attribution(lines, i)
        or _header_block(lines, i) is not None
    )


def _signature_end(lines: list[str], i: int) -> int | None:
    """End of the signature whose ``-- `` line is ``i``; None if too long to be one."""
    end = i + 1
    while end < len(lines) and not _ends_signature(lines, end):
        if end - i > _MAX_SIGNATURE_LINES:
            return None
        end += 1
    return end


def strip_quotes(text: str) -> Stripped:
    """Remove what the sender quoted or signed from ``text`` (``\\n`` line ends)."""
    lines = text.split("\n")
    removed = [False] * len(lines)
    quoted = signature = 0
    forwarded = False

    def drop(start: int, end: int, *, is_signature: bool = False) -> None:
        nonlocal quoted, signature
        for j in range(start, end):
            if not removed[j] and not _blank(lines[j]):
                if is_signature:
                    signature += 1
                else:
                    quoted += 1
            removed[j] = True

    if len(lines) > MAX_LINES:
        return Stripped(text.strip("\n"), 0, 0, forwarded=False, too_long=True)

    blanks = [not line.strip() for line in lines]  # each line's test made once, not thrice
    i = 0
    while i < len(lines):
        line = lines[i]
        if blanks[i]:
            i += 1
            continue
        if _FORWARD_MARKER.match(line):
            header_start = _next_nonblank(lines, i + 1)
            end = _header_block(lines, header_start)
            if end is not None:
                # Forwarded text may be the player's own orders sent on from elsewhere: keep it.
                drop(i, end)
                forwarded = True
                i = end
                continue
        elif _ORIGINAL_MESSAGE.match(line):
            drop(i, len(lines))
            break
        elif (i == 0 or blanks[i - 1] or _SEPARATOR.match(lines[i - 1])) and (
            end := _header_block(lines, i)
        ) is not None:
            drop(_separator_above(lines, i), len(lines))
            break
        elif _QUOTED.match(line):
            drop(i, i + 1)
        elif k := _attribution(lines, i):
            drop(i, i + k)
            i += k
            continue
        elif line == _SIGNATURE and (end := _signature_end(lines, i)) is not None:
            removed[i] = True  # the "-- " separator itself is not counted as a signature line
            drop(i + 1, end, is_signature=True)
            i = end
            continue
        elif _SENT_FROM.match(line):
            drop(i, i + 1, is_signature=True)
        i += 1

    out: list[str] = []
    gap = False
    for line, gone, blank in zip(lines, removed, blanks, strict=True):
        if gone:
            gap = True
        elif blank:
            if not (gap and out and out[-1] == ""):
                out.append("")
        else:
            out.append(line)
            gap = False
    return Stripped("\n".join(out).strip("\n"), quoted, signature, forwarded, too_long=False)
