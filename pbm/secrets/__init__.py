"""Players' and the GM's secrets, in one place: made and hashed (:class:`SecretBox`), shown
only at the moment of sending (placeholders), scrubbed from everything stored (the column
types) and logged (the same scrubber), and the one thing pbm must read again sealed
(:class:`Sealer`).

The modules behind this API: ``shapes`` (the alphabet, the secret shape, the placeholder),
``scrub`` (the scrubber), ``columns`` (the scrubbing column types), ``seats`` (derive, hash,
verify, fill), ``at_rest`` (sealing), ``rotation`` (re-sealing after a key change).
"""

from __future__ import annotations

from pbm.secrets.at_rest import Sealer
from pbm.secrets.columns import ScrubbedBytes, ScrubbedText, known_secrets
from pbm.secrets.scrub import redact, scrub_bytes, scrub_message, scrub_text
from pbm.secrets.seats import (
    HashLookup,
    SecretBox,
    has_placeholder,
    normalise_secret,
)
from pbm.secrets.shapes import (
    ALPHABET,
    PLACEHOLDER,
    REDACTED,
    SECRET_BITS,
    SECRET_SHAPE,
    secret_placeholder,
    ticket_placeholder,
)

__all__ = [
    "ALPHABET",
    "PLACEHOLDER",
    "REDACTED",
    "SECRET_BITS",
    "SECRET_SHAPE",
    "HashLookup",
    "ScrubbedBytes",
    "ScrubbedText",
    "Sealer",
    "SecretBox",
    "has_placeholder",
    "known_secrets",
    "normalise_secret",
    "redact",
    "scrub_bytes",
    "scrub_message",
    "scrub_text",
    "secret_placeholder",
    "ticket_placeholder",
]
