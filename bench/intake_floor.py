"""The floor of a mail: for each kind of mail ``bench/intake.py`` sends (JOIN, naming, match
orders), the work no design can skip, each part measured alone at its best, beside the budget
(800 JOINs and 400 orders mails a second on one process: 1.25 and 2.5 ms) and beside the real
pipeline's stages, measured in the same invocation (``bench/intake.py``'s SQLite burst, one
worker, CPU-timed stages).

1. **Capture.** A fresh bench database receives the mails (``Inbound.store``, one by one) and
   is copied (SQLite's backup) before they are handled; then ``process_next`` handles them in
   this process, while SQLAlchemy's ``before_cursor_execute`` and ``before_execute`` record
   every statement a mail runs (as the driver got it, and as the pipeline's statement object
   with its parameters), and the calls the floor replays are recorded with their arguments:
   the order reader (``parse_orders``), the practice (``practise``), the squad a JOIN rolls
   (``base_squad``), argon2 (``SecretBox.hash``/``verify``), the render (``render_email``)
   and the composer (``compose_message``).
2. **The floors**, each over every mail, once to warm and once measured, CPU ms a mail
   (median and p90):

   a. *parse + route*: ``email.message_from_bytes`` (compat32) and the routing read off it
      (the tag of the subject, the sender, the automatic-mail headers, the text part decoded,
      the command word and the SECRET line);
   b. *stored first*: the inbound row's INSERT replayed on bare ``sqlite3`` with the captured
      parameters, one commit a mail (the SMTP door answers 250 after its commit; the IMAP
      door's batch shares one), and the sealed copy (Fernet, ``cryptography``);
   c. *the mail's SQL*: the statements the pipeline ran for it, replayed on bare ``sqlite3``
      against the copy made before handling, same pragmas, ``BEGIN IMMEDIATE`` and one
      commit. Beside it, not floors: the same SQL through SQLAlchemy's connection
      (``exec_driver_sql``), and the pipeline's own statement objects through a pbm session
      in a warm loop (compiled cache, column types, ORM loads), with the costliest of those;
   d. *engine alone*: a kept ``Reader`` (warmed on other mails' lines) on the mail's text
      with the captured team, format and context; the three practice innings with the
      captured arguments; a JOIN's squad rolled;
   e. *secrets*: argon2's hash (JOIN) or check (a seat's mail) at pbm's setting,
      ``argon2-cffi`` directly, and the reply's scrub before it is stored (the outbox
      column's: no secret is stored in clear);
   f. *reply*: the render alone (``render_email`` with the captured context: Jinja, wrap,
      flow, the HTML twin), and the smallest correct multipart (text + HTML twin, headers
      neutralised) composed by the standard library from the rendered strings
      (``EmailMessage`` and compat32's classes) or by pbm's composer, whichever is least.

    .venv/bin/python bench/intake_floor.py [--messages 200] [--no-pipeline]
"""

from __future__ import annotations

import argparse
import email
import email.header
import email.utils
import os
import re
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import SMTP
from pathlib import Path
from typing import Any

from _services import (  # type: ignore[import-not-found]
    Bench,
    mails_by_kind,
)
from _stages import FLOOR, StageTimer  # type: ignore[import-not-found]
from argon2 import PasswordHasher
from cryptography.fernet import Fernet
from sqlalchemy import event

from engine.flungo.language import Reader
from engine.flungo.practice import practice_lines

KINDS = ("JOIN", "naming orders", "match orders")
BUDGET_MS = {"JOIN": 1.25, "naming orders": 2.5, "match orders": 2.5}


