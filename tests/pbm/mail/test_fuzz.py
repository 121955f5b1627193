"""parse_message never raises, whatever bytes arrive."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.mail.parse import InboundEmail, parse_message

CORPUS = [
    p.read_bytes() for p in sorted((Path(__file__).parents[2] / "data" / "eml").glob("*.eml"))
]


def _check(raw: bytes) -> None:
    mail = parse_message(raw, own_addresses=("pbm@example.org",))
    assert isinstance(mail, InboundEmail)
    assert mail.key
    assert "\r" not in mail.subject and "\n" not in mail.subject
    assert not any(p.startswith("internal error") for p in mail.problems), mail.problems
    texts = [mail.body, mail.full_text, mail.subject, mail.from_name, *mail.notes, *mail.problems]
    assert not any("\x00" in t or "\r" in t for t in texts)


@given(st.binary(max_size=4000))
def test_random_bytes(raw: bytes) -> None:
    """Arbitrary bytes give an InboundEmail with a key, never an exception."""
    _check(raw)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(CORPUS)))
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "delete"]))
        pos = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[pos] = draw(st.integers(0, 255))
        elif op == "cut":
            del data[pos:]
        elif op == "insert":
            data[pos:pos] = draw(
                st.sampled_from(
                    [b"\r\n", b"\n--", b"=?utf-8?b?", b"=\n", b"\x00", b"<", b">", b"\xff"]
                )
                | st.binary(max_size=20)
            )
        elif op == "delete":
            del data[pos : pos + draw(st.integers(1, 50))]
    return bytes(data)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_golden_files(raw: bytes) -> None:
    """Golden mails with bytes flipped, cut, inserted or deleted still parse without raising."""
    _check(raw)


HEADER_VALUE = st.text(max_size=80) | st.sampled_from(
    ["=?x-unknown?q?abc?=", "=?utf-8?b?!!!?=", "<<>>", '"unterminated', "a@b@c", "(((", "\udcff"]
)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "From",
                    "To",
                    "Cc",
                    "Subject",
                    "Date",
                    "Message-ID",
                    "References",
                    "Content-Type",
                    "Content-Transfer-Encoding",
                    "Reply-To",
                    "Auto-Submitted",
                    "Return-Path",
                ]
            ),
            HEADER_VALUE,
        ),
        max_size=8,
    ),
    st.text(max_size=300),
)
def test_hostile_headers(headers: list[tuple[str, str]], body: str) -> None:
    """Garbage in any header (charsets, encodings, addresses, dates, ids) never raises."""
    head = "".join(f"{name}: {value}\n" for name, value in headers)
    _check((head + "\n" + body).encode("utf-8", "surrogateescape"))


def test_internal_error_still_gives_an_answerable_mail(monkeypatch: pytest.MonkeyPatch) -> None:
    """If pbm's own reading fails, the sender and text are still recovered crudely."""
    import pbm.mail.parse as parse_module

    def broken(text: str) -> object:
        raise RuntimeError("bug")

    monkeypatch.setattr(parse_module, "strip_quotes", broken)
    mail = parse_message(b"From: Bob <Bob@Example.com>\nSubject: x\n\nJOIN\n")
    assert mail.from_addr == "bob@example.com"
    assert mail.body == "JOIN\n"
    assert mail.problems == ("internal error while reading: RuntimeError",)
