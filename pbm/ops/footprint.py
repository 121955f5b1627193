"""What pbm writes on disk for a config, and whether it can: ``pbm check-config`` lists it.

Each entry is a file or folder pbm creates (the SQLite database, the Maildir, the zine's
archive, the log file) or reads (CA files), with its absolute path (relative paths in the
config are taken from the config file's folder, :mod:`pbm.core.config`), whether it is there, and
if not whether it can be made: the nearest folder that exists must be a folder this user may
write and enter. A path that cannot be made is a problem ``check-config`` fails on, before
the daemon meets it at the first mail.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pbm.core.config import Config

__all__ = ["Entry", "footprint"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One file or folder: ``what`` it is for, where, and its state.

    ``state``: ``exists``, ``create`` (pbm will make it), ``cannot`` (it cannot be made:
    ``reason`` says why), ``missing`` (an input that is not there)."""

    what: str
    path: Path
    folder: bool
    state: str
    reason: str = ""
    by: str = ""  # what creates it


def _nearest(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists():
            return parent
    return Path("/")


def _created(what: str, path: Path, folder: bool, by: str) -> Entry:
    if path.exists():
        if path.is_dir() != folder:
            kind = "a folder" if folder else "a file"
            return Entry(what, path, folder, "cannot", f"{path} exists but is not {kind}", by)
        if not os.access(path, os.W_OK):
            return Entry(what, path, folder, "cannot", f"{path} is not writable by this user", by)
        return Entry(what, path, folder, "exists", by=by)
    base = _nearest(path)
    if not base.is_dir():
        return Entry(what, path, folder, "cannot", f"{base} is a file, not a folder", by)
    if not os.access(base, os.W_OK | os.X_OK):
        return Entry(what, path, folder, "cannot", f"{base} is not writable by this user", by)
    return Entry(what, path, folder, "create", by=by)


def _read(what: str, path: Path) -> Entry:
    if path.is_file() and os.access(path, os.R_OK):
        return Entry(what, path, False, "exists")
    return Entry(what, path, False, "missing", f"{path} is not a readable file")


def footprint(config: Config) -> list[Entry]:
    """Every file and folder ``config`` makes pbm write or read."""
    from pbm.ops.status import sqlite_path

    out: list[Entry] = []
    db = sqlite_path(config.database.url)
    if db is not None:
        out.append(_created("database", db.absolute(), False, "`pbm db upgrade`"))
    if config.database.spool_dir is not None:
        spool = config.database.spool_dir.absolute()
        out.append(_created("spool", spool, True, "the first mail a busy database spools"))
    if config.maildir is not None:
        out.append(_created("maildir", config.maildir.path.absolute(), True, "the first mail"))
    if config.zine.archive_dir is not None:
        out.append(_created("archive", config.zine.archive_dir.absolute(), True, "the first issue"))
    if config.logging.file:
        out.append(_created("log file", Path(config.logging.file).absolute(), False, "start"))
    for door, tls in (("imap", config.imap), ("smtp", config.smtp)):
        if tls is not None and tls.ca_file:
            out.append(_read(f"{door} CA file", Path(tls.ca_file)))
    return out
