"""Every sample mail is understood and routed as the tree before the stage was made faster
understood it (issue 28, H5): the golden ``tests/data/understood.json`` holds each sample's
bytes and what ``understand`` and ``dispatch.route`` made of them then, field by field
(``understood_record.py`` writes it)."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pbm.mail.parse import normalise_message_id
from tests.pbm.mail.understood_record import record, samples

GOLDEN = Path(__file__).parents[2] / "data" / "understood.json"
ROWS: list[dict[str, Any]] = json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_a_sample_mail_is_understood_as_before(row: dict[str, Any]) -> None:
    """The sample's kind, reason, refusal, parse (sender, recipients, subject, body, notes,
    problems, bounce), MIME type, flows' view and decision are those recorded."""
    raw = base64.b64decode(row["raw"])
    assert record(raw, row["envelope_from"], row["envelope_to"]) == row["expected"]


def test_the_golden_holds_every_sample() -> None:
    """No sample was added without its recorded reading (the golden is not stale)."""
    assert [r["name"] for r in ROWS] == [name for name, *_ in samples()]


def test_an_id_with_any_space_or_control_character_is_no_id() -> None:
    """Every code point ``str.isspace`` calls space, and every one below 33, makes a
    Message-ID absent, as the check character by character did; any other is kept."""
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        if 0xD800 <= code <= 0xDFFF:
            continue
        refused = c.isspace() or code < 33
        assert (normalise_message_id(f"<a{c}b@example.test>") is None) is refused, hex(code)
