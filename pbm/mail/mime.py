"""Find the text a person wrote in a MIME tree: prefer text/plain, convert HTML-only mail,
decode any charset, unflow ``format=flowed``, and list what was ignored as attachments.
"""

from __future__ import annotations

import codecs
import email
import re
from dataclasses import dataclass
from email import policy
from email.message import Message

from inscriptis import get_annotated_text
from inscriptis.model.config import ParserConfig

from pbm.mail.flowed import unflow
from pbm.mail.headers import decoded

__all__ = ["Attachment", "BodyText", "decode_bytes", "extract_text", "html_to_text"]

# WHATWG treats these labels as windows-1252, a superset that also decodes 0x80-0x9f sensibly.
_CHARSET_ALIASES = {
    "latin-1": "windows-1252",
    "latin1": "windows-1252",
    "iso-8859-1": "windows-1252",
    "iso8859-1": "windows-1252",
    "us-ascii": "utf-8",
    "ascii": "utf-8",
    "utf8": "utf-8",
    "utf-8": "utf-8-sig",
}


_HR = re.compile(r"<hr\b[^>]*>", re.IGNORECASE)
_BOUNDARY_LINE = re.compile(r"^--([^\s\"]{1,70}?)(?:--)?[ \t]*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Attachment:
    """A part pbm does not read: its declared name (if any), type and decoded size."""

    filename: str | None
    content_type: str
    size: int


@dataclass(frozen=True, slots=True)
class BodyText:
    """The readable text of a message and what was done to get it."""

    text: str
    attachments: tuple[Attachment, ...]
    notes: tuple[str, ...]
    problems: tuple[str, ...]


def decode_bytes(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """Decode ``data`` in its declared ``charset``; return the text and a problem, if any.

    Unknown or wrong charsets fall back to UTF-8, then windows-1252, never raising.
    """
    label = (charset or "us-ascii").strip().strip('"').lower()
    label = _CHARSET_ALIASES.get(label, label)
    problem = None
    try:
        codecs.lookup(label)
    except LookupError:
        problem = f"unknown charset {charset!r}; decoded as UTF-8"
        label = "utf-8-sig"
    for attempt in (label, "utf-8-sig"):
        try:
            return data.decode(attempt).lstrip("\ufeff"), problem
        except UnicodeDecodeError:
            continue
    problem = problem or f"text was not valid {charset or 'ASCII'}; decoded as windows-1252"
    return data.decode("windows-1252", errors="replace").lstrip("\ufeff"), problem


def html_to_text(html: str) -> str:
    """Render HTML as plain text; blockquotes become ``>``-quoted lines so quotes strip alike."""
    config = ParserConfig(annotation_rules={"blockquote": ["quote"]})
    # Outlook puts its reply header block right under an <hr>; keep the rule as a text rule.
    html = _HR.sub("<p>" + "_" * 32 + "</p>", html)
    result = get_annotated_text(html, config)
    text: str = result["text"]
    spans: list[tuple[int, int, str]] = result["label"]
    lines = []
    offset = 0
    for line in text.split("\n"):
        depth = sum(1 for start, end, _ in spans if start <= offset < end)
        # inscriptis indents nested blocks; indentation carries nothing pbm reads.
        lines.append(("> " * depth + line.strip()).rstrip())
        offset += len(line) + 1
    return "\n".join(lines).strip("\n")


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _filename(part: Message) -> str | None:
    try:
        raw = part.get_filename()
    except Exception:  # malformed RFC 2231 parameters
        return None
    return (decoded(raw) or None) if raw else None


def _is_attachment(part: Message, maintype: str) -> bool:
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    # a text part's file name does not make it an attachment: not read for one
    return disposition == "attachment" or (maintype != "text" and _filename(part) is not None)


class _Walker:
    def __init__(self) -> None:
        self.attachments: list[Attachment] = []
        self.problems: list[str] = []
        self.html_used = False
        self.depth = 0

    def texts(self, part: Message) -> list[str]:
        """The readable texts under ``part``, in order (alternatives collapsed to one)."""
        # the Content-Type read once: each of the package's getters parses the header again
        maintype, _, subtype = part.get_content_type().partition("/")
        if maintype == "message":
            self._attach(part)  # a forwarded or returned message: not the sender's words
            return []
        if part.is_multipart():
            children = [c for c in part.get_payload() if isinstance(c, Message)]
            if subtype == "alternative":
                return self._alternative(children)
            if subtype == "related" and children:
                children = children[:1]  # the rest are inline images and the like
            if subtype == "report" and children:
                # A DSN's first part is its human-readable explanation; the rest is data.
                for child in children[1:]:
                    self._attach(child)
                children = children[:1]
            return [t for child in children for t in self.texts(child)]
        if maintype == "multipart":
            return self._broken_multipart(part)
        text_type = maintype == "text" and subtype in ("plain", "html")
        if text_type and not _is_attachment(part, maintype):
            text = self._decode(part, subtype)
            if subtype == "html":
                self.html_used = True
                text = html_to_text(text)
            return [text] if text.strip() else []
        self._attach(part)
        return []

    def _broken_multipart(self, part: Message) -> list[str]:
        """A multipart whose boundary never appears: guess the boundary, else read it as text."""
        payload = part.get_payload()
        text = payload if isinstance(payload, str) else ""
        match = _BOUNDARY_LINE.search(text)
        if match and self.depth < 3:
            self.problems.append("the MIME boundary was wrong; guessed it from the body")
            guess = email.message_from_string(
                f'Content-Type: multipart/mixed; boundary="{match.group(1)}"\n\n{text}',
                policy=policy.compat32,
            )
            self.depth += 1
            return self.texts(guess)
        self.problems.append("a multipart part had no parts; read as plain text")
        return [_normalise_newlines(text)] if text.strip() else []

    def _alternative(self, children: list[Message]) -> list[str]:
        plain = [c for c in children if c.get_content_type() == "text/plain"]
        if plain and (texts := self.texts(plain[0])):
            return texts
        for child in reversed(children):  # richest last, per RFC 2046
            if child.is_multipart() or child.get_content_type() == "text/html":
                return self.texts(child)
        return self.texts(children[0]) if children else []

    def _decode(self, part: Message, subtype: str) -> str:
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        text, problem = decode_bytes(data, part.get_content_charset())
        if problem:
            self.problems.append(problem)
        text = _normalise_newlines(text)
        if subtype == "plain" and part.get_param("format") == "flowed":
            delsp = str(part.get_param("delsp") or "").lower() == "yes"
            text = unflow(text, delsp=delsp)
        return text

    def _attach(self, part: Message) -> None:
        size = 0
        if not part.is_multipart():
            payload = part.get_payload(decode=True)
            size = len(payload) if isinstance(payload, bytes) else 0
        self.attachments.append(Attachment(_filename(part), part.get_content_type(), size))


def extract_text(msg: Message) -> BodyText:
    """The text to read from ``msg``, plus attachments ignored, notes and problems."""
    walker = _Walker()
    texts = walker.texts(msg)
    notes = []
    if walker.html_used:
        notes.append("HTML-only mail converted to text")
    if walker.attachments:
        n = len(walker.attachments)
        notes.append(f"{n} attachment{'s' if n != 1 else ''} ignored")
    text = "\n\n".join(t.rstrip("\n") for t in texts)
    return BodyText(text, tuple(walker.attachments), tuple(notes), tuple(walker.problems))
