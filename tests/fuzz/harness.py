"""The fuzz harness: seeded random mail through ``Inbound.store`` and ``process`` on SQLite.

Each case is one raw message built from a seed: a generated MIME structure (nested
multiparts, odd charsets and transfer encodings, broken boundaries, missing or doubled or
oversized headers) around a body of order text, GM commands, Hit for Six mail or noise; or a
mutation (bit flips, cuts, spliced headers) of the real-world corpus in ``tests/data/eml``.

The invariants after every case: the door stores it or refuses it with
:class:`~pbm.core.errors.MessageParseError` (blank bytes only); ``process`` returns a final status
(never leaves it ``received``, never raises); a dead letter has its GM alert queued; and
after the batch, one daemon pass runs to the end and sends. :func:`run` returns the counts.
``tests/fuzz/test_fuzz.py`` runs a CI-sized slice; ``bench/fuzz.py`` runs as many as asked.
"""

from __future__ import annotations

import base64
import quopri
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import parse_config
from pbm.core.errors import MessageParseError
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, MailStatus, OutboxMessage
from pbm.db.session import transaction
from pbm.games.flungo.competitions import create_competition
from pbm.testing import RecordingSender

__all__ = ["Report", "make_case", "run"]

CORPUS = sorted((Path(__file__).parents[1] / "data" / "eml").glob("*.eml"))
GM = "gm@example.test"
GM_SECRET = "gm-secret-horse-battery"
WORDS = (  # noqa: SIM905
    "JOIN NAME SECRET TEAM STATUS TABLE RULES HELP FIXTURES SCOUT SQUAD ZONE NEWGAME BAT BOWL "
    "OPEN ATTACK DEFEND CAPTAIN KEEPER TOSS ORDER PLAN DEAL DAILY CHALLENGE H6GAME TEST "
    "AVERAGES DIGEST EXTEND PROCESS HOLD RESUME RERUN ROLLBACK SEAT STANDBY RETIRE RESOLVE DROP "
    "1 2 11 18 99 -1 0 DEMO H6 T20 ODI classic ALL NONE YES NO ; : , . = > ' \" \\ ü ß 漢 🏏"
).split()
CHARSETS = ("utf-8", "latin-1", "us-ascii", "utf-16", "koi8-r", "shift_jis", "x-unknown", "")
SUBJECTS = (
    "[DEMO] orders",
    "[DEMO] join",
    "[DEMO] naming",
    "[DEMO] status",
    "Re: [DEMO] Round 1",
    "help",
    "",
    "[H6] deal",
    "[NOPE] x",
    "=?utf-8?b?W0RFTU9dIG9yZGVycw==?=",
    "=?bogus?q?x?=",
    "Re: Re: Fwd:",
)


@dataclass
class Report:
    """What a run did: cases by outcome, and the invariant breaches (empty when all held)."""

    cases: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    breaches: list[str] = field(default_factory=list)


def _line(rng: random.Random) -> str:
    n = rng.randint(0, 8)
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _body(rng: random.Random) -> str:
    kind = rng.choice(("orders", "gm", "h6", "noise", "naming"))
    lines: list[str] = []
    if kind == "gm":
        lines.append(f"SECRET {GM_SECRET if rng.random() < 0.8 else 'wrong'}")
    elif kind == "naming":
        lines += ["SECRET abc-def-ghi", f"TEAM NAME {_line(rng)}"]
        lines += [f"NAME {i} {_line(rng)}" for i in range(1, rng.randint(1, 20))]
    elif kind == "h6":
        lines.append(rng.choice(("DEAL", "DAILY", "CHALLENGE X1", "TEST OPEN", "AVERAGES H6 x")))
    if kind == "noise":
        alphabet = "".join(chr(rng.randint(1, 0x2FF)) for _ in range(40)) + "\n\r\t "
        lines.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 400))))
    lines += [_line(rng) for _ in range(rng.randint(0, 12))]
    if rng.random() < 0.2:
        lines += ["", "-- ", "> quoted " + _line(rng), "On Mon, someone wrote:"]
    return "\n".join(lines) + rng.choice(("\n", "", "\r\n", "\n\n"))


def _encode(rng: random.Random, text: str) -> tuple[bytes, list[str]]:
    charset = rng.choice(CHARSETS)
    try:
        data = text.encode(charset or "utf-8", errors="replace")
    except LookupError:
        data = text.encode("utf-8")
    cte = rng.choice(("7bit", "8bit", "base64", "quoted-printable", "x-weird", ""))
    if cte == "base64":
        data = base64.encodebytes(data)
        if rng.random() < 0.1:
            data = data[: rng.randint(0, len(data))] + b"!!=="
    elif cte == "quoted-printable":
        data = quopri.encodestring(data)
    ctype = rng.choice(("text/plain", "text/html", "text/plain", "application/octet-stream"))
    headers = [f"Content-Type: {ctype}" + (f'; charset="{charset}"' if charset else "")]
    if cte:
        headers.append(f"Content-Transfer-Encoding: {cte}")
    return data, headers


def _part(rng: random.Random, depth: int) -> bytes:
    if depth < 3 and rng.random() < 0.3:
        boundary = f"b{rng.randint(0, 10**6)}"
        sub = rng.choice(("mixed", "alternative", "related", "signed", "report"))
        parts = [_part(rng, depth + 1) for _ in range(rng.randint(0, 4))]
        head = f'Content-Type: multipart/{sub}; boundary="{boundary}"\r\n\r\n'.encode()
        body = b"".join(b"--" + boundary.encode() + b"\r\n" + p + b"\r\n" for p in parts)
        close = b"--" + boundary.encode() + b"--\r\n" if rng.random() < 0.9 else b""
        return head + b"preamble\r\n" + body + close
    data, headers = _encode(rng, _body(rng))
    return ("\r\n".join(headers) + "\r\n\r\n").encode() + data