@dataclass
class Mail:
    """What one mail did through the real pipeline, for the floors to replay."""

    raw: bytes
    sql: list[tuple[str, Any, bool]] = field(default_factory=list)  # statement, params, many
    core: list[tuple[Any, Any]] = field(default_factory=list)  # SQLAlchemy statement, params
    reads: list[tuple[tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)
    practices: list[tuple[tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)
    squads: list[tuple[str, int]] = field(default_factory=list)  # (seed, seat number) rolled
    hashes: list[str] = field(default_factory=list)  # secrets hashed
    checks: list[tuple[str, str]] = field(default_factory=list)  # (stored hash, secret)
    renders: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    rendered: list[Any] = field(default_factory=list)
    composed: list[tuple[tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)
    replies: list[bytes] = field(default_factory=list)  # the composed replies' bytes
    store: list[tuple[str, Any, bool]] = field(default_factory=list)


@contextmanager
def _recording(
    owner: Any, attr: str, into: Callable[[tuple[Any, ...], dict[str, Any], Any], None]
) -> Iterator[None]:
    real = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)

    def recorded(*a: Any, **kw: Any) -> Any:
        out = real(*a, **kw)
        into(a, kw, out)
        return out

    setattr(owner, attr, recorded)
    try:
        yield
    finally:
        setattr(owner, attr, real)


def _snapshot(bench: Bench, to: Path) -> None:
    url = str(bench.app.db_engine.url)
    src = sqlite3.connect(url.removeprefix("sqlite:///"))
    dst = sqlite3.connect(to)
    src.backup(dst)
    dst.close()
    src.close()


def capture(n: int, workdir: Path) -> dict[str, tuple[list[Mail], Path]]:
    """Each kind's mails as the pipeline handled them, and the database copy made before."""
    import pbm.games.flungo.competitions as competitions
    import pbm.games.flungo.naming as naming
    import pbm.games.flungo.practice as practice
    import pbm.games.flungo.standing as standing
    import pbm.outbound.replies as replies
    from pbm.secrets.seats import SecretBox

    comps = -(-n // 64)
    bench = Bench(competitions=comps, teams=64)
    out: dict[str, tuple[list[Mail], Path]] = {}
    current: list[Mail] = []
    cursor_log: list[list[tuple[str, Any, bool]]] = [[]]

    core_log: list[list[tuple[Any, Any]]] = [[]]

    def on_statement(conn: Any, element: Any, multi: Any, params: Any, options: Any) -> None:
        core_log[0].append((element, [dict(p) for p in multi] if multi else dict(params)))

    def on_execute(conn: Any, cur: Any, statement: str, params: Any, ctx: Any, many: bool) -> None:
        cursor_log[0].append((statement, params, many))

    def into(name: str) -> Callable[[tuple[Any, ...], dict[str, Any], Any], None]:
        def keep(a: tuple[Any, ...], kw: dict[str, Any], result: Any) -> None:
            if not current:
                return
            mail = current[-1]
            if name == "read":
                mail.reads.append((a, kw))
            elif name == "squad":
                mail.squads.append((a[0].seed, a[1]))
            elif name == "practise":
                mail.practices.append((a, kw))
            elif name == "hash":
                mail.hashes.append(a[1])
            elif name == "verify":
                mail.checks.append((a[1], a[2]))
            elif name == "compose":
                mail.composed.append((a, kw))
                mail.replies.append(result.raw)
            elif name == "render":
                mail.renders.append((a[0], dict(a[1])))
                mail.rendered.append(result)

        return keep

    db_engine = bench.app.db_engine
    event.listen(db_engine, "before_cursor_execute", on_execute)
    event.listen(db_engine, "before_execute", on_statement)
    try:
        for kind, mails in mails_by_kind(bench, n):
            handled = [Mail(raw) for raw in mails]
            for mail in handled:  # one by one, as the SMTP door stores: each its own INSERT
                cursor_log[0] = []
                bench.app.inbound.store(mail.raw, "smtp")
                mail.store, cursor_log[0] = cursor_log[0], []
            snap = workdir / f"{kind.split()[0].lower()}.sqlite3"
            _snapshot(bench, snap)
            with (
                _recording(standing, "parse_orders", into("read")),
                _recording(naming, "parse_orders", into("read")),
                _recording(practice, "practise", into("practise")),
                _recording(competitions, "base_squad", into("squad")),
                _recording(SecretBox, "hash", into("hash")),
                _recording(SecretBox, "verify", into("verify")),
                _recording(replies, "render_email", into("render")),
                _recording(replies, "compose_message", into("compose")),
            ):
                after = 0
                for mail in handled:
                    current.append(mail)
                    cursor_log[0], core_log[0] = [], []
                    got = bench.app.inbound.process_next(after)
                    assert got is not None and got[1] == "applied", got
                    after = got[0]
                    mail.sql, cursor_log[0] = cursor_log[0], []
                    mail.core, core_log[0] = core_log[0], []
            out[kind] = (handled, snap)
    finally:
        event.remove(db_engine, "before_cursor_execute", on_execute)
        event.remove(db_engine, "before_execute", on_statement)
        bench.close()
    return out


# -- the floors ------------------------------------------------------------------------------


def _cpu_each(items: list[Any], fn: Callable[[Any], object]) -> list[float]:
    """CPU seconds of ``fn`` on each item, after a warming pass over all of them."""
    for item in items:
        fn(item)
    took = []
    for item in items:
        t = time.process_time()
        fn(item)
        took.append(time.process_time() - t)
    return took


_TAG = re.compile(r"\[([^\[\]]{1,40})\]")
_AUTO = ("Auto-Submitted", "Precedence", "List-Id", "X-Autoreply", "Return-Path")


def parse_and_route(raw: bytes) -> tuple[str | None, str, str, str | None]:
    """The standard library's parse and the routing read off it: (code, sender, command,
    secret). Automatic mail is told by its headers."""
    msg = email.message_from_bytes(raw)
    auto = [msg.get(h) for h in _AUTO]
    if auto[0] not in (None, "no"):
        return None, "", "auto", None
    sender = email.utils.parseaddr(msg.get("From", ""))[1].lower()
    tag = _TAG.search(str(msg.get("Subject", "")))
    part = msg
    if msg.is_multipart():
        part = next(p for p in msg.walk() if p.get_content_type() == "text/plain")
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    body = payload.decode(part.get_content_charset() or "utf-8", "replace")
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    word = lines[0].split(None, 1)[0].upper() if lines else ""
    secret = next((ln.split(None, 1)[1] for ln in lines if ln.upper().startswith("SECRET ")), None)
    command = word if word == "JOIN" else "orders"
    return (tag.group(1) if tag else None), sender, command, secret


def _bare(path: Path) -> sqlite3.Connection:
    """A bare connection with pbm's pragmas (``pbm.db.session``)."""
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA busy_timeout=15000")
    c.execute("PRAGMA foreign_keys=ON")
    c.execute("PRAGMA synchronous=NORMAL")
    return c


def _replay(c: sqlite3.Connection, sql: list[tuple[str, Any, bool]]) -> None:
    cur = c.cursor()
    for statement, params, many in sql:
        if statement.startswith("PRAGMA"):
            continue
        # insertmanyvalues hands the driver one multi-row statement and flat parameters
        if many and params and isinstance(params[0], list | tuple | dict):
            cur.executemany(statement, params)
        else:
            cur.execute(statement, params)
        if cur.description is not None:
            cur.fetchall()
    c.commit()


def _fresh_copy(snap: Path, copy: Path) -> Path:
    """``snap`` copied to ``copy``, with no WAL of an earlier copy left beside it."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    shutil.copy(snap, copy)
    return copy


def sql_floor(mails: list[Mail], snap: Path, workdir: Path) -> list[float]:
    """Each mail's statements and its commit on bare ``sqlite3``, on a copy of the database
    as it was before handling (twice: the first copy warms the page cache and the code)."""
    took: list[float] = []
    for measured in (False, True):
        copy = _fresh_copy(snap, workdir / "replay.sqlite3")
        c = _bare(copy)
        for mail in mails:
            t = time.process_time()
            _replay(c, mail.sql)
            if measured:
                took.append(time.process_time() - t)
        c.close()
    return took


def sql_through_sqlalchemy(mails: list[Mail], snap: Path, workdir: Path) -> list[float]:
    """Not a floor: the same statements through SQLAlchemy's connection
    (``exec_driver_sql``: no compile, no bind processing, no ORM; its execution context,
    events and error translation), in pbm's engine (``BEGIN IMMEDIATE`` by its event) and
    one commit: what the engine layer alone adds to the bare driver."""
    from pbm.db.session import make_db_engine

    took: list[float] = []
    for measured in (False, True):
        copy = _fresh_copy(snap, workdir / "replay-sa.sqlite3")
        db_engine = make_db_engine(f"sqlite:///{copy}")
        with db_engine.connect() as conn:
            for mail in mails:
                t = time.process_time()
                with conn.begin():
                    for statement, params, many in mail.sql:
                        if statement.startswith(("PRAGMA", "BEGIN")):
                            continue
                        flat = not (many and params and isinstance(params[0], list | tuple))
                        result = conn.exec_driver_sql(statement, params if flat else list(params))
                        if result.returns_rows:
                            result.fetchall()
                if measured:
                    took.append(time.process_time() - t)
        db_engine.dispose()
    return took


def sql_through_statements(mails: list[Mail], snap: Path, workdir: Path) -> list[float]:
    """Not a floor: the pipeline's own statement objects (Core and ORM) with their
    parameters, replayed through a pbm session in a warm loop (the compiled cache, the
    column types' bind processing, the ORM's loads and autoflush; none of the handler's work
    between them), and one commit."""
    from sqlalchemy import ClauseElement

    from pbm.db.session import make_db_engine, make_session_factory, transaction

    took: list[float] = []
    skipped: set[str] = set()
    each: dict[str, float] = {}
    names = {  # named before the clock runs: str() compiles the statement
        id(element): " ".join(str(element).split()[:3])[:40]
        for mail in mails
        for element, _ in mail.core
        if isinstance(element, ClauseElement)
    }
    for measured in (False, True):
        copy = _fresh_copy(snap, workdir / "replay-orm.sqlite3")
        db_engine = make_db_engine(f"sqlite:///{copy}")
        sessions = make_session_factory(db_engine)
        for mail in mails:
            t = time.process_time()
            with transaction(sessions) as session:
                for element, params in mail.core:
                    if not isinstance(element, ClauseElement):
                        continue  # BEGIN and the pragmas: pbm's engine issues its own
                    at = time.process_time()
                    try:
                        result = session.execute(element, params)
                        if _rows(element):
                            result.all()
                        if measured:
                            name = names[id(element)]
                            each[name] = each.get(name, 0.0) + time.process_time() - at
                    except Exception:  # an ORM load whose options the replay cannot repeat
                        skipped.add(str(element).split("\n", 1)[0][:60])
            if measured:
                took.append(time.process_time() - t)
        db_engine.dispose()
    for what in sorted(skipped):
        print(f"    (not replayed through the session: {what}...)")
    top = sorted(each.items(), key=lambda kv: -kv[1])[:6]
    print(
        "    in a pbm session, the costliest: "
        + "; ".join(f"{name} {s / len(mails) * 1000:.3f}" for name, s in top)
    )
    return took


def _rows(element: Any) -> bool:
    return bool(getattr(element, "is_select", False) or getattr(element, "_returning", ()))


def store_floor(mails: list[Mail], snap: Path, workdir: Path, key: bytes) -> list[float]:
    """The inbound row's INSERT (captured from ``Inbound.store``) under a new key, one commit a
    mail, on a copy of the database, and the sealed copy made by Fernet."""
    fernet = Fernet(key)
    took: list[float] = []
    for measured in (False, True):
        copy = _fresh_copy(snap, workdir / "store.sqlite3")
        c = _bare(copy)
        for k, mail in enumerate(mails):
            sql = []
            for statement, params, many in mail.store:
                if statement.startswith('INSERT INTO inbound_mail ("key"'):
                    params = (f"{params[0]}-{measured}-{k}", *params[1:])
                    sql.append((statement, params, many))
                elif statement.startswith("BEGIN"):
                    sql.append((statement, params, many))
            t = time.process_time()
            fernet.encrypt(mail.raw)
            _replay(c, sql)
            if measured:
                took.append(time.process_time() - t)
        c.close()
    return took


def reader_floor(mails: list[Mail]) -> list[float]:
    """The order reader (engine alone) on each mail's text, with a Reader kept across mails
    (as an App keeps one), warmed on other mails' lines; and the practice innings."""
    reader = Reader()
    from engine.flungo.language import parse_orders

    warm, measured = mails[: len(mails) // 4], mails[len(mails) // 4 :]
    for mail in warm:
        for a, kw in mail.reads:
            parse_orders(*a, **{**kw, "reader": reader})
    took = []
    for mail in measured:
        t = time.process_time()
        for a, kw in mail.reads:
            parse_orders(*a, **{**kw, "reader": reader})
        took.append(time.process_time() - t)
    return took


def squad_floor(mails: list[Mail]) -> list[float]:
    """The squad a JOIN's seat is given, rolled by the engine alone (the reply shows it)."""
    from engine.dice import Dice, seed_from_text
    from engine.flungo.squad import generate_squad

    def run(mail: Mail) -> None:
        for seed, number in mail.squads:
            generate_squad(Dice(seed_from_text(seed)).derive(f"seat:{number}"), f"Team {number}")

    return _cpu_each(mails, run)


def practice_floor(mails: list[Mail]) -> list[float]:
    """The practice innings an orders answer shows, engine alone, with the captured
    arguments."""
    from engine.flungo.practice import practise

    def run(mail: Mail) -> None:
        for a, kw in mail.practices:
            practice_lines(practise(*a, **kw))

    return _cpu_each(mails, run)


def argon2_floor(mails: list[Mail], time_cost: int, memory_kib: int) -> list[float]:
    """argon2id at pbm's setting: the JOIN's hash, a seat's check (once a mail)."""
    from pbm.secrets.seats import normalise_secret

    hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=1)

    def run(mail: Mail) -> None:
        for secret in mail.hashes:
            hasher.hash(secret)
        for stored, secret in dict.fromkeys(mail.checks):
            hasher.verify(stored, normalise_secret(secret))

    return _cpu_each(mails, run)


def render_floor(mails: list[Mail]) -> list[float]:
    """pbm's render alone (Jinja, wrap, flow, the HTML twin) with the captured contexts."""
    from pbm.outbound.render import render_email

    def run(mail: Mail) -> None:
        for kind, ctx in mail.renders:
            render_email(kind, ctx)

    return _cpu_each(mails, run)


def _neutral(value: str) -> str:
    """A header value from a player's text: one line, no control characters."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in value).split())[:200]


def _cte(text: str) -> str:
    """7bit where it is correct (ASCII, lines of at most 998 octets), else quoted-printable."""
    if text.isascii() and all(len(line) <= 998 for line in text.splitlines()):
        return "7bit"
    return "quoted-printable"


def compose_modern(rendered: Any, to: str, in_reply_to: str) -> bytes:
    """The reply as ``email.message.EmailMessage`` writes it (policy SMTP)."""
    m = EmailMessage()
    m["From"] = email.utils.formataddr(("pbm", "pbm@example.test"))
    m["To"] = to
    m["Subject"] = _neutral(rendered.subject)
    m["Date"] = email.utils.formatdate(localtime=False)
    m["Message-ID"] = email.utils.make_msgid(domain="example.test")
    m["In-Reply-To"] = in_reply_to
    m["References"] = in_reply_to
    m["Auto-Submitted"] = "auto-replied"
    m.set_content(rendered.flowed, cte=_cte(rendered.flowed), params={"format": "flowed"})
    if rendered.html is not None:
        m.add_alternative(rendered.html, subtype="html", cte=_cte(rendered.html))
    return m.as_bytes(policy=SMTP)


def compose_compat(rendered: Any, to: str, in_reply_to: str) -> bytes:
    """The same reply with compat32's ``MIMEMultipart``/``MIMEText`` (no header objects)."""
    text = MIMEText(rendered.flowed, "plain", "utf-8")
    text.set_param("format", "flowed")
    m: MIMEText | MIMEMultipart = text
    if rendered.html is not None:
        m = MIMEMultipart("alternative")
        m.attach(text)
        m.attach(MIMEText(rendered.html, "html", "utf-8"))
    m["From"] = email.utils.formataddr(("pbm", "pbm@example.test"))
    m["To"] = to
    m["Subject"] = email.header.Header(_neutral(rendered.subject), "utf-8").encode()
    m["Date"] = email.utils.formatdate(localtime=False)
    m["Message-ID"] = email.utils.make_msgid(domain="example.test")
    m["In-Reply-To"] = in_reply_to
    m["References"] = in_reply_to
    m["Auto-Submitted"] = "auto-replied"
    return m.as_bytes(policy=SMTP)


def scrub_floor(mails: list[Mail]) -> list[float]:
    """The reply searched for secrets before it is stored (the outbox column's scrub, pbm's
    own fast reading of its composer's shapes): no secret is stored in clear."""
    from pbm.secrets.scrub import scrub_message

    def run(mail: Mail) -> None:
        for raw in mail.replies:
            scrub_message(raw, (), lines=False, deep=False)

    return _cpu_each(mails, run)


def pbm_compose_floor(mails: list[Mail]) -> list[float]:
    """pbm's own composer (``compose_message``) alone, with the captured arguments."""
    from pbm.mail.compose import compose_message

    def run(mail: Mail) -> None:
        for a, kw in mail.composed:
            compose_message(*a, **kw)

    return _cpu_each(mails, run)


def compose_floor(mails: list[Mail], composer: Callable[[Any, str, str], bytes]) -> list[float]:
    def run(mail: Mail) -> None:
        for rendered in mail.rendered:
            composer(rendered, "p1@club1.test", "<join-1@players.test>")

    return _cpu_each(mails, run)


# -- the real pipeline, same invocation ------------------------------------------------------


def pipeline(n: int) -> dict[str, tuple[StageTimer, float]]:
    """``bench/intake.py``'s SQLite burst, one worker, stages in CPU: each kind's timer and
    the worker's CPU seconds a mail."""
    from intake import burst  # type: ignore[import-not-found]

    comps = -(-n // 64)
    bench = Bench(competitions=comps, teams=64)
    out: dict[str, tuple[StageTimer, float]] = {}
    try:
        for kind, mails in mails_by_kind(bench, n):
            timer = StageTimer(time.process_time)
            r = burst(bench, mails, 1, timer, cpu_stages=True)
            out[kind] = (timer, r.cpu)
            print(
                f"  pipeline {kind:<14} {r.rate:6.1f} msg/s, worker CPU {r.cpu * 1000:.2f} ms a "
                f"mail (load {_load()})",
                flush=True,
            )
    finally:
        bench.close()
    return out


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _ms(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    q = statistics.quantiles(xs, n=10) if len(xs) > 1 else [xs[0]] * 9
    return statistics.median(xs) * 1000, q[8] * 1000


SQL = "c. the mail's SQL + commit"
#: The pipeline's stages each floor bounds (``bench/_stages.py``'s names).
AGAINST: dict[str, tuple[str, ...]] = {
    "a. parse + route": ("parse MIME + route",),
    "b. stored first (row + seal)": ("store raw + dedup (1 commit/batch)",),
    SQL: (
        "claim + status (process)",
        "lookups, rate limit, bounces",
        "handler (JOIN / orders)",
        "queue outbox row",
        "ORM flush (unit of work)",
        "commit",
    ),
    "d. reader (engine)": ("order language parse (engine)",),
    "d. practice (engine)": ("practice matches (engine)",),
    "d. squad roll (engine)": (),  # inside the handler's stage
    "e. argon2": ("argon2 verify/hash",),
    "e. the reply's scrub": (),  # inside the outbox row's stage
    "f. render": ("render reply (jinja)",),
    "f. compose": ("compose reply (MIME)",),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=200, help="mails per kind (default 200)")
    ap.add_argument("--no-pipeline", action="store_true", help="the floors alone")
    args = ap.parse_args()
    n = args.messages
    print(f"intake floor: {n} mails per kind; load before {_load()}")
    workdir = Path(tempfile.mkdtemp(prefix="pbm-floor-"))
    try:
        captured = capture(n, workdir)
        print(f"  captured (load {_load()})", flush=True)
        from pbm.core.config import SecurityConfig

        sec = SecurityConfig(secret_key="x")
        key = Fernet.generate_key()
        floors: dict[str, dict[str, list[float]]] = {}
        for kind, (mails, snap) in captured.items():
            f: dict[str, list[float]] = {}
            f["a. parse + route"] = _cpu_each([m.raw for m in mails], parse_and_route)
            f["b. stored first (row + seal)"] = store_floor(mails, snap, workdir, key)
            f[SQL] = sql_floor(mails, snap, workdir)
            through = sql_through_sqlalchemy(mails, snap, workdir)
            statements_ = sql_through_statements(mails, snap, workdir)
            if any(m.reads for m in mails):
                f["d. reader (engine)"] = reader_floor(mails)
            if kind == "JOIN":  # a later mail reads the seat's squad as it was stored
                f["d. squad roll (engine)"] = squad_floor(mails)
            if any(m.practices for m in mails):
                f["d. practice (engine)"] = practice_floor(mails)
            f["e. argon2"] = argon2_floor(mails, sec.argon2_time_cost, sec.argon2_memory_kib)
            f["e. the reply's scrub"] = scrub_floor(mails)
            f["f. render"] = render_floor(mails)
            modern = compose_floor(mails, compose_modern)
            compat = compose_floor(mails, compose_compat)
            own = pbm_compose_floor(mails)
            f["f. compose"] = min((modern, compat, own), key=lambda xs: statistics.median(xs))
            floors[kind] = f
            statements = statistics.median(
                sum(1 for s in m.sql if not s[0].startswith(("PRAGMA", "BEGIN"))) for m in mails
            )
            print(
                f"  floors of {kind} measured (load {_load()}; {statements:.0f} statements a "
                f"mail; compose: EmailMessage {_ms(modern)[0]:.3f}, compat32 "
                f"{_ms(compat)[0]:.3f}, pbm's compose_message {_ms(own)[0]:.3f} ms; the "
                f"mail's SQL through SQLAlchemy's exec_driver_sql {_ms(through)[0]:.3f} ms, "
                f"as the pipeline's statements in a pbm session {_ms(statements_)[0]:.3f} ms, "
                f"bare {_ms(f[SQL])[0]:.3f})",
                flush=True,
            )
        real = {} if args.no_pipeline else pipeline(n)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(
        f"\nCPU ms a mail: each floor's median and p90, beside the pipeline's stages it bounds "
        f"(exclusive CPU ms a mail; c's stages are the claim, lookups, the handler's Python "
        f"and SQL, the outbox row, flush and commit) (load after {_load()})"
    )
    head = f"  {'':<30}" + "".join(f" {k:>28}" for k in KINDS)
    print(head)
    print(f"  {'':<30}" + "".join(f" {'floor p50   p90  pipeline':>28}" for _ in KINDS))
    for part in AGAINST:
        cells = []
        for kind in KINDS:
            xs = floors[kind].get(part)
            p50, p90 = _ms(xs) if xs else (0.0, 0.0)
            pipe = "-" if AGAINST[part] else "(in c)"  # a part of the handler's or outbox's
            if kind in real and AGAINST[part]:
                timer = real[kind][0]
                pipe = f"{sum(timer.seconds.get(s, 0.0) for s in AGAINST[part]) / n * 1000:.3f}"
            cells.append(f" {p50:9.3f} {p90:6.3f} {pipe:>11}")
        print(f"  {part:<30}" + "".join(cells))
    sums = {k: sum(_ms(xs)[0] for xs in floors[k].values()) for k in KINDS}
    print(
        f"  {'sum of the floors':<30}"
        + "".join(
            f" {sums[k]:9.3f} {'':6} "
            + (f"{real[k][0].total() / n * 1000:11.3f}" if k in real else f"{'-':>11}")
            for k in KINDS
        )
    )
    if real:
        print(
            f"  {'worker CPU a mail (pipeline)':<30}"
            + "".join(f" {'':16} {real[k][1] * 1000:11.3f}" for k in KINDS)
        )
        print(
            f"  {'(of it, _stages FLOOR)':<30}"
            + "".join(
                f" {'':16} {sum(real[k][0].seconds.get(s, 0.0) for s in FLOOR) / n * 1000:11.3f}"
                for k in KINDS
            )
        )
    print(f"  {'budget':<30}" + "".join(f" {BUDGET_MS[k]:9.3f} {'':18}" for k in KINDS))
    print(
        f"  {'floor / budget':<30}"
        + "".join(f" {sums[k] / BUDGET_MS[k]:8.2f}x {'':18}" for k in KINDS)
    )
    print(
        f"  {'so at most (floor alone)':<30}"
        + "".join(f" {1000 / sums[k]:7.0f}/s {'':18}" for k in KINDS)
    )


if __name__ == "__main__":
    main()
