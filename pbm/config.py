"""Configuration: one TOML file read with ``tomllib`` into frozen dataclasses.

Every key is documented in ``config.example.toml`` (a test loads it, so it cannot rot).
Problems raise :class:`pbm.errors.ConfigError` naming the dotted key path, for example
``smtp.port: expected an integer, got 'abc'``. Unknown keys are errors too, with a
"did you mean" hint, because a misspelt key silently ignored is a night of lost mail.

Secrets never need to sit in the file: any string may be written ``"${ENV_NAME}"``, and the
secret keys also have an ``*_env`` twin naming the environment variable to read
(``gm.secret_env = "PBM_GM_SECRET"``).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pbm.errors import ConfigError

__all__ = [
    "Config",
    "ConfigError",
    "DatabaseConfig",
    "GmConfig",
    "ImapConfig",
    "ListenerConfig",
    "LoggingConfig",
    "MaildirConfig",
    "OutboxConfig",
    "RateLimitConfig",
    "SchedulerConfig",
    "SecurityConfig",
    "ServerConfig",
    "SmtpConfig",
    "load_config",
    "parse_config",
]

TlsMode = Literal["tls", "starttls", "plain"]
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+$")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Who pbm is on the mail: its own address (From of replies, loop detection)."""

    address: str
    display_name: str = "Cosmic Celebrity Cricket"
    domain: str = ""  # for Message-IDs; defaults to the address's domain

    @property
    def message_id_domain(self) -> str:
        """The domain used on the right of generated Message-IDs."""
        return self.domain or self.address.rsplit("@", 1)[-1]


@dataclass(frozen=True, slots=True)
class DatabaseConfig:
    """Where state lives: an SQLAlchemy URL (SQLite file or PostgreSQL with psycopg)."""

    url: str


@dataclass(frozen=True, slots=True)
class GmConfig:
    """The game master: their address and the secret their commands must carry."""

    address: str
    secret: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class SecurityConfig:
    """``secret_key`` derives a player's secret for the one reply that shows it (never stored)."""

    secret_key: str = field(repr=False)
    argon2_time_cost: int = 2
    argon2_memory_kib: int = 19456


@dataclass(frozen=True, slots=True)
class RateLimitConfig:
    """How many mails one sender may send per hour before pbm stops acting on them."""

    per_hour: int = 30


@dataclass(frozen=True, slots=True)
class ListenerConfig:
    """The built-in SMTP listener (the embedded default door)."""

    host: str = "127.0.0.1"
    port: int = 2525
    max_size: int = 1_048_576
    accept: tuple[str, ...] = ()  # addresses or "@domain"; empty = the server address only


@dataclass(frozen=True, slots=True)
class ImapConfig:
    """An IMAP mailbox watched with IDLE (or polled)."""

    host: str
    username: str
    password: str = field(repr=False)
    port: int = 993
    tls: TlsMode = "tls"
    folder: str = "INBOX"
    processed_folder: str = "Processed"
    poll_seconds: float = 60.0
    timeout: float = 30.0
    idle: bool = True
    ca_file: str | None = None
    verify: bool = True


@dataclass(frozen=True, slots=True)
class SmtpConfig:
    """Outbound SMTP relay."""

    host: str
    port: int = 587
    tls: TlsMode = "starttls"
    username: str = ""
    password: str = field(default="", repr=False)
    timeout: float = 30.0
    ca_file: str | None = None
    verify: bool = True


@dataclass(frozen=True, slots=True)
class MaildirConfig:
    """Outbound mail written to a local Maildir instead of sent (the embedded default)."""

    path: Path


@dataclass(frozen=True, slots=True)
class OutboxConfig:
    """Retries of outbound mail: exponential backoff from ``backoff_seconds``."""

    max_attempts: int = 8
    backoff_seconds: float = 30.0
    backoff_max_seconds: float = 3600.0


@dataclass(frozen=True, slots=True)
class SchedulerConfig:
    """The scheduler tick: the GM's daily digest hour (UTC) and the loop's longest sleep."""

    digest_hour: int = 7
    tick_seconds: float = 60.0


