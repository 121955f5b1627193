"""Reply subjects keep the competition's tag and do not grow with each reply (issue 10)."""

from __future__ import annotations

import pytest

from pbm.outbound.replies import tagged_subject, threaded_subject


@pytest.mark.parametrize(
    ("theirs", "expected"),
    [
        ("orders", "Re: [DEMO] orders — Orders received (version 2)"),
        ("[DEMO] orders", "Re: [DEMO] orders — Orders received (version 2)"),
        (
            "Re: [DEMO] orders — Orders received (version 1)",
            "Re: [DEMO] orders — Orders received (version 2)",
        ),
        (
            "Re: Re: [DEMO] orders — Orders received (version 1) — Orders received (version 2)",
            "Re: [DEMO] orders — Orders received (version 2)",
        ),
        ("my orders - round 2", "Re: [DEMO] my orders - round 2 — Orders received (version 2)"),
    ],
)
def test_reply_subject_does_not_grow(theirs: str, expected: str) -> None:
    """An answer to a pbm mail cuts off pbm's earlier status before adding the new one."""
    assert threaded_subject(theirs, "Orders received (version 2)", "DEMO") == expected


def test_a_mail_that_answers_nothing_still_carries_the_tag() -> None:
    """The GM's answer to a flag is tagged, so the player's reply to it is routed."""
    assert tagged_subject("The GM read your sentence", "DEMO") == "[DEMO] The GM read your sentence"
    assert tagged_subject("[DEMO] x", "DEMO") == "[DEMO] x"
