"""UTF-8 encoded-words (RFC 2047) for the headers pbm writes, split into lines in linear time.

The email package splits a header's text into encoded-words by encoding the line so far again
after every character it adds (``Charset.header_encode_lines``): quadratic in the header's
length, which made it the largest single cost of answering a JOIN (for a Subject of one
line with one accent). :data:`UTF8` makes the same split, character by
character against the same limits, but keeps the running length instead of recounting it, so
``Header(text, UTF8)`` writes byte for byte what ``Header(text, "utf-8")`` writes
(``tests/pbm/mail/test_encoded_words.py`` holds the two together).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from email import base64mime, quoprimime
from email.charset import RFC2047_CHROME_LEN, SHORTEST, Charset

__all__ = ["UTF8"]


class _LinearUtf8(Charset):
    """The package's ``utf-8`` charset, with :meth:`header_encode_lines` kept linear."""

    def __init__(self) -> None:
        super().__init__("utf-8")
        # The split below is written for "the shorter of B and Q", which is utf-8's choice.
        assert self.header_encoding == SHORTEST

    def header_encode_lines(self, string: str, maxlengths: Iterator[int]) -> list[str | None]:
        codec = "utf-8"
        whole = string.encode(codec)
        b64 = base64mime.header_length(whole) < quoprimime.header_length(whole)
        encode: Callable[[bytes], str] = functools.partial(
            (base64mime if b64 else quoprimime).header_encode, charset=codec
        )
        extra = len(codec) + RFC2047_CHROME_LEN
        lines: list[str | None] = []
        start = octets = quoted = 0  # where this line starts, its UTF-8 length, its Q length
        maxlen = next(maxlengths) - extra
        for i, character in enumerate(string):
            encoded = character.encode(codec)
            more = len(encoded) if b64 else quoprimime.header_length(encoded)
            length = -(-(octets + len(encoded)) // 3) * 4 if b64 else quoted + more
            if length > maxlen:
                # The package's own rule: the character that does not fit starts the next line,
                # and None stands for a first line that holds nothing.
                lines.append(
                    None if not lines and i == start else encode(string[start:i].encode(codec))
                )
                start, octets, quoted = i, len(encoded), more
                maxlen = next(maxlengths) - extra
            else:
                octets += len(encoded)
                quoted += more
        lines.append(encode(string[start:].encode(codec)))
        return lines


#: Pass as ``Header(text, UTF8)`` wherever ``Header(text, "utf-8")`` was meant.
UTF8: Charset = _LinearUtf8()
