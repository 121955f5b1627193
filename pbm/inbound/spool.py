"""The spool: mail a door accepted while the database's write lock was held by a long pass.

On SQLite a pass handles each mail in one ``BEGIN IMMEDIATE`` transaction, so it holds the
database's one write lock while it parses, plays and renders; a mail at the line limit takes
seconds. The doors that must answer at once (the SMTP listener, ``pbm ingest``) therefore
store through :class:`DoorStore`: the database with a short lock wait
(``[database] door_wait_ms``), and when the lock is not free in that time, a file in the
spool, and then the answer (250, exit 0). Nothing is answered before it is durable: the file
is written under a temporary name, fsync'd, renamed, and the folder fsync'd.

A spool file holds nothing in clear: it is one token of the :class:`~pbm.secrets.Sealer`
(the key that seals a stored row's ``sealed`` copy) over a JSON line (the door, the
envelope, the time of arrival) and the raw bytes. A SECRET line never reaches the disk.

Every pass (:meth:`pbm.daemon.Daemon.run_once`) first imports the spool
(:func:`import_spool`): in batches bounded by files, bytes and time, each stored in one
commit synced to disk (``synchronous=FULL``), de-duplicated by the key the store uses
(:meth:`Inbound.store_arrivals`), then its files removed. A crash before the commit leaves
the files (imported next pass); one after it leaves files whose keys are stored (the next
import finds them and only removes them). A batch with a row the database refuses for what it
holds (:func:`refuses_the_row`) is stored one mail at a time; any other fault of the database
(lost, locked, its disk full) leaves the files for the next pass. A file that cannot be
unsealed or parsed (truncated, corrupt, sealed under a key no longer configured), or whose
row the database still refuses, is moved to ``dead/`` in the spool and recorded as a dead
letter holding the file's sealed bytes, in the transaction that tells the GM: never dropped,
read again only by ``pbm mail retry`` (:func:`retry_dead`). Such files count towards a
batch's bounds as mail does. A file that cannot be read now (EMFILE, EIO) waits for the next
pass. ``pbm db backup`` imports the spool first
(:func:`import_all`), so a backup holds every mail accepted before it began.

PostgreSQL takes row locks, so a door there never waits on a pass: it stores as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import structlog
from sqlalchemy import Engine, select
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, StatementError
from sqlalchemy.orm import Session, sessionmaker

from pbm.core.errors import MessageParseError, NotFound, PbmError
from pbm.core.events import record
from pbm.db.models import InboundMail, MailStatus
from pbm.db.session import LOCK_WAIT_MS, is_busy, make_session_factory, transaction
from pbm.inbound.pipeline import Arrival, Inbound, Stored
from pbm.mail.headers import header_text, valid_text
from pbm.mail.limits import resign
from pbm.secrets import Sealer
from pbm.testhooks import crash_point

__all__ = [
    "DoorStore",
    "Spool",
    "SpoolImport",
    "SpoolRotation",
    "SpoolState",
    "import_all",
    "import_spool",
    "refuses_the_row",
    "retry_dead",
    "spool_state",
]

log = structlog.get_logger("pbm.inbound.spool")

SUFFIX = ".mail"
TMP_PREFIX = ".tmp-"
DEAD = "dead"
#: Files, bytes and seconds of reading per import batch (one commit): a batch's memory and
#: the time it holds the write lock stay bounded after a long outage of the lock.
IMPORT_BATCH = 500
IMPORT_BYTES = 16 * 1024 * 1024
IMPORT_BATCH_SECONDS = 2.0
#: Seconds of batches in one import (a pass's): the rest waits for the next pass.
IMPORT_PASS_SECONDS = 10.0
#: Imports that may fail to read a file (an OSError: EMFILE, EIO) before it is a dead
#: letter: a passing fault leaves it, a lasting one is told to the GM. A folder by a spool
#: file's name, or one pbm may not read, is a dead letter at once.
READ_TRIES = 10
#: A temporary file older than this was left by a writer that died before its rename: it was
#: never acknowledged (the 250 comes after the rename), so it is removed.
STALE_TMP_SECONDS = 3600.0


class SpoolCorrupt(PbmError):
    """A spool file that cannot be read back: it goes to the dead letters."""


@dataclass(frozen=True, slots=True)
class SpoolState:
    """How many mails wait in the spool, and since when the oldest (None: empty); ``dead``
    counts the unreadable files kept aside."""

    count: int
    oldest: datetime | None
    dead: int

    def oldest_seconds(self, now: datetime) -> float | None:
        """The oldest file's age at ``now`` (None: empty)."""
        return None if self.oldest is None else max(0.0, (now - self.oldest).total_seconds())


