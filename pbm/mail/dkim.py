"""pbm's own DKIM signature (RFC 6376) on outbound mail, with dkimpy.

Used when ``[smtp] dkim_key`` is set (otherwise the relay signs, or nobody does; see
docs/ops/mail-domain.md). The signature is made at the last moment, in the sender, over the
bytes that go out: the outbox fills secrets into a message just before it is sent, so a
signature made when the mail was queued would no longer match. Canonicalisation is
``relaxed/relaxed``, which survives the re-folding and line-ending changes of relays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import dkim

from pbm.core.errors import ConfigError, SmtpError
from pbm.mail.compose import SAFE_POLICY
from pbm.mail.ports import Envelope, Sender
from pbm.mail.wire import crlf, outgoing

__all__ = ["SIGNED_HEADERS", "DkimSigner", "SigningSender"]

#: The headers signed when present. ``From`` is listed twice: oversigned, so no second From
#: can be added to a signed message without breaking the signature.
SIGNED_HEADERS = (
    "From",
    "From",
    "To",
    "Cc",
    "Subject",
    "Date",
    "Message-ID",
    "In-Reply-To",
    "References",
    "Reply-To",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
    "Auto-Submitted",
    "List-Id",
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
)
_CRLF = SAFE_POLICY.clone(linesep="\r\n")


@dataclass(frozen=True, slots=True)
class DkimSigner:
    """Signs as ``selector._domainkey.domain`` with a PEM private key (RSA or Ed25519)."""

    selector: str
    domain: str
    key: bytes = field(repr=False)

    @classmethod
    def load(cls, path: Path, selector: str, domain: str) -> DkimSigner:
        """The signer for the key at ``path``; ``ConfigError`` if it cannot sign (unreadable,
        not a private key), found at start-up rather than at the first send."""
        try:
            key = path.read_bytes()
        except OSError as exc:
            raise ConfigError("smtp.dkim_key", f"cannot read {path}: {exc.strerror}") from exc
        signer = cls(selector, domain, key)
        probe = EmailMessage()
        probe["From"] = f"pbm@{domain}"
        probe.set_content("probe\n")
        try:
            signer.signature(probe.as_bytes())
        except Exception as exc:
            raise ConfigError("smtp.dkim_key", f"{path} cannot sign: {exc}") from exc
        return signer

    def signature(self, raw: bytes) -> bytes:
        """The ``DKIM-Signature:`` header line(s), CRLF-ended, for the message ``raw``."""
        head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0].lower()
        present = [h for h in SIGNED_HEADERS if f"\n{h.lower()}:".encode() in b"\n" + head]
        sig: bytes = dkim.sign(
            raw,
            self.selector.encode("ascii"),
            self.domain.encode("ascii"),
            self.key,
            canonicalize=(b"relaxed", b"relaxed"),
            include_headers=[h.encode("ascii") for h in present],
        )
        return sig

    def sign(self, message: EmailMessage) -> EmailMessage:
        """``message`` with its DKIM-Signature on top. The bytes signed are those the sender
        writes (SAFE_POLICY keeps every header as it is; only line ends become CRLF)."""
        out = BytesParser(policy=SAFE_POLICY).parsebytes(
            self.sign_bytes(message.as_bytes(policy=_CRLF))
        )
        assert isinstance(out, EmailMessage)
        return out

    def sign_bytes(self, raw: bytes) -> bytes:
        """CRLF-ended ``raw`` with its DKIM-Signature on top."""
        try:
            return self.signature(raw) + raw
        except Exception as exc:  # dkimpy's errors: a message pbm made that it cannot sign
            raise SmtpError(f"DKIM: cannot sign the message: {exc}", transient=False) from exc


class SigningSender:
    """A :class:`~pbm.mail.ports.Sender` that DKIM-signs each message, then hands it on."""

    def __init__(self, inner: Sender, signer: DkimSigner) -> None:
        self.inner = inner
        self.signer = signer

    def __repr__(self) -> str:
        return f"SigningSender({self.inner!r}, {self.signer!r})"

    def send(self, message: EmailMessage, envelope: Envelope | None = None) -> None:
        """Sign ``message`` and send it through the inner sender."""
        self.inner.send(self.signer.sign(message), envelope)

    def send_bytes(self, raw: bytes, envelope: Envelope) -> None:
        """Sign the bytes that go out (:func:`pbm.mail.wire.outgoing`, CRLF-ended) and send
        them through the inner sender."""
        self.inner.send_bytes(self.signer.sign_bytes(crlf(outgoing(raw))), envelope)

    def connect(self) -> None:
        """Connect the inner sender now, if it connects."""
        connect = getattr(self.inner, "connect", None)
        if callable(connect):
            connect()

    def close(self) -> None:
        """Close the inner sender, if it closes."""
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
