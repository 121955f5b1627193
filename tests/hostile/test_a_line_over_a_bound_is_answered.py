"""A line over one of the reader's bounds is answered, never passed over in silence: through
the real doors, the reply names its line and why it was not read, and the rest is read."""

from __future__ import annotations

import quopri

from tests.hostile.conftest import Doors, eml
from tests.hostile.test_doors import join


def test_lines_over_the_readers_bounds_are_named_in_the_reply(doors: Doors, demo: str) -> None:
    """A line too long, a line with a run of blanks and a line with an order among too many
    unknown words each get their line's number and the reason in the answer; the toss on the
    line between them is read."""
    secret = join(doors)
    unknown = " ".join(f"zorp{chr(97 + i)}" for i in range(20))
    body = (
        f"SECRET {secret}\n"
        + "Root aggressive " * 160
        + "\ntoss: bat\n"
        + "Root"
        + " " * 60
        + "ag\n"
        + f"Root bats aggressive {unknown}\n"
    )
    # a long line comes as a mail app sends it: quoted-printable (SMTP's lines stop at 998)
    coded = quopri.encodestring(body.encode())
    code, _ = doors.smtp(eml(coded, subject="[DEMO] orders", cte="quoted-printable"))
    assert code == 250
    [reply] = doors.run()
    words = " ".join(reply.text.split())  # the answer is wrapped to fit a phone
    assert "line 2, column 1: this line is too long (2560 characters; at most 2000)" in words
    assert "line 4, column 1: this line has 60 blanks in a row" in words
    assert "line 5, column 1: this line has too many words pbm does not know (" in words
    assert words.count("so it was not read") == 3
    assert "What your mail changed, as pbm read it: toss: bat" in words