@dataclass(slots=True)
class SpoolRotation:
    """What :meth:`Spool.reseal` did: files re-sealed, already under the current key; those
    waiting in the spool that no configured key opens (their paths: an old key is missing);
    those in ``dead/`` that none opens (dead letters the GM was told of, perhaps corrupt: no
    key may ever open them); and those that could not be read now (path and error)."""

    resealed: int = 0
    current: int = 0
    unreadable: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SpoolImport:
    """What :func:`import_spool` did: mails stored anew, and whether files it has not tried
    were left when it stopped (its time or a stop request): the loop then passes again at
    once, as that mail was answered already."""

    stored: int
    left: bool


class Spool:
    """One folder of sealed mail files, named by the time they were written."""

    def __init__(self, path: Path, sealer: Sealer) -> None:
        self.path = path
        self.sealer = sealer
        self._read_failures: Counter[str] = Counter()

    def __repr__(self) -> str:
        return f"Spool({str(self.path)!r})"

    # -- writing ---------------------------------------------------------------------------

    def put(self, arrival: Arrival) -> Path:
        """Write ``arrival`` durably (sealed); raises ``OSError`` if it cannot."""
        head = {
            "door": arrival.door,
            "from": arrival.envelope_from,
            "to": list(arrival.envelope_to),
            "at": arrival.received_at.isoformat(),
        }
        token = self.sealer.seal(json.dumps(head).encode() + b"\n" + arrival.raw)
        self.create()
        # The wall clock names the file: the spool's age is read against it (pbm status).
        name = f"{time.time_ns():020d}-{os.getpid()}-{secrets.token_hex(4)}"
        tmp, final = self.path / f"{TMP_PREFIX}{name}", self.path / f"{name}{SUFFIX}"
        _write_synced(tmp, token)
        tmp.rename(final)
        _sync_dir(self.path)
        return final

    def create(self) -> None:
        """Make the folder (and its parents) if missing, durably: a file renamed into a
        folder whose own entry was never synced can vanish with it in a power cut."""
        if self.path.is_dir():
            return
        missing = [p for p in (self.path, *self.path.parents) if not p.exists()]
        self.path.mkdir(parents=True, exist_ok=True)
        for made in missing:  # each new entry is durable once its parent is synced
            _sync_dir(made.parent)

    # -- reading ---------------------------------------------------------------------------

    def files(self) -> list[Path]:
        """The spooled mail files, oldest first."""
        try:
            return sorted(p for p in self.path.iterdir() if p.name.endswith(SUFFIX))
        except FileNotFoundError:
            return []

    def read(self, path: Path) -> Arrival:
        """The mail in ``path``: :class:`SpoolCorrupt` if it cannot be unsealed or parsed;
        ``OSError`` if the file cannot be read now (a passing fault: left for the next try)."""
        return self.parse(path.read_bytes(), path.name)

    def parse(self, data: bytes, name: str) -> Arrival:
        """The mail a spool file's bytes hold; :class:`SpoolCorrupt` if they are no such mail."""
        try:
            plain = self.sealer.unseal(data)
            line, _, raw = plain.partition(b"\n")
            head = json.loads(line)
            arrival = Arrival(
                raw=raw,
                door=str(head["door"])[:16],
                envelope_from=None if head["from"] is None else envelope_text(head["from"]),
                envelope_to=tuple(envelope_text(str(a)) for a in head["to"]),
                received_at=datetime.fromisoformat(head["at"]),
            )
        except (PbmError, ValueError, KeyError, TypeError) as exc:
            raise SpoolCorrupt(f"unreadable spool file {name}: {exc}") from exc
        if not raw.strip() or arrival.received_at.tzinfo is None:
            raise SpoolCorrupt(f"unreadable spool file {name}: no message in it")
        return arrival

    def read_failed(self, path: Path) -> int:
        """Count a failed read of ``path``: how many so far in this process."""
        self._read_failures[path.name] += 1
        tries = self._read_failures[path.name]
        if tries >= READ_TRIES:
            del self._read_failures[path.name]
        return tries

    def state(self) -> SpoolState:
        """What waits in the spool (see :func:`spool_state`)."""
        return spool_state(self.path)

    def bury(self, path: Path) -> Path:
        """Move an unreadable file to ``dead/`` (kept for the operator, never read again)."""
        dead = self.path / DEAD
        if not dead.is_dir():
            dead.mkdir(exist_ok=True)
            _sync_dir(self.path)
        target = dead / path.name
        path.rename(target)
        _sync_dir(dead)
        _sync_dir(self.path)
        return target

    def reseal(self, keys: Sequence[str] = ()) -> SpoolRotation:
        """Re-seal every spool file, and every one in ``dead/``, under the current key
        (``pbm secrets rotate``): once the old key is dropped they still open. A door's
        stand-in in one is signed again under ``keys[0]`` (``[security]``'s keys; see
        :func:`pbm.mail.limits.resign`), or it would be read as ordinary mail then. Each is
        replaced durably (a new file renamed over it); one no configured key opens is left
        and named, and so is one that cannot be read now (it would be lost with the old
        key). A file imported meanwhile may come back: its key is stored, and the next
        import only removes it."""
        done = SpoolRotation()
        dead = self.path / DEAD
        for folder in (self.path, dead):
            try:
                files = sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIX))
            except (FileNotFoundError, NotADirectoryError):
                continue
            for path in files:
                try:
                    token = path.read_bytes()
                except (FileNotFoundError, IsADirectoryError):
                    continue  # imported meanwhile, or a folder by the name: not sealed mail
                except OSError as exc:  # EMFILE, EIO, EACCES: the caller must not say "done"
                    done.skipped.append(f"{path} ({exc.strerror or exc})")
                    continue
                if self.sealer.is_current(token):
                    done.current += 1
                    continue
                try:
                    plain = self.sealer.unseal(token)
                    head, sep, raw = plain.partition(b"\n")
                    if keys and sep:
                        plain = head + sep + resign(raw, keys)
                    fresh = self.sealer.seal(plain)
                except PbmError:
                    (done.dead if folder == dead else done.unreadable).append(str(path))
                    continue
                tmp = self.path / f"{TMP_PREFIX}{path.stem}"  # no suffix: never imported
                _write_synced(tmp, fresh)
                tmp.rename(path)
                done.resealed += 1
            if files:
                _sync_dir(folder)
        return done

    def sweep_tmp(self, now_wall: float) -> None:
        """Remove temporary files a writer left when it died before its rename."""
        try:
            for p in self.path.iterdir():
                if p.name.startswith(TMP_PREFIX):
                    with contextlib.suppress(FileNotFoundError):
                        if now_wall - p.stat().st_mtime > STALE_TMP_SECONDS:
                            p.unlink()
        except FileNotFoundError:
            return