def _headers(rng: random.Random) -> list[str]:
    sender = f"p{rng.randint(0, 40)}@example.test" if rng.random() < 0.6 else GM
    sender = (
        sender
        if rng.random() < 0.8
        else rng.choice(
            (
                sender,
                GM,
                "MAILER-DAEMON@example.test",
                '"Q, Uote" <q@example.test>',
                "no-at-sign",
                "",
                "=?utf-8?q?J=C3=BCrgen?= <j@x.test>",
                "a@b.test, c@d.test",
                "<>",
            )
        )
    )
    hs = [f"From: {sender}", "To: pbm@example.test", f"Subject: {rng.choice(SUBJECTS)}"]
    if rng.random() < 0.9:
        hs.append(f"Message-ID: <fuzz-{rng.getrandbits(64):x}@example.test>")
    extras = (
        "Auto-Submitted: auto-replied",
        "Precedence: bulk",
        "List-Id: <l.example.test>",
        "In-Reply-To: <x@y>",
        "Return-Path: <>",
        "X-Loop: pbm@example.test",
        "Date: Thu, 31 Feb 2026 25:61:00 +9999",
        "MIME-Version: 1.0",
        "Cc: " + "a" * 3000,
        "Subject: second subject",
        "Reply-To: evil@example.test\r\n\tBcc: x@y.test",
    )
    hs += rng.sample(extras, rng.randint(0, 3)) if rng.random() < 0.3 else []
    rng.shuffle(hs)
    return hs


def _mutate(rng: random.Random, raw: bytes) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        if op < 0.4 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif op < 0.6 and data:
            cut = rng.randrange(len(data))
            data = data[:cut] if rng.random() < 0.5 else data[cut:]
        elif op < 0.8:
            at = rng.randrange(len(data) + 1)
            data[at:at] = rng.choice((b"\r\n", b"\r\n\r\n", b"\x00", b"--", b"=?", b": "))
        else:
            data[0:0] = f"Message-ID: <m-{rng.getrandbits(48):x}@x>\r\n".encode()
    return bytes(data)


def make_case(rng: random.Random) -> bytes:
    """One raw message from the random source (see the module docstring)."""
    if CORPUS and rng.random() < 0.25:
        return _mutate(rng, rng.choice(CORPUS).read_bytes())
    head = ("\r\n".join(_headers(rng)) + "\r\n").encode()
    raw = head + _part(rng, 0)
    return _mutate(rng, raw) if rng.random() < 0.15 else raw


def _app(tmp: Path) -> App:
    data = {
        "server": {"address": "pbm@example.test"},
        "database": {"url": f"sqlite:///{tmp}/fuzz.sqlite3"},
        "gm": {"address": GM, "secret": GM_SECRET},
        "security": {"secret_key": "fuzz-secret-key-0123456789abcdef"},
        "smtp_listener": {"host": "127.0.0.1", "port": 0},
        "maildir": {"path": str(tmp / "outbox")},
        "rate_limit": {"per_hour": 100_000},
    }
    clock = FixedClock(datetime(2026, 1, 1, 9, 0, tzinfo=UTC))
    app = App.from_config(parse_config(data, env={}), clock, upgrade=True)
    with transaction(app.sessions) as s:
        create_competition(
            s,
            clock,
            code="DEMO",
            name="Demo Cup",
            fmt="t20",
            teams=40,
            naming_deadline=datetime(2026, 1, 15, tzinfo=UTC),
            seed="fz",
        )
    return app


def run(tmp: Path, seed: int, cases: int) -> Report:
    """Run ``cases`` cases from ``seed`` in a fresh SQLite database under ``tmp``."""
    rng = random.Random(seed)
    report = Report()
    app = _app(tmp)
    sender = RecordingSender()
    daemon = Daemon(app, sender)
    try:
        for n in range(cases):
            raw = make_case(rng)
            report.cases += 1
            try:
                stored = app.inbound.store(raw, "smtp", envelope_from="fuzz@example.test")
            except MessageParseError:
                report.outcomes["refused at the door"] += 1
                if raw.strip():
                    report.breaches.append(f"case {n}: a non-blank message refused")
                continue
            if not stored.created:
                report.outcomes["duplicate"] += 1
                continue
            status = app.inbound.process(stored.id)
            report.outcomes[str(status)] += 1
            if status is None or status == MailStatus.RECEIVED:
                report.breaches.append(f"case {n} (seed {seed}): left {status}")
            if n % 50 == 49:
                daemon.run_once()  # the daemon's pass never stops: it sends what was queued
        # Each pass sends for a budget of seconds (pbm.daemon.PASS_SEND_BUDGET), so on a busy
        # machine the queue drains over several, as the daemon's loop would run them.
        for _ in range(1000):
            if not daemon.run_once().sent:
                break
        with transaction(app.sessions) as s:
            left = s.scalars(select(InboundMail.id).where(InboundMail.status == "received"))
            report.breaches += [f"#{i} never handled" for i in left]
            shunted = set(s.scalars(select(InboundMail.id).where(InboundMail.status == "shunted")))
            alerted = set(
                s.scalars(select(OutboxMessage.inbound_id).where(OutboxMessage.kind == "gm-alert"))
            )
            report.breaches += [f"#{i} dead-lettered without an alert" for i in shunted - alerted]
            unsent = s.scalars(select(OutboxMessage.id).where(OutboxMessage.status == "pending"))
            report.breaches += [f"outbox #{i} unsent after the pass" for i in unsent]
    finally:
        app.close()
    return report
