"""Is a message automatic (never answer it), and is it a bounce (and for whom)?

Loops are prevented by never answering automatic mail: RFC 3834 ``Auto-Submitted``, the
de facto ``Precedence`` and ``X-Autoreply`` headers, mailing-list headers, system senders,
the null return path, and mail from pbm's own addresses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from email.message import Message

from flufl.bounce import all_failures

from pbm.mail.headers import addresses, decoded, header_index

__all__ = ["Bounce", "base_address", "find_bounce", "is_automatic"]

_SYSTEM_LOCALS = {
    "mailer-daemon",
    "postmaster",
    "noreply",
    "no-reply",
    "no_reply",
    "donotreply",
    "do-not-reply",
    "do_not_reply",
}
_AUTO_SUBJECT = re.compile(
    r"^\s*(?:automatic reply|auto-?reply|autoreply|out of (?:the )?office(?: reply)?"
    r"|abwesenheitsnotiz|réponse automatique|respuesta automática)\s*:",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Bounce:
    """A delivery failure report: the original recipients that failed, and whether for good."""

    addresses: tuple[str, ...]
    permanent: bool


def base_address(addr: str) -> str:
    """``addr`` lower-cased with any ``+tag`` removed from its local part."""
    local, at, domain = addr.strip().lower().rpartition("@")
    if not at:
        return domain
    return f"{local.split('+', 1)[0]}@{domain}"


def _first(index: Mapping[str, list[str]], name: str) -> str | None:
    values = index.get(name.lower())
    return values[0] if values else None


def _value(index: Mapping[str, list[str]], name: str) -> str:
    return decoded(_first(index, name)).lower()


def is_automatic(
    msg: Message,
    own_addresses: Iterable[str] = (),
    *,
    headers: Mapping[str, list[str]] | None = None,
    subject: str | None = None,
) -> str | None:
    """Why ``msg`` must not be answered (a short human-readable reason), or None.
    ``headers`` is ``msg``'s :func:`~pbm.mail.headers.header_index` and ``subject`` its
    decoded Subject, when the caller has them already."""
    index = header_index(msg) if headers is None else headers
    auto_submitted = _value(index, "Auto-Submitted").split(";")[0].strip()
    if auto_submitted and auto_submitted != "no":
        return f"Auto-Submitted: {auto_submitted}"
    precedence = _value(index, "Precedence")
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Response"):
        if _first(index, name) is not None:
            return f"{name} header"
    for name in ("List-Id", "List-Unsubscribe", "List-Post"):
        if _first(index, name) is not None:
            return f"mailing list ({name})"
    return_path = _first(index, "Return-Path")
    if return_path is not None and return_path.strip() in ("<>", ""):
        return "empty Return-Path (a bounce or notification)"
    if msg.get_content_type() == "multipart/report":
        return "delivery report"
    own = {base_address(a) for a in own_addresses}
    senders = addresses([v for n in ("From", "Sender") if (v := _first(index, n)) is not None])
    for _, addr in senders:
        local = addr.rpartition("@")[0]
        if local in _SYSTEM_LOCALS:
            return f"system sender {addr}"
        if base_address(addr) in own:
            return f"sent by pbm itself ({addr})"
    loop = _value(index, "X-Loop")
    if loop and any(a in loop for a in own):
        return "X-Loop names pbm"
    if subject is None:
        subject = decoded(_first(index, "Subject"))
    if _AUTO_SUBJECT.match(subject):
        return "subject says it is an automatic reply"
    return None


def _addr_text(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return text.strip().strip("<>").lower()


def find_bounce(msg: Message) -> Bounce | None:
    """The failed recipients a bounce reports (via flufl.bounce), or None if it is not one."""
    try:
        temporary, permanent = all_failures(msg)
    except Exception:
        # flufl.bounce's heuristic detectors assume well-formed reports; a crash means "no".
        return None
    if permanent:
        return Bounce(tuple(sorted({_addr_text(a) for a in permanent})), permanent=True)
    if temporary:
        return Bounce(tuple(sorted({_addr_text(a) for a in temporary})), permanent=False)
    return None