def spool_state(path: Path) -> SpoolState:
    """What waits in the spool at ``path``; no file is opened, as names carry their time."""
    try:
        files = sorted(p.name for p in path.iterdir() if p.name.endswith(SUFFIX))
    except FileNotFoundError:
        return SpoolState(0, None, 0)
    oldest = None
    if files:
        with contextlib.suppress(ValueError):
            oldest = datetime.fromtimestamp(int(files[0].split("-", 1)[0]) / 1e9, UTC)
    dead = path / DEAD
    return SpoolState(len(files), oldest, sum(1 for _ in dead.iterdir()) if dead.is_dir() else 0)


def envelope_text(value: object) -> str:
    """An envelope address as text that can be stored: bytes that were not UTF-8 (``pbm
    ingest``'s argument, kept by Python as lone surrogates) read as UTF-8, else
    windows-1252, and any other lone surrogate replaced (U+FFFD)."""
    text = str(value)
    try:
        return header_text(text)
    except UnicodeEncodeError:  # a surrogate that no byte made (JSON's "\\ud800")
        return valid_text(text)


def _write_synced(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_dir(path: Path) -> None:
    # The rename is durable only once the folder's entry is on disk.
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- the doors' store -------------------------------------------------------------------------


class DoorStore:
    """How the doors that answer at once store a mail: the database if its write lock is free
    within ``wait_ms``, else the spool (SQLite only; with no spool, the database as before)."""

    def __init__(self, inbound: Inbound, spool: Spool | None, wait_ms: int) -> None:
        self.inbound = inbound
        self.spool = spool
        self._quick: Inbound | None = None
        bind = inbound.sessions.kw.get("bind")
        if spool is not None and bind is not None and bind.dialect.name == "sqlite":
            sessions: sessionmaker[Session] = make_session_factory(
                bind.execution_options(**{LOCK_WAIT_MS: wait_ms})
            )
            self._quick = Inbound(sessions, inbound.config, inbound.clock, inbound.box)

    def store(
        self,
        raw: bytes,
        door: str,
        envelope_from: str | None = None,
        envelope_to: Sequence[str] = (),
    ) -> Stored | None:
        """Store durably; the stored row, or None when the mail went to the spool. Raises
        when neither could take it (the door answers "try again later")."""
        # Neutralised before either store: the row must take them, the spooled file's as
        # the direct one's (a sender's bytes once made every import of the spool fail).
        envelope_from = None if envelope_from is None else envelope_text(envelope_from)
        envelope_to = [envelope_text(a) for a in envelope_to]
        if self._quick is None or self.spool is None:
            return self.inbound.store(raw, door, envelope_from, envelope_to)
        if not raw.strip():  # nothing to store, answer or retry (as Inbound.store says)
            raise MessageParseError("an empty message: nothing to store")
        # While mail waits in the spool, what comes after it goes there too: the import gives
        # rows in the order of arrival, and a player's later orders are handled later.
        if not self.spool.files():
            try:
                return self._quick.store(raw, door, envelope_from, envelope_to)
            except Exception as exc:
                if not is_busy(exc):
                    raise
        arrival = Arrival(
            raw, door, envelope_from or None, tuple(envelope_to), self.inbound.clock.now()
        )
        path = self.spool.put(arrival)
        log.info("inbound.spooled", door=door, file=path.name, bytes=len(raw))
        return None


# -- the import, at the start of every pass ---------------------------------------------------


def import_spool(
    spool: Spool,
    inbound: Inbound,
    stopping: Callable[[], bool] = lambda: False,
    budget: float | None = None,
) -> SpoolImport:
    """Store what the spool holds, a batch at a time (each one commit, synced, then its files
    removed) until it is empty, ``stopping()`` says so, or ``budget`` seconds (default
    :data:`IMPORT_PASS_SECONDS`) have passed. A file that cannot be unsealed or parsed, or
    whose row the database refuses for what it holds, becomes a dead letter; one that cannot
    be read now is left for the next import; any other fault raises, the files left."""
    spool.sweep_tmp(time.time())
    budget = IMPORT_PASS_SECONDS if budget is None else budget
    began = time.monotonic()
    tried: set[str] = set()  # a file left by one batch waits for the next import
    fresh = 0
    while True:
        stored, more = _import_batch(spool, inbound, tried, stopping)
        fresh += stored
        if not more or stopping() or time.monotonic() - began >= budget:
            return SpoolImport(fresh, more)


def _import_batch(
    spool: Spool, inbound: Inbound, tried: set[str], stopping: Callable[[], bool]
) -> tuple[int, bool]:
    """One batch, bounded by files, bytes and time: how many stored anew, and whether files
    not yet tried remain. Every file tried counts, a dead letter too (its own commit, syncs
    and alert): a spool that no key opens is no cheaper than one of mail."""
    files = [p for p in spool.files() if p.name not in tried]
    read: list[tuple[Path, bytes, Arrival]] = []
    size, started, more, taken = 0, time.monotonic(), False, 0
    for path in files:
        if taken and (
            taken >= IMPORT_BATCH
            or size >= IMPORT_BYTES
            or time.monotonic() - started >= IMPORT_BATCH_SECONDS
            or stopping()
        ):
            more = True
            break
        taken += 1
        tried.add(path.name)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue  # another process imported it meanwhile
        except OSError as exc:  # EMFILE, ENOMEM, EIO: most often passing
            lasting = isinstance(exc, IsADirectoryError | PermissionError)
            if not lasting and spool.read_failed(path) < READ_TRIES:
                log.warning("inbound.spool_read_failed", file=path.name, error=str(exc))
                continue
            _dead_letter(spool, inbound, path, f"unreadable spool file {path.name}: {exc}")
            continue
        size += len(data)
        try:
            arrival = spool.parse(data, path.name)
        except SpoolCorrupt as exc:
            _dead_letter(spool, inbound, path, str(exc), data)
            continue
        read.append((path, data, arrival))
    if not read:
        return 0, more
    crash_point("spool-before-commit")
    stored = _store_or_bury(spool, inbound, read)
    crash_point("spool-after-commit")
    for path, _ in stored:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    if stored:
        _sync_dir(spool.path)
    fresh = sum(1 for _, s in stored if s.created)
    log.info("inbound.spool_imported", files=len(stored), stored=fresh)
    return fresh, more


def _store_or_bury(
    spool: Spool, inbound: Inbound, read: list[tuple[Path, bytes, Arrival]]
) -> list[tuple[Path, Stored]]:
    """Store the batch in one commit; if the database refuses a row of it, each mail alone,
    and a mail whose row it still refuses becomes a dead letter (its sealed bytes kept for a
    retry). Any other fault (a lost or locked database, a full disk, an I/O error) says
    nothing of the mail: it raises, and the files wait for the next import."""
    try:
        stored = _store_synced(inbound, [a for _, _, a in read])
        return [(path, s) for (path, _, _), s in zip(read, stored, strict=True)]
    except Exception as exc:
        if not refuses_the_row(exc):
            raise
        log.warning("inbound.spool_batch_refused", files=len(read), error=_reason(exc))
    out = []
    for path, data, arrival in read:
        try:
            [one] = _store_synced(inbound, [arrival])
        except Exception as exc:
            if not refuses_the_row(exc):
                raise
            reason = f"spool file {path.name} could not be stored: {_reason(exc)}"
            _dead_letter(spool, inbound, path, reason, data)
            continue
        out.append((path, one))
    return out


def refuses_the_row(exc: BaseException) -> bool:
    """Whether ``exc`` is the database refusing a mail's row for what it holds (a constraint,
    a trigger, a value it cannot take or encode): storing it again will fail the same way,
    so it is a dead letter. SQLite's full disk and I/O errors (``OperationalError``), a
    damaged file (``DatabaseError``) and every other fault are not: they pass, and the mail
    must wait for them to, never be buried by them."""
    if isinstance(exc, IntegrityError | DataError):
        return True
    cause: BaseException | None = exc
    if isinstance(exc, StatementError) and not isinstance(exc, DBAPIError):
        cause = exc.orig  # a value a column's bind processor refused
    return isinstance(cause, ValueError | MessageParseError)


def _store_synced(inbound: Inbound, arrivals: list[Arrival]) -> list[Stored]:
    """:meth:`Inbound.store_arrivals`, its commit synced to disk before it returns: the
    spool files are removed after it, durably, so SQLite's ``synchronous=NORMAL`` (a WAL
    commit not yet synced) would let a power cut lose the mail. PostgreSQL never spools."""
    bind = inbound.sessions.kw.get("bind")
    if not isinstance(bind, Engine) or bind.dialect.name != "sqlite":
        return inbound.store_arrivals(arrivals)
    with bind.connect() as conn:
        driver = conn.connection.driver_connection
        assert driver is not None
        driver.execute("PRAGMA synchronous=FULL")  # autocommit driver: outside a transaction
        try:
            synced = Inbound(
                sessionmaker(conn, expire_on_commit=False),
                inbound.config,
                inbound.clock,
                inbound.box,
            )
            return synced.store_arrivals(arrivals)
        finally:
            driver.execute("PRAGMA synchronous=NORMAL")  # the pool's setting again


def _reason(exc: BaseException) -> str:
    return valid_text(f"{type(exc).__name__}: {exc}")[:500]


def import_all(spool: Spool, inbound: Inbound) -> int:
    """Import every file the spool held when called (a batch at a time, oldest first), so
    that what the doors accepted before now is in the database: ``pbm db backup`` calls it
    before it copies. Mail spooled meanwhile is newer than every file taken and may stay.
    Returns how many mails it stored anew."""
    files = spool.files()
    if not files:
        return 0
    last = files[-1].name
    fresh = 0
    while (waiting := spool.files()) and waiting[0].name <= last:
        fresh += import_spool(spool, inbound).stored
        if spool.files()[:1] == waiting[:1]:  # neither stored nor moved aside: say so
            raise SpoolCorrupt(f"spool file {waiting[0]} can be neither imported nor moved")
    return fresh


# -- a dead letter retried --------------------------------------------------------------------

#: The key of an unreadable spool file's dead letter: this, then the file's name.
DEAD_KEY = "spool:"


def retry_dead(spool: Spool | None, inbound: Inbound, mail_id: int) -> Stored | None:
    """Retry dead letter ``mail_id`` (``pbm mail retry``). An unreadable spool file's is read
    again: readable now (its key configured again, the disk mended), the mail is stored as a
    spooled mail is, the dead letter says where it went (ignored from then on) and the file
    is removed; still unreadable, it stays a dead letter with the new reason, the file kept,
    and :class:`PbmError` says why. Any other dead letter is queued again
    (:meth:`Inbound.retry`); then None."""
    with transaction(inbound.sessions) as s:
        row = s.execute(
            select(InboundMail.door, InboundMail.key, InboundMail.status, InboundMail.sealed).where(
                InboundMail.id == mail_id
            )
        ).first()
    if row is None:
        raise NotFound(f"no inbound mail with id {mail_id}")
    if not is_spool_dead_letter(row.door, row.key):
        inbound.retry(mail_id)
        return None
    if row.status != MailStatus.SHUNTED:
        raise PbmError(f"#{mail_id} is not a dead letter: it was {row.status}")
    name = row.key[len(DEAD_KEY) :]
    if spool is None:
        raise PbmError(f"#{mail_id} is the spool file {name}, and no spool_dir is configured")
    path = next((p for p in (spool.path / DEAD / name, spool.path / name) if p.exists()), None)
    if path is None and row.sealed is None:
        raise PbmError(f"#{mail_id}: the spool file {name} is in neither {spool.path} nor dead/")
    kept = f"kept as {path}" if path is not None else "kept in the row"
    try:
        # The file if it is there (a mended disk is read again), else the row's copy of it.
        arrival = spool.read(path) if path is not None else spool.parse(row.sealed, name)
        # Stored before the dead letter is closed: a crash between the two retries again,
        # and the store, keyed as every door's, finds the mail already there.
        [stored] = _store_synced(inbound, [arrival])
    except Exception as exc:
        if not isinstance(exc, SpoolCorrupt) and not refuses_the_row(exc):
            raise  # a lost, locked or full database: nothing learnt about the mail
        reason = str(exc) if isinstance(exc, SpoolCorrupt) else _reason(exc)
        _still_dead(inbound, mail_id, f"{reason} ({kept})")
        raise PbmError(f"#{mail_id} is still a dead letter: {reason}") from exc
    with transaction(inbound.sessions) as s:
        mail = s.get(InboundMail, mail_id)
        assert mail is not None
        mail.status = MailStatus.IGNORED
        mail.note = f"imported on retry as #{stored.id}"
        record(s, inbound.clock, "retry", inbound=mail_id, stored=stored.id)
    if path is not None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    log.info("inbound.spool_retried", id=mail_id, stored=stored.id, file=name)
    return stored


def is_spool_dead_letter(door: str | None, key: str) -> bool:
    """Whether a stored row stands for an unreadable spool file (it holds no mail itself)."""
    return door == "spool" and key.startswith(DEAD_KEY)


def _still_dead(inbound: Inbound, mail_id: int, error: str) -> None:
    with transaction(inbound.sessions) as s:
        mail = s.get(InboundMail, mail_id)
        assert mail is not None
        mail.error = error
        mail.attempts += 1
        record(s, inbound.clock, "retry_failed", inbound=mail_id)


def _dead_letter(
    spool: Spool, inbound: Inbound, path: Path, error: str, sealed: bytes | None = None
) -> None:
    """Record ``path`` as a dead letter and tell the GM, in one transaction (a row without
    its alert would be a dead letter nobody heard of), its ``sealed`` bytes (the file's,
    when they could be read) kept in the row for ``pbm mail retry``; then move it aside. In
    that order: a crash between the two finds the file again, and its dead letter there."""
    key = f"{DEAD_KEY}{path.name}"
    with transaction(inbound.sessions) as s:
        mail = s.scalars(select(InboundMail).where(InboundMail.key == key)).first()
        if mail is None:
            # Shunted from the start: no pass ever claims it as mail to handle.
            mail = InboundMail(
                key=key,
                door="spool",
                raw=b"",
                sealed=sealed,
                status=MailStatus.SHUNTED,
                received_at=inbound.clock.now(),
                note="an unreadable spool file",
                attempts=0,
            )
            s.add(mail)
            s.flush()
        elif sealed is not None:
            mail.sealed = sealed
        if mail.error is None:  # not told yet (a row an older pbm wrote before its alert)
            inbound.shunt_in(s, mail, f"{error} (kept as {spool.path / DEAD / path.name})")
        mail_id = mail.id
    try:
        target = spool.bury(path)
    except OSError as exc:  # told once; tried again each pass, never alerted again
        log.error("inbound.spool_unmovable", id=mail_id, file=str(path), error=str(exc))
        return
    log.error("inbound.spool_dead", id=mail_id, file=str(target), error=error)
