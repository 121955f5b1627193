"""Reply subjects keep the competition's tag and do not grow with each reply (issue 10)."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_a_test_by_post_reply_names_one_topic() -> None:
    """A seat answering an over gets back the over's own subject, once: no earlier subject
    of pbm's in front of it and no second tag."""
    theirs = "Re: [H6 G72AAY] Test by Post: over 1, window 1"
    ours = "[H6 G72AAY] Test by Post: over 1 sealed"
    assert threaded_subject(theirs, ours, None) == "Re: [H6 G72AAY] Test by Post: over 1 sealed"
    again = threaded_subject(f"RE: {theirs} — {ours}", ours, None)
    assert again == "Re: [H6 G72AAY] Test by Post: over 1 sealed"


def test_a_solo_deal_reply_keeps_the_players_topic_and_drops_pbms() -> None:
    """A solo Hit for Six answer to "Re: <pbm's deal subject>" is pbm's new subject alone."""
    theirs = "Re: Hit for Six: t20i, window 1"
    assert threaded_subject(theirs, "Hit for Six: t20i, your XI grades 87", None) == (
        "Re: Hit for Six: t20i, your XI grades 87"
    )


#: Subjects as pbm writes them, of both games: statuses after a player's topic, and topics
#: of their own under their own tag.
OURS = [
    "Orders received (version 2)",
    "Orders NOT accepted: 2 error(s)",
    "Squad names received (version 1)",
    "Not understood",
    "How to play by mail",
    "Hit for Six: t20i, window 2",
    "Hit for Six: odi, your XI grades 91",
    "The Averages: Dev, 88 on the t20i Daily XI of 2026-12-04",
    "[DEMO] Status of Rovers",
    "[DEMO] The rules of Cosmic Celebrity Cricket",
    "[H6 G72AAY] Test by Post: over 1, window 1",
    "[H6 G72AAY] Test by Post: over 1 sealed",
    "[H6 G72AAY] Test by Post: over 2 — seat 1 wins it",
]
_PREFIXES = ["Re: ", "RE: ", "Re:", "AW: ", "Fwd: ", "SV: ", "Re[2]: ", "[DEMO] ", "[demo] ",
             "[XYZ] ", "[H6 G72AAY] "]  # fmt: skip
_words = st.text(alphabet="abcdefgh orsOR-—:", min_size=0, max_size=20)
_theirs = st.builds(
    lambda pre, words, tail: "".join(pre) + words + tail,
    st.lists(st.sampled_from(_PREFIXES), max_size=4),
    _words,
    st.sampled_from(["", *(f" — {o}" for o in OURS)]),
)


@settings(max_examples=200)
@given(
    theirs=_theirs,
    replies=st.lists(
        st.tuples(st.sampled_from(OURS), st.sampled_from(_PREFIXES[:7])), min_size=1, max_size=6
    ),
    tag=st.sampled_from([None, "DEMO"]),
)
def test_replying_to_replies_never_grows_the_subject(
    theirs: str, replies: list[tuple[str, str]], tag: str | None
) -> None:
    """However often a player replies to pbm's reply (whatever the client puts in front),
    the subject has one "Re:" and each tag once, a reply to it with the same answer is the
    same subject, and it stays within one topic and one status however many replies come:
    nothing piles up."""
    longest = max(len(o) for o in OURS)
    bound = len("Re: [H6 G72AAY] ") + max(len(theirs), longest) + len(" — ") + longest
    subject = theirs
    for ours, client in replies:
        subject = threaded_subject(client + subject, ours, tag)
        assert len(subject) <= bound
        assert subject.startswith("Re: ")
        rest = subject[len("Re: ") :]
        assert not re.match(r"(?i)\s*(re|aw|sv|fwd?)\s*(\[\d+\])?\s*:", rest), subject
        for wanted in ("[DEMO]", "[H6 G72AAY]"):
            assert subject.lower().count(wanted.lower()) <= 1, subject
        assert threaded_subject("Re: " + subject, ours, tag) == subject


def test_a_subject_of_a_hundred_thousand_spaces_is_read_at_once() -> None:
    """A hostile subject made of a huge run of spaces between "Re" and its topic (or before
    pbm's separator) is answered at once with the topic alone: no pattern reads such a run
    more than once (it took seconds, growing with the square of the run)."""
    started = time.monotonic()
    for theirs in ("re" + " " * 100_000 + "x", "x" + " " * 100_000 + "y", "Re:" + " " * 100_000):
        got = threaded_subject(theirs, "Orders received", "DEMO")
        assert got.startswith("Re: [DEMO] ") and "  " not in got
    assert time.monotonic() - started < 5
