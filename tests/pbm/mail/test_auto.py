"""Automatic-mail detection (never answer it) and bounce parsing."""

from __future__ import annotations

import email
from email import policy

import pytest

from pbm.mail.auto import base_address, find_bounce, is_automatic

OURS = ("pbm@example.org",)


def _msg(headers: str, body: str = "hello\n") -> email.message.Message:
    raw = f"From: bob@example.com\nTo: pbm@example.org\nSubject: hi\n{headers}\n{body}"
    return email.message_from_string(raw, policy=policy.default)


# (extra headers, expected reason or None)
ROWS = [
    ("", None),
    ("Auto-Submitted: no\n", None),
    ("Auto-Submitted: auto-replied\n", "Auto-Submitted: auto-replied"),
    ("Auto-Submitted: Auto-Generated; owner-email=x@y\n", "Auto-Submitted: auto-generated"),
    ("Precedence: bulk\n", "Precedence: bulk"),
    ("Precedence: junk\n", "Precedence: junk"),
    ("Precedence: list\n", "Precedence: list"),
    ("Precedence: first-class\n", None),
    ("X-Autoreply: yes\n", "X-Autoreply header"),
    ("X-Autorespond: yes\n", "X-Autorespond header"),
    ("List-Id: <chat.lists.example.com>\n", "mailing list (List-Id)"),
    ("List-Unsubscribe: <mailto:leave@lists.example.com>\n", "mailing list (List-Unsubscribe)"),
    ("Return-Path: <>\n", "empty Return-Path (a bounce or notification)"),
    ("Return-Path: <bob@example.com>\n", None),
    ("Sender: MAILER-DAEMON@mx.example.com\n", "system sender mailer-daemon@mx.example.com"),
    ("X-Loop: pbm@example.org\n", "X-Loop names pbm"),
]


@pytest.mark.parametrize(("headers", "expected"), ROWS)
def test_is_automatic_headers(headers: str, expected: str | None) -> None:
    """Each loop-prevention header gives its reason; ordinary mail gives None."""
    assert is_automatic(_msg(headers), OURS) == expected


@pytest.mark.parametrize(
    ("sender", "expected"),
    [
        ("MAILER-DAEMON@mx.example.com", "system sender mailer-daemon@mx.example.com"),
        ("postmaster@example.com", "system sender postmaster@example.com"),
        ("No-Reply <noreply@shop.example>", "system sender noreply@shop.example"),
        ("do-not-reply@bank.example", "system sender do-not-reply@bank.example"),
        ("Cosmic <pbm@example.org>", "sent by pbm itself (pbm@example.org)"),
        ("pbm+ccc@Example.org", "sent by pbm itself (pbm+ccc@example.org)"),
        ("Bob <bob@example.com>", None),
        ("replyall@example.com", None),
    ],
)
def test_is_automatic_senders(sender: str, expected: str | None) -> None:
    """System senders and pbm's own addresses (with any +tag) are automatic."""
    raw = f"From: {sender}\nTo: pbm@example.org\nSubject: hi\n\nhello\n"
    assert is_automatic(email.message_from_string(raw, policy=policy.default), OURS) == expected


@pytest.mark.parametrize(
    ("subject", "automatic"),
    [
        ("Automatic reply: [CCC] Round 3", True),
        ("Out of Office: [CCC] Round 3", True),
        ("Auto-Reply: away", True),
        ("Re: [CCC] Out of office XI", False),
        ("TEAM Auto Reply Rovers", False),
    ],
)
def test_is_automatic_subjects(subject: str, automatic: bool) -> None:
    """Vacation subjects that lack headers are caught by their prefix, and only by it."""
    raw = f"From: bob@example.com\nSubject: {subject}\n\nhello\n"
    msg = email.message_from_string(raw, policy=policy.default)
    assert (is_automatic(msg, OURS) is not None) is automatic


def test_base_address() -> None:
    """The base address drops the +tag and case."""
    assert base_address("PBM+Ccc@Example.ORG") == "pbm@example.org"
    assert base_address("nodomain") == "nodomain"


def test_plain_mail_is_not_a_bounce() -> None:
    """An ordinary mail has no bounce."""
    assert find_bounce(_msg("")) is None


def test_temporary_failure_is_not_permanent() -> None:
    """A DSN with Action: delayed reports a temporary failure."""
    raw = (
        "From: MAILER-DAEMON@mx.example.org\nTo: pbm@example.org\nSubject: Delayed Mail\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n'
        "--b\nContent-Type: text/plain\n\nStill trying.\n"
        "--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\n"
        "Final-Recipient: rfc822; slow@example.com\nAction: delayed\nStatus: 4.4.1\n"
        "--b--\n"
    )
    bounce = find_bounce(email.message_from_string(raw, policy=policy.default))
    assert bounce is not None
    assert bounce.addresses == ("slow@example.com",)
    assert not bounce.permanent
