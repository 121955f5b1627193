"""Strict reading of the address in a From header (RFC 5322 §3.4, with RFC 6532's UTF-8).

pbm keys a player's identity on the From address, so it must read the address the way the
sender's own mail system would, and refuse what it cannot read unambiguously rather than
guess (the tolerant ``email.utils.getaddresses`` reads ``gm@example.test <trick2@evil.test>``
as the GM's address). Accepted forms, after unfolding:

* ``local@domain``, optionally followed by a ``(comment)``;
* ``display name <local@domain>``, where the display name is a phrase of atoms (with the
  obsolete ``.``), quoted strings and RFC 2047 encoded-words; an ``@``, ``<`` or ``>`` outside
  quotes is refused.

The local part is a dot-atom (quoted local parts are refused), the domain a dot-atom of
letters, digits and hyphens (or UTF-8 letters: an internationalised domain); no domain
literals. UTF-8 is allowed (SMTPUTF8) but no control or format character (bidi overrides,
zero-width joiners) anywhere in the address, and no local part that looks like an
encoded-word. The address is returned NFC-normalised and lower-cased, so ``jörg@`` and
``jürg@`` stay two addresses. Written by hand: the stdlib parsers are tolerant by design.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pbm.mail.headers import decoded

__all__ = ["AddressRefused", "Mailbox", "parse_from", "parse_mailbox"]

_U = "\u00a0-\ud7ff\ue000-\U0010ffff"  # UTF8-non-ascii, without surrogates or C1 controls
_ATEXT = rf"[A-Za-z0-9!#$%&'*+\-/=?^_`{{|}}~{_U}]"
_DOT_ATOM = rf"{_ATEXT}++(?:\.{_ATEXT}++)*+"
_LABEL = rf"[A-Za-z0-9{_U}](?:[A-Za-z0-9\-{_U}]*[A-Za-z0-9{_U}])?"
_DOMAIN = rf"{_LABEL}(?:\.{_LABEL})*"
_ADDR = rf"(?P<local>{_DOT_ATOM})@(?P<domain>{_DOMAIN})"
_QUOTED = r'"(?:[^"\\]|\\.)*+"'
_WORD = rf"(?>{_QUOTED}|[.\w!#$%&'*+\-/=?^`{{|}}~{_U}]++)"  # atomic: no backtracking
_PHRASE = rf"{_WORD}(?:[ \t]*+{_WORD})*+"
_COMMENT = r"\((?:[^()\\]|\\.)*\)"
_MAILBOX = re.compile(
    rf"^[ \t]*(?:(?P<name>{_PHRASE})?[ \t]*<{_ADDR}>|{_ADDR.replace('?P<', '?P<b_')}"
    rf"(?:[ \t]*{_COMMENT})?)[ \t]*$"
)
_ENCODED_WORD = re.compile(r"=\?.*\?=")


class AddressRefused(ValueError):
    """The header does not hold exactly one address pbm can read unambiguously."""


@dataclass(frozen=True, slots=True)
class Mailbox:
    """A display name (decoded, for showing only) and the address (NFC, lower case)."""

    name: str
    address: str


def _text(value: str) -> str:
    """The header value as text: 8-bit bytes (kept by the compat32 parser as surrogates)
    must be UTF-8, and the folding is removed."""
    try:
        text = value.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError as exc:
        raise AddressRefused("the address is not valid UTF-8") from exc
    text = re.sub(r"\r?\n(?=[ \t])", "", text)
    if any(c in text for c in "\r\n\x00"):
        raise AddressRefused("the header has a bare line break or NUL")
    return text


def parse_mailbox(value: str) -> Mailbox:
    """The one mailbox in a raw header value; raises :class:`AddressRefused` otherwise."""
    text = _text(value)
    match = _MAILBOX.match(text)
    if match is None:
        raise AddressRefused(f"cannot read one plain address in {text.strip()[:80]!r}")
    local = match.group("local") or match.group("b_local")
    domain = match.group("domain") or match.group("b_domain")
    address = unicodedata.normalize("NFC", f"{local}@{domain}")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Zs", "Co", "Cn") for c in address):
        raise AddressRefused("the address has control, format or space characters")
    if _ENCODED_WORD.search(local):
        raise AddressRefused("the address's local part looks like an encoded-word")
    if len(local.encode()) > 64 or len(address.encode()) > 254:
        raise AddressRefused("the address is too long")
    name = decoded(match.group("name") or "").strip('"') if match.group("name") else ""
    return Mailbox(name=name, address=address.lower())


def parse_from(values: list[str]) -> Mailbox:
    """The sender from every raw ``From`` value: exactly one header with one mailbox."""
    if not values:
        raise AddressRefused("the mail has no From header")
    if len(values) > 1:
        raise AddressRefused("the mail has more than one From header")
    return parse_mailbox(values[0])
