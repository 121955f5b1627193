"""The built-in SMTP listener: 250 only after storing, 550/552/451 when it must refuse."""

from __future__ import annotations

import logging
import smtplib
import threading
from collections.abc import Callable, Iterator

import pytest

from pbm.core.errors import MailError
from pbm.mail.listener import SmtpListener

pytestmark = pytest.mark.services

RAW = (
    b"From: player1@example.test\r\n"
    b"To: pbm+CCC1@example.test\r\n"
    b"Subject: Join\r\n"
    b"Message-ID: <join-1@example.test>\r\n"
    b"\r\n"
    b"JOIN\r\n"
    b".a line that starts with a dot\r\n"
    b"caf\xc3\xa9 in 8 bits\r\n"
)

Stored = list[tuple[bytes, str, list[str]]]


class Store:
    """A store callback that records calls; can be made to block or to fail."""

    def __init__(self) -> None:
        self.calls: Stored = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self.release.set()
        self.fail = False

    def __call__(self, raw: bytes, mail_from: str, rcpt_tos: list[str]) -> None:
        self.entered.set()
        self.release.wait(10)
        if self.fail:
            raise RuntimeError("database is locked")
        self.calls.append((raw, mail_from, rcpt_tos))


Make = Callable[..., tuple[SmtpListener, Store]]


@pytest.fixture
def listen() -> Iterator[Make]:
    """Start listeners on free ports for pbm@example.test and the domain games.test."""
    started: list[SmtpListener] = []

    def make(**kw: object) -> tuple[SmtpListener, Store]:
        store = Store()
        args: dict[str, object] = {"accept": ["pbm@example.test", "@games.test"]}
        args.update(kw)
        listener = SmtpListener("127.0.0.1", 0, store, **args)  # type: ignore[arg-type]
        listener.start()
        started.append(listener)
        return listener, store

    yield make
    for listener in started:
        listener.stop()


def client(listener: SmtpListener) -> smtplib.SMTP:
    return smtplib.SMTP(listener.host, listener.port, timeout=10)


def test_stores_exactly_the_bytes_sent(listen: Make) -> None:
    """store gets the exact message bytes (dot-unstuffed, 8-bit intact) and the envelope."""
    listener, store = listen()
    with client(listener) as c:
        c.sendmail("player1@example.test", ["pbm+CCC1@example.test"], RAW)
    assert store.calls == [(RAW, "player1@example.test", ["pbm+CCC1@example.test"])]


def test_answers_250_only_after_store_returned(listen: Make) -> None:
    """While store is still running the client gets no answer; afterwards it gets 250."""
    listener, store = listen()
    store.release.clear()
    result: list[object] = []

    def send() -> None:
        with client(listener) as c:
            result.append(c.sendmail("player1@example.test", ["pbm@example.test"], RAW))

    t = threading.Thread(target=send)
    t.start()
    assert store.entered.wait(10)
    t.join(0.5)
    assert t.is_alive() and result == [] and store.calls == []
    store.release.set()
    t.join(10)
    assert result == [{}]  # {} = no recipient refused, i.e. 250 for the message
    assert len(store.calls) == 1


def test_store_failure_answers_451(listen: Make) -> None:
    """If storing fails the client gets 451 (try again later), so the mail is not lost."""
    listener, store = listen()
    store.fail = True
    with client(listener) as c, pytest.raises(smtplib.SMTPDataError) as info:
        c.sendmail("player1@example.test", ["pbm@example.test"], RAW)
    assert info.value.smtp_code == 451


def test_unknown_recipient_gets_550(listen: Make) -> None:
    """A recipient that is not ours is refused with 550 and nothing is stored."""
    listener, store = listen()
    with client(listener) as c, pytest.raises(smtplib.SMTPRecipientsRefused) as info:
        c.sendmail("player1@example.test", ["someone@elsewhere.test"], RAW)
    assert info.value.recipients["someone@elsewhere.test"][0] == 550
    assert store.calls == []


def test_only_accepted_recipients_reach_store(listen: Make) -> None:
    """With a mix of recipients, store sees only ours (any address at an accepted domain)."""
    listener, store = listen()
    with client(listener) as c:
        refused = c.sendmail(
            "player1@example.test",
            ["other@example.test", "PBM+X1@Example.Test", "gm@games.test"],
            RAW,
        )
    assert set(refused) == {"other@example.test"}
    assert store.calls[0][2] == ["PBM+X1@Example.Test", "gm@games.test"]


def test_over_size_limit_gets_552_at_mail_from(listen: Make) -> None:
    """A client announcing SIZE over the limit is refused with 552 before sending data."""
    listener, store = listen(max_size=1000)
    with client(listener) as c, pytest.raises(smtplib.SMTPSenderRefused) as info:
        c.sendmail("player1@example.test", ["pbm@example.test"], (RAW + b"x" * 70 + b"\r\n") * 30)
    assert info.value.smtp_code == 552
    assert store.calls == []


def test_over_size_limit_gets_552_after_data(listen: Make) -> None:
    """A client that does not announce SIZE is refused with 552 after DATA; nothing stored."""
    listener, store = listen(max_size=1000)
    with client(listener) as c:
        c.ehlo()
        assert c.mail("player1@example.test")[0] == 250
        assert c.rcpt("pbm@example.test")[0] == 250
        code, _ = c.data((RAW + b"x" * 70 + b"\r\n") * 30)
    assert code == 552
    assert store.calls == []


def test_predicate_accept_policy(listen: Make) -> None:
    """accept can be a predicate over the recipient address."""
    listener, store = listen(accept=lambda a: a.endswith("@local.test"))
    with client(listener) as c:
        c.sendmail("player1@example.test", ["anything@local.test"], RAW)
    assert len(store.calls) == 1


def test_busy_port_is_a_mail_error(listen: Make) -> None:
    """Starting on a port already taken raises MailError, not an OSError."""
    first, _ = listen()
    second = SmtpListener("127.0.0.1", first.port, lambda *a: None, accept=["x@y.test"])
    with pytest.raises(MailError):
        second.start()
    assert not second.running


def test_stop_closes_the_port(listen: Make) -> None:
    """A stopped listener refuses connections; stop() twice is harmless."""
    listener, _ = listen()
    listener.stop()
    listener.stop()
    assert not listener.running
    with pytest.raises(OSError):
        smtplib.SMTP(listener.host, listener.port, timeout=2)


def test_sessions_are_logged(listen: Make, caplog: pytest.LogCaptureFixture) -> None:
    """Each session is logged: its start (peer, EHLO name), refusals and the stored message."""
    listener, _ = listen()
    with caplog.at_level(logging.INFO, logger="pbm.mail.listener"), client(listener) as c:
        c.ehlo("mta.example.test")
        c.sendmail("player1@example.test", ["pbm@example.test", "x@elsewhere.test"], RAW)
    text = caplog.text
    assert "EHLO mta.example.test" in text
    assert "refused recipient x@elsewhere.test" in text
    assert f"stored {len(RAW)} bytes from <player1@example.test>" in text