@dataclass(frozen=True, slots=True)
class LoggingConfig:
    """Structured logs to stderr."""

    format: Literal["console", "json"] = "console"
    level: str = "info"


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration."""

    server: ServerConfig
    database: DatabaseConfig
    gm: GmConfig
    security: SecurityConfig
    rate_limit: RateLimitConfig = RateLimitConfig()
    listener: ListenerConfig | None = None
    imap: ImapConfig | None = None
    smtp: SmtpConfig | None = None
    maildir: MaildirConfig | None = None
    outbox: OutboxConfig = OutboxConfig()
    scheduler: SchedulerConfig = SchedulerConfig()
    logging: LoggingConfig = LoggingConfig()
    source: Path | None = None

    def secrets(self) -> tuple[str, ...]:
        """Every configured secret, for redaction from logs and echoes."""
        found = [self.gm.secret, self.security.secret_key]
        if self.imap is not None:
            found.append(self.imap.password)
        if self.smtp is not None and self.smtp.password:
            found.append(self.smtp.password)
        return tuple(s for s in found if s)


class _Section:
    """Typed reads from one TOML table, remembering which keys were used."""

    def __init__(self, data: Mapping[str, Any], path: str, env: Mapping[str, str]) -> None:
        self.data = data
        self.path = path
        self.env = env
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def _get(self, name: str) -> Any:
        self.used.add(name)
        return self.data.get(name)

    def has(self, name: str) -> bool:
        return name in self.data

    def text(self, name: str, default: str | None = None) -> str:
        value = self._get(name)
        if value is None:
            if default is None:
                raise ConfigError(self.key(name), "missing (required)")
            return default
        if not isinstance(value, str):
            raise ConfigError(self.key(name), f"expected a string, got {value!r}")
        return self._expand(name, value)

    def _expand(self, name: str, value: str) -> str:
        def sub(m: re.Match[str]) -> str:
            var = m.group(1)
            if var not in self.env:
                raise ConfigError(self.key(name), f"environment variable {var} is not set")
            return self.env[var]

        return _ENV_REF.sub(sub, value)

    def secret(self, name: str, *, required: bool = True) -> str:
        """A secret: ``name = "..."`` / ``"${VAR}"``, or ``name_env = "VAR"``."""
        env_key = f"{name}_env"
        if self.has(name) and self.has(env_key):
            raise ConfigError(self.key(name), f"give either {name} or {env_key}, not both")
        if self.has(env_key):
            var = self.text(env_key)
            if var not in self.env or not self.env[var]:
                raise ConfigError(self.key(env_key), f"environment variable {var} is not set")
            return self.env[var]
        if self.has(name):
            value = self.text(name)
            if required and not value:
                raise ConfigError(self.key(name), "must not be empty")
            return value
        self.used.update({name, env_key})
        if required:
            raise ConfigError(self.key(env_key), f"missing (set {name}_env or {name})")
        return ""

    def integer(self, name: str, default: int, *, lo: int | None = None, hi: int | None = None) -> int:
        value = self._get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(self.key(name), f"expected an integer, got {value!r}")
        self._range(name, value, lo, hi)
        return value

    def number(self, name: str, default: float, *, lo: float | None = None) -> float:
        value = self._get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(self.key(name), f"expected a number, got {value!r}")
        self._range(name, value, lo, None)
        return float(value)

    def _range(self, name: str, value: float, lo: float | None, hi: float | None) -> None:
        if lo is not None and value < lo:
            raise ConfigError(self.key(name), f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            raise ConfigError(self.key(name), f"must be at most {hi}, got {value}")

    def flag(self, name: str, default: bool) -> bool:
        value = self._get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(self.key(name), f"expected true or false, got {value!r}")
        return value

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.text(name, default)
        if value not in choices:
            raise ConfigError(
                self.key(name), f"expected one of {', '.join(choices)}, got {value!r}"
            )
        return value

    def str_list(self, name: str) -> tuple[str, ...]:
        value = self._get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(self.key(name), f"expected a list of strings, got {value!r}")
        return tuple(self._expand(name, v) for v in value)

    def address(self, name: str, default: str | None = None) -> str:
        value = self.text(name, default)
        if not _ADDRESS.match(value):
            raise ConfigError(self.key(name), f"expected an email address, got {value!r}")
        return value.lower()

    def done(self, allowed: tuple[str, ...] = ()) -> None:
        """Fail on keys nobody read: they are typos or belong elsewhere."""
        known = self.used | set(allowed)
        for name in self.data:
            if name not in known:
                hint = difflib.get_close_matches(name, sorted(known), n=1)
                extra = f" (did you mean {hint[0]!r}?)" if hint else ""
                raise ConfigError(self.key(name), f"unknown key{extra}")


def _table(root: _Section, name: str, *, required: bool) -> _Section | None:
    value = root._get(name)
    if value is None:
        if required:
            raise ConfigError(name, "missing section (required)")
        return None
    if not isinstance(value, dict):
        raise ConfigError(name, f"expected a table [{name}], got {value!r}")
    return _Section(value, root.key(name), root.env)


def _tls(sec: _Section, default: str) -> TlsMode:
    mode = sec.choice("tls", default, ("tls", "starttls", "plain"))
    return "tls" if mode == "tls" else "starttls" if mode == "starttls" else "plain"


def parse_config(
    data: Mapping[str, Any], env: Mapping[str, str] | None = None, source: Path | None = None
) -> Config:
    """Build a :class:`Config` from parsed TOML; ``env`` defaults to ``os.environ``."""
    root = _Section(data, "", os.environ if env is None else env)

    s = _table(root, "server", required=True)
    assert s is not None
    server = ServerConfig(
        address=s.address("address"),
        display_name=s.text("display_name", "Cosmic Celebrity Cricket"),
        domain=s.text("domain", ""),
    )
    s.done()

    d = _table(root, "database", required=True)
    assert d is not None
    url = d.text("url")
    if not url.startswith(("sqlite", "postgresql")):
        raise ConfigError("database.url", f"expected a sqlite:// or postgresql:// URL, got {url!r}")
    database = DatabaseConfig(url=url)
    d.done()

    g = _table(root, "gm", required=True)
    assert g is not None
    gm = GmConfig(address=g.address("address"), secret=g.secret("secret"))
    if len(gm.secret) < 8:
        raise ConfigError("gm.secret", "too short: use at least 8 characters")
    g.done()

    c = _table(root, "security", required=True)
    assert c is not None
    security = SecurityConfig(
        secret_key=c.secret("secret_key"),
        argon2_time_cost=c.integer("argon2_time_cost", 2, lo=1, hi=20),
        argon2_memory_kib=c.integer("argon2_memory_kib", 19456, lo=1024, hi=4_194_304),
    )
    if len(security.secret_key) < 16:
        raise ConfigError("security.secret_key", "too short: use at least 16 characters")
    c.done()

    r = _table(root, "rate_limit", required=False)
    rate = RateLimitConfig()
    if r is not None:
        rate = RateLimitConfig(per_hour=r.integer("per_hour", 30, lo=1))
        r.done()

    listener = None
    li = _table(root, "smtp_listener", required=False)
    if li is not None:
        enabled = li.flag("enabled", True)
        cfg = ListenerConfig(
            host=li.text("host", "127.0.0.1"),
            port=li.integer("port", 2525, lo=0, hi=65535),
            max_size=li.integer("max_size", 1_048_576, lo=1024),
            accept=tuple(a.lower() for a in li.str_list("accept")),
        )
        li.done()
        listener = cfg if enabled else None

    imap = None
    im = _table(root, "imap", required=False)
    if im is not None:
        tls = _tls(im, "tls")
        imap = ImapConfig(
            host=im.text("host"),
            username=im.text("username"),
            password=im.secret("password"),
            port=im.integer("port", 993 if tls == "tls" else 143, lo=1, hi=65535),
            tls=tls,
            folder=im.text("folder", "INBOX"),
            processed_folder=im.text("processed_folder", "Processed"),
            poll_seconds=im.number("poll_seconds", 60.0, lo=0.1),
            timeout=im.number("timeout", 30.0, lo=0.1),
            idle=im.flag("idle", True),
            ca_file=im.text("ca_file", "") or None,
            verify=im.flag("verify", True),
        )
        im.done()

    smtp = None
    sm = _table(root, "smtp", required=False)
    if sm is not None:
        tls = _tls(sm, "starttls")
        smtp = SmtpConfig(
            host=sm.text("host"),
            port=sm.integer("port", 465 if tls == "tls" else 587, lo=1, hi=65535),
            tls=tls,
            username=sm.text("username", ""),
            password=sm.secret("password", required=False),
            timeout=sm.number("timeout", 30.0, lo=0.1),
            ca_file=sm.text("ca_file", "") or None,
            verify=sm.flag("verify", True),
        )
        sm.done()

    maildir = None
    md = _table(root, "maildir", required=False)
    if md is not None:
        maildir = MaildirConfig(path=Path(md.text("path")))
        md.done()

    if smtp is None and maildir is None:
        raise ConfigError("smtp", "no outbound transport: add an [smtp] or a [maildir] section")
    if smtp is not None and maildir is not None:
        raise ConfigError("maildir", "choose one outbound transport: [smtp] or [maildir]")
    if listener is None and imap is None:
        raise ConfigError(
            "smtp_listener", "no way for mail to come in: add [smtp_listener] or [imap]"
        )

    o = _table(root, "outbox", required=False)
    outbox = OutboxConfig()
    if o is not None:
        outbox = OutboxConfig(
            max_attempts=o.integer("max_attempts", 8, lo=1),
            backoff_seconds=o.number("backoff_seconds", 30.0, lo=0),
            backoff_max_seconds=o.number("backoff_max_seconds", 3600.0, lo=0),
        )
        o.done()

    sc = _table(root, "scheduler", required=False)
    scheduler = SchedulerConfig()
    if sc is not None:
        scheduler = SchedulerConfig(
            digest_hour=sc.integer("digest_hour", 7, lo=0, hi=23),
            tick_seconds=sc.number("tick_seconds", 60.0, lo=0.05),
        )
        sc.done()

    lg = _table(root, "logging", required=False)
    logging_cfg = LoggingConfig()
    if lg is not None:
        fmt = lg.choice("format", "console", ("console", "json"))
        logging_cfg = LoggingConfig(
            format="json" if fmt == "json" else "console",
            level=lg.choice("level", "info", ("debug", "info", "warning", "error")),
        )
        lg.done()

    root.done()
    return Config(
        server=server,
        database=database,
        gm=gm,
        security=security,
        rate_limit=rate,
        listener=listener,
        imap=imap,
        smtp=smtp,
        maildir=maildir,
        outbox=outbox,
        scheduler=scheduler,
        logging=logging_cfg,
        source=source,
    )


def load_config(path: str | Path, env: Mapping[str, str] | None = None) -> Config:
    """Read and check a TOML config file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("", f"cannot read {p}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("", f"{p} is not valid TOML: {exc}") from exc
    return parse_config(data, env, source=p)
