"""The intake view: any bytes give a key and a view; the key ignores everything but the id."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.inbound.intake import message_key, read_incoming
from pbm.testing import make_eml


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_give_a_key_and_a_view(raw: bytes) -> None:
    """Arbitrary bytes never make the intake raise, and always have a stable key."""
    assert message_key(raw) == message_key(raw)
    view = read_incoming(raw, "pbm@example.test")
    assert isinstance(view.commands, tuple)


@given(st.text(min_size=1, max_size=200))
def test_key_is_the_message_id_whatever_the_body(body: str) -> None:
    """Two messages with the same Message-ID and different bodies share a key."""
    a = make_eml(body, message_id="<same@example.test>")
    b = make_eml(body + "x", message_id="<same@example.test>")
    assert message_key(a) == message_key(b) == "<same@example.test>"


def test_folded_message_id_header() -> None:
    """A Message-ID folded onto a second line is still found."""
    raw = b"From: a@example.test\r\nMessage-ID:\r\n <folded@example.test>\r\n\r\nJOIN\r\n"
    assert message_key(raw) == "<folded@example.test>"


def test_secret_line_is_taken_out_of_the_body() -> None:
    """The SECRET line is removed from the body the flows read, and routing finds the code."""
    view = read_incoming(
        make_eml("SECRET abcd-efgh\nNAME 1 Zippy\n", to="pbm+demo@example.test", subject="x"),
        "pbm@example.test",
    )
    assert view.secret == "abcd-efgh" and "abcd" not in view.body
    assert view.code == "DEMO" and view.commands == ()


def test_command_lines_keep_their_arguments() -> None:
    """Each command line keeps its word, its arguments and its line number."""
    view = read_incoming(
        make_eml("hello\nSCOUT  Gunge Giants \n", to="pbm+demo@example.test", subject="x"),
        "pbm@example.test",
        words=("SCOUT", "JOIN"),
    )
    [line] = view.commands
    assert (line.line_no, line.word, line.rest) == (2, "SCOUT", "Gunge Giants")
