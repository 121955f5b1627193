"""Configuration: one TOML file read with ``tomllib`` into frozen dataclasses.

Every key is documented in ``config.example.toml`` (a test loads it, so it cannot rot).
Problems raise :class:`pbm.core.errors.ConfigError` naming the dotted key path, for example
``smtp.port: expected an integer, got 'abc'``. Unknown keys are errors too, with a
"did you mean" hint, because a misspelt key silently ignored is a night of lost mail.

Secrets never need to sit in the file: any string may be written ``"${ENV_NAME}"``, and the
secret keys also have an ``*_env`` twin naming the environment variable to read
(``gm.secret_env = "PBM_GM_SECRET"``).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pbm.core._config_reader import Section, TlsMode, table, tls_mode
from pbm.core.durations import parse_duration
from pbm.core.errors import ConfigError
from pbm.mail.limits import MAX_MAIL_BYTES
from pbm.mail.oauth2 import PROVIDERS, OAuth2Config

__all__ = [
    "Config",
    "ConfigError",
    "DatabaseConfig",
    "GmConfig",
    "HealthConfig",
    "HitForSixConfig",
    "ImapConfig",
    "ListenerConfig",
    "LoggingConfig",
    "MaildirConfig",
    "OAuth2Config",
    "OutboxConfig",
    "RateLimitConfig",
    "RetentionConfig",
    "SchedulerConfig",
    "SecurityConfig",
    "ServerConfig",
    "SmtpConfig",
    "TurnsConfig",
    "WorkersConfig",
    "load_config",
    "parse_config",
]


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
    """Where state lives: an SQLAlchemy URL (SQLite file or PostgreSQL with psycopg).

    On SQLite the doors that answer at once (the SMTP listener, ``pbm ingest``) wait at most
    ``door_wait_ms`` for the write lock, then put the mail in the spool, ``spool_dir``
    (default: ``spool`` beside the database file); see docs/ops/mail-doors.md."""

    url: str
    spool_dir: Path | None = None
    door_wait_ms: int = 250


@dataclass(frozen=True, slots=True)
class GmConfig:
    """The game master: their address and the secret their commands must carry."""

    address: str
    secret: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class SecurityConfig:
    """``secret_key`` derives a player's secret for the one reply that shows it (never stored),
    seals raw mail until it is handled and signs pbm's bounce addresses. ``old_secret_keys``
    are the keys it replaced, still read while a rotation runs (``pbm secrets rotate``)."""

    secret_key: str = field(repr=False)
    old_secret_keys: tuple[str, ...] = field(default=(), repr=False)
    # Low on purpose: secrets are 80 random bits, not passwords (docs/ops/operations.md).
    argon2_time_cost: int = 1
    argon2_memory_kib: int = 64

    @property
    def keys(self) -> tuple[str, ...]:
        """The current key, then the old ones: what is read; only the first writes."""
        return (self.secret_key, *self.old_secret_keys)


@dataclass(frozen=True, slots=True)
class RateLimitConfig:
    """How many mails one sender may send per hour before pbm stops acting on them:
    ``per_hour`` for a proven seat, and for unproven mail per base address (the +tag and a
    Gmail address's dots dropped); ``per_domain`` for all unproven mail from one domain
    (default five times ``per_hour``)."""

    per_hour: int = 30
    per_domain: int = 150


@dataclass(frozen=True, slots=True)
class ListenerConfig:
    """The built-in SMTP listener (the embedded default door)."""

    host: str = "127.0.0.1"
    port: int = 2525
    max_size: int = MAX_MAIL_BYTES
    accept: tuple[str, ...] = ()  # addresses or "@domain"; empty = the server address only


#: How a door logs in: ``password`` (LOGIN / AUTH PLAIN), or SASL ``xoauth2`` /
#: ``oauthbearer`` with an access token from ``[oauth2]``.
AuthMode = Literal["password", "xoauth2", "oauthbearer"]
_AUTH_MODES = ("password", "xoauth2", "oauthbearer")


@dataclass(frozen=True, slots=True)
class ImapConfig:
    """An IMAP mailbox watched with IDLE (or polled)."""

    host: str
    username: str
    password: str = field(repr=False)
    auth: AuthMode = "password"
    port: int = 993
    tls: TlsMode = "tls"
    folder: str = "INBOX"
    processed_folder: str = "Processed"
    poll_seconds: float = 60.0
    timeout: float = 30.0
    idle: bool = True
    # While mail flows: a NOOP every hot_poll_seconds, for hot_seconds after the last mail.
    hot_poll_seconds: float = 0.05
    hot_seconds: float = 10.0
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
    auth: AuthMode = "password"
    #: pbm's own DKIM signature (RFC 6376) on what it sends: the private key's path, the
    #: selector (the key is published at ``<selector>._domainkey.<domain>``) and the domain.
    dkim_key: Path | None = None
    dkim_selector: str = ""
    dkim_domain: str = ""


@dataclass(frozen=True, slots=True)
class MaildirConfig:
    """Outbound mail written to a local Maildir instead of sent (the embedded default)."""

    path: Path


@dataclass(frozen=True, slots=True)
class OutboxConfig:
    """Retries of outbound mail: exponential backoff from ``backoff_seconds``.

    ``send_lease_seconds``: a row being sent is claimed this long; if its sender dies
    mid-send, another worker sends it once the lease has run out (at least once). It must
    exceed ``[smtp] timeout``, or a live but slow send could be claimed and sent again.
    """

    max_attempts: int = 8
    backoff_seconds: float = 30.0
    backoff_max_seconds: float = 3600.0
    send_lease_seconds: float = 300.0


@dataclass(frozen=True, slots=True)
class SchedulerConfig:
    """The scheduler tick: the GM's daily digest hour (UTC), whether it is sent at all, and
    the loop's longest sleep."""

    digest_hour: int = 7
    tick_seconds: float = 60.0
    daily_digest: bool = True

    @property
    def digest_at(self) -> int | None:
        """The daily digest's hour, None when it is not sent (``daily_digest = false``)."""
        return self.digest_hour if self.daily_digest else None


@dataclass(frozen=True, slots=True)
class TurnsConfig:
    """How competitions run turn by turn (a competition may override each in its settings).

    ``schedule``: the default cadence of deadlines (Flungo's, which checks it when the app
    starts: a section's values are read here, their meaning is the game's);
    ``early_seconds``: once every team's orders are in, the stage runs this long after the
    last of them (time for second thoughts); ``grace_seconds``: after a deadline, defaults
    are played only this much later; ``reminders``: seconds before a deadline at which teams
    whose orders are missing are reminded; ``hold_share``: the pre-run check holds the stage
    and alerts the GM when more than this share of teams sent nothing for it;
    ``hold_on_intake_errors``: and when mail failed to be handled (dead letters) since it
    opened; ``naming_after_full``: once a competition is full, naming (and joining) closes and
    the draw is made this many seconds later, if that is before the naming deadline.

    A large stage is split by match across workers: ``split_matches``, a stage with at least
    this many matches gets one work row per match (0: never split); ``match_batch``, how many
    rows a worker claims at once; ``match_lease_seconds``, how long a claim is held before
    another worker may retake it (the claimant died). Once such a stage is assembled, its
    report mails are split too: ``mail_batch`` teams' mails to a row, claimed and queued by
    any worker under the same lease.

    ``nmr_limit``: a team that sends nothing for this many stages in a row (no move
    received; a manager away or a retired team is not counted) is reported to the GM, and
    the first address on the competition's standby list is offered the seat (0: never).
    """

    schedule: str = "every 2d 20:00 UTC"
    early_seconds: float = 600.0
    grace_seconds: float = 0.0
    reminders: tuple[float, ...] = (86400.0, 3600.0)
    hold_share: float = 0.5
    hold_on_intake_errors: bool = True
    naming_after_full: float | None = None
    split_matches: int = 64
    match_batch: int = 8
    match_lease_seconds: float = 300.0
    mail_batch: int = 32
    nmr_limit: int = 0


@dataclass(frozen=True, slots=True)
class WorkersConfig:
    """The workers' registry: each ``pbm serve`` writes its heartbeat every
    ``heartbeat_seconds``; ``pbm status`` calls a worker stale after ``stale_seconds`` without
    one (it died, or is stuck)."""

    heartbeat_seconds: float = 15.0
    stale_seconds: float = 60.0


@dataclass(frozen=True, slots=True)
class RetentionConfig:
    """How long pbm keeps what it does not need (``pbm.ops.retention``): a handled mail's raw
    bytes (in and out) ``raw_days`` days; a non-player's address only until the answer to it
    has been sent."""

    raw_days: int = 30


@dataclass(frozen=True, slots=True)
class HealthConfig:
    """What ``pbm health`` tolerates: ``heartbeat_seconds``, the age past which a worker's
    heartbeat is not fresh (with ``pbm run --once`` from cron, above the cron interval);
    ``max_outbox``, mail due and unsent; ``max_dead_letters``, mail that failed to be handled;
    ``max_spool_seconds``, the age of the oldest mail in the spool (every pass empties it)."""

    heartbeat_seconds: float = 120.0
    max_outbox: int = 500
    max_dead_letters: int = 10
    max_spool_seconds: float = 120.0


@dataclass(frozen=True, slots=True)
class ZineConfig:
    """The zine after every turn: ``mail`` each player their issue (text and HTML, with the
    PDF attached or a link, by the player's choice); ``archive_dir``, if set, is rebuilt after
    each issue; ``archive_url`` is where that folder is served (for the links); ``pdf`` makes
    the PDF (Typst) at all."""

    mail: bool = True
    pdf: bool = True
    archive_dir: Path | None = None
    archive_url: str | None = None


@dataclass(frozen=True, slots=True)
class HitForSixConfig:
    """Hit for Six by mail: ``over_hours``, each Test by Post over's time when ``TEST NEW``
    names no pace of its own (``TEST NEW 3 seats 24h``)."""

    over_hours: int = 48


@dataclass(frozen=True, slots=True)
class LoggingConfig:
    """Structured logs to stderr, or appended to ``file`` (reopened on SIGHUP)."""

    format: Literal["console", "json"] = "console"
    level: str = "info"
    file: str | None = None


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
    oauth2: OAuth2Config | None = None
    maildir: MaildirConfig | None = None
    outbox: OutboxConfig = OutboxConfig()
    scheduler: SchedulerConfig = SchedulerConfig()
    turns: TurnsConfig = TurnsConfig()
    workers: WorkersConfig = WorkersConfig()
    health: HealthConfig = HealthConfig()
    zine: ZineConfig = ZineConfig()
    retention: RetentionConfig = RetentionConfig()
    hitforsix: HitForSixConfig = HitForSixConfig()
    logging: LoggingConfig = LoggingConfig()
    source: Path | None = None
    #: Bytes in one mail at every door (``[smtp_listener] max_size``, read even when the
    #: listener is off): the listener refuses more at the protocol, the IMAP door fetches
    #: only its headers, ``pbm ingest`` reads no further.
    max_mail_bytes: int = MAX_MAIL_BYTES

    def secrets(self) -> tuple[str, ...]:
        """Every configured secret, for redaction from logs and echoes."""
        found = [self.gm.secret, *self.security.keys]
        if self.imap is not None:
            found.append(self.imap.password)
        if self.smtp is not None and self.smtp.password:
            found.append(self.smtp.password)
        if self.oauth2 is not None:
            found.extend(self.oauth2.secrets())
        return tuple(s for s in found if s)


def _sqlite_url_from(url: str, base: Path | None) -> str:
    """A SQLite URL whose relative file is taken from ``base`` (the config's directory)."""
    if base is None or not url.startswith("sqlite"):
        return url
    from sqlalchemy.engine import make_url

    u = make_url(url)
    if not u.database or u.database == ":memory:" or u.database.startswith("file:"):
        return url
    if Path(u.database).is_absolute():
        return url
    return u.set(database=str(base / u.database)).render_as_string(hide_password=False)


def _beside_sqlite(url: str, name: str) -> Path | None:
    """``name`` in the folder of a SQLite file's URL (None for PostgreSQL or memory)."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    if not u.drivername.startswith("sqlite") or not u.database or u.database == ":memory:":
        return None
    if u.database.startswith("file:"):
        return None
    return Path(u.database).absolute().parent / name


def _path_from(value: str, base: Path | None) -> Path:
    """``value`` as a path, a relative one taken from ``base`` (the config's directory)."""
    path = Path(value).expanduser()
    return path if base is None or path.is_absolute() else base / path


def _optional_path(value: str, base: Path | None) -> str | None:
    return str(_path_from(value, base)) if value else None


def parse_config(
    data: Mapping[str, Any], env: Mapping[str, str] | None = None, source: Path | None = None
) -> Config:
    """Build a :class:`Config` from parsed TOML; ``env`` defaults to ``os.environ``.

    Relative paths (the SQLite file, the Maildir, the archive, the log file, CA files) are
    taken from the config file's directory when ``source`` is given, not from the current
    directory: ``pbm`` run from anywhere (cron, systemd, a shell) finds the same files."""
    root = Section(data, "", os.environ if env is None else env)
    base = source.absolute().parent if source is not None else None

    s = table(root, "server", required=True)
    assert s is not None
    server = ServerConfig(
        address=s.address("address"),
        display_name=s.text("display_name", "Cosmic Celebrity Cricket"),
        domain=s.text("domain", ""),
    )
    s.done()

    d = table(root, "database", required=True)
    assert d is not None
    url = d.text("url")
    if not url.startswith(("sqlite", "postgresql")):
        raise ConfigError("database.url", f"expected a sqlite:// or postgresql:// URL, got {url!r}")
    url = _sqlite_url_from(url, base)
    spool = d.text("spool_dir", "")
    database = DatabaseConfig(
        url=url,
        spool_dir=_path_from(spool, base) if spool else _beside_sqlite(url, "spool"),
        door_wait_ms=d.integer("door_wait_ms", 250, lo=1, hi=60_000),
    )
    d.done()

    g = table(root, "gm", required=True)
    assert g is not None
    gm = GmConfig(address=g.address("address"), secret=g.secret("secret"))
    if len(gm.secret) < 8:
        raise ConfigError("gm.secret", "too short: use at least 8 characters")
    g.done()

    c = table(root, "security", required=True)
    assert c is not None
    security = SecurityConfig(
        secret_key=c.secret("secret_key"),
        old_secret_keys=c.str_list("old_secret_keys"),
        argon2_time_cost=c.integer("argon2_time_cost", 1, lo=1, hi=20),
        # argon2 needs at least 8 KiB per lane (pbm uses one lane)
        argon2_memory_kib=c.integer("argon2_memory_kib", 64, lo=8, hi=4_194_304),
    )
    if len(security.secret_key) < 16:
        raise ConfigError("security.secret_key", "too short: use at least 16 characters")
    if security.secret_key in security.old_secret_keys:
        raise ConfigError("security.old_secret_keys", "holds the current secret_key")
    c.done()

    r = table(root, "rate_limit", required=False)
    rate = RateLimitConfig()
    if r is not None:
        per_hour = r.integer("per_hour", 30, lo=1)
        rate = RateLimitConfig(
            per_hour=per_hour, per_domain=r.integer("per_domain", 5 * per_hour, lo=1)
        )
        r.done()

    listener = None
    max_mail_bytes = MAX_MAIL_BYTES
    li = table(root, "smtp_listener", required=False)
    if li is not None:
        enabled = li.flag("enabled", True)
        # every door's cap, the listener's off or on: one setting, where operators look first
        max_mail_bytes = li.integer("max_size", MAX_MAIL_BYTES, lo=1024)
        cfg = ListenerConfig(
            host=li.text("host", "127.0.0.1"),
            port=li.integer("port", 2525, lo=0, hi=65535),
            max_size=max_mail_bytes,
            accept=tuple(a.lower() for a in li.str_list("accept")),
        )
        li.done()
        listener = cfg if enabled else None

    imap = None
    im = table(root, "imap", required=False)
    if im is not None:
        tls = tls_mode(im, "tls")
        auth = _auth_mode(im)
        imap = ImapConfig(
            host=im.text("host"),
            username=im.text("username"),
            password=im.secret("password", required=auth == "password"),
            auth=auth,
            port=im.integer("port", 993 if tls == "tls" else 143, lo=1, hi=65535),
            tls=tls,
            folder=im.text("folder", "INBOX"),
            processed_folder=im.text("processed_folder", "Processed"),
            poll_seconds=im.number("poll_seconds", 60.0, lo=0.1),
            timeout=im.number("timeout", 30.0, lo=0.1),
            idle=im.flag("idle", True),
            hot_poll_seconds=im.number("hot_poll_seconds", 0.05, lo=0.0),
            hot_seconds=im.number("hot_seconds", 10.0, lo=0.0),
            ca_file=_optional_path(im.text("ca_file", ""), base),
            verify=im.flag("verify", True),
        )
        im.done()

    smtp = None
    sm = table(root, "smtp", required=False)
    if sm is not None:
        tls = tls_mode(sm, "starttls")
        dkim_key = sm.text("dkim_key", "")
        smtp = SmtpConfig(
            host=sm.text("host"),
            port=sm.integer("port", 465 if tls == "tls" else 587, lo=1, hi=65535),
            tls=tls,
            username=sm.text("username", ""),
            password=sm.secret("password", required=False),
            timeout=sm.number("timeout", 30.0, lo=0.1),
            ca_file=_optional_path(sm.text("ca_file", ""), base),
            verify=sm.flag("verify", True),
            auth=_auth_mode(sm),
            dkim_key=Path(dkim_key) if dkim_key else None,
            dkim_selector=sm.text("dkim_selector", ""),
            dkim_domain=sm.text("dkim_domain", "").lower(),
        )
        if smtp.auth != "password" and not smtp.username:
            raise ConfigError(sm.key("username"), f"needed for auth = {smtp.auth!r}")
        if smtp.dkim_key is not None and not smtp.dkim_selector:
            raise ConfigError(sm.key("dkim_selector"), "needed with dkim_key")
        if smtp.dkim_key is None and (smtp.dkim_selector or smtp.dkim_domain):
            raise ConfigError(sm.key("dkim_key"), "missing: dkim_selector/dkim_domain need it")
        sm.done()

    oauth2 = None
    oa = table(root, "oauth2", required=False)
    if oa is not None:
        oauth2 = _oauth2(oa)
        oa.done()
    uses = [d for d in (imap, smtp) if d is not None and d.auth != "password"]
    if uses and oauth2 is None:
        door = "imap" if imap in uses else "smtp"
        raise ConfigError(f"{door}.auth", "OAuth2 needs an [oauth2] section")

    maildir = None
    md = table(root, "maildir", required=False)
    if md is not None:
        maildir = MaildirConfig(path=_path_from(md.text("path"), base))
        md.done()

    if smtp is None and maildir is None:
        raise ConfigError("smtp", "no outbound transport: add an [smtp] or a [maildir] section")
    if smtp is not None and maildir is not None:
        raise ConfigError("maildir", "choose one outbound transport: [smtp] or [maildir]")
    if listener is None and imap is None:
        raise ConfigError(
            "smtp_listener", "no way for mail to come in: add [smtp_listener] or [imap]"
        )

    o = table(root, "outbox", required=False)
    outbox = OutboxConfig()
    if o is not None:
        outbox = OutboxConfig(
            max_attempts=o.integer("max_attempts", 8, lo=1),
            backoff_seconds=o.number("backoff_seconds", 30.0, lo=0),
            backoff_max_seconds=o.number("backoff_max_seconds", 3600.0, lo=0),
            send_lease_seconds=o.number("send_lease_seconds", 300.0, lo=1),
        )
        o.done()
    if smtp is not None and outbox.send_lease_seconds <= smtp.timeout:
        raise ConfigError(
            "outbox.send_lease_seconds",
            f"{outbox.send_lease_seconds:g} s is not longer than smtp.timeout "
            f"({smtp.timeout:g} s): a slow send could be claimed again and sent twice",
        )

    sc = table(root, "scheduler", required=False)
    scheduler = SchedulerConfig()
    if sc is not None:
        scheduler = SchedulerConfig(
            digest_hour=sc.integer("digest_hour", 7, lo=0, hi=23),
            tick_seconds=sc.number("tick_seconds", 60.0, lo=0.05),
            daily_digest=sc.flag("daily_digest", True),
        )
        sc.done()

    tu = table(root, "turns", required=False)
    turns = TurnsConfig()
    if tu is not None:
        after_full = tu.number("naming_after_full", -1.0)
        try:
            reminders = tuple(parse_duration(x).total_seconds() for x in tu.str_list("reminders"))
        except ValueError as exc:
            raise ConfigError(tu.key("reminders"), str(exc)) from exc
        turns = TurnsConfig(
            schedule=tu.text("schedule", TurnsConfig().schedule),
            early_seconds=tu.number("early_seconds", 600.0, lo=0),
            grace_seconds=tu.number("grace_seconds", 0.0, lo=0),
            reminders=reminders if tu.has("reminders") else TurnsConfig().reminders,
            hold_share=tu.number("hold_share", 0.5, lo=0),
            hold_on_intake_errors=tu.flag("hold_on_intake_errors", True),
            naming_after_full=after_full if after_full >= 0 else None,
            split_matches=tu.integer("split_matches", TurnsConfig().split_matches, lo=0),
            match_batch=tu.integer("match_batch", TurnsConfig().match_batch, lo=1),
            match_lease_seconds=tu.number(
                "match_lease_seconds", TurnsConfig().match_lease_seconds, lo=1.0
            ),
            mail_batch=tu.integer("mail_batch", TurnsConfig().mail_batch, lo=1),
            nmr_limit=tu.integer("nmr_limit", TurnsConfig().nmr_limit, lo=0, hi=1000),
        )
        tu.done()

    wk = table(root, "workers", required=False)
    workers = WorkersConfig()
    if wk is not None:
        workers = WorkersConfig(
            heartbeat_seconds=wk.number("heartbeat_seconds", 15.0, lo=0.1),
            stale_seconds=wk.number("stale_seconds", 60.0, lo=0.1),
        )
        wk.done()

    he = table(root, "health", required=False)
    health = HealthConfig()
    if he is not None:
        health = HealthConfig(
            heartbeat_seconds=he.number("heartbeat_seconds", 120.0, lo=1.0),
            max_outbox=he.integer("max_outbox", 500, lo=0),
            max_dead_letters=he.integer("max_dead_letters", 10, lo=0),
            max_spool_seconds=he.number("max_spool_seconds", 120.0, lo=1.0),
        )
        he.done()

    zn = table(root, "zine", required=False)
    zine = ZineConfig()
    if zn is not None:
        archive = zn.text("archive_dir", "")
        url = zn.text("archive_url", "")
        zine = ZineConfig(
            mail=zn.flag("mail", True),
            pdf=zn.flag("pdf", True),
            archive_dir=_path_from(archive, base) if archive else None,
            archive_url=url or None,
        )
        zn.done()

    rt = table(root, "retention", required=False)
    retention = RetentionConfig()
    if rt is not None:
        retention = RetentionConfig(raw_days=rt.integer("raw_days", 30, lo=1, hi=36_500))
        rt.done()
    hs = table(root, "hitforsix", required=False)
    hitforsix = HitForSixConfig()
    if hs is not None:
        hitforsix = HitForSixConfig(over_hours=hs.integer("over_hours", 48, lo=1, hi=24 * 14))
        hs.done()

    lg = table(root, "logging", required=False)
    logging_cfg = LoggingConfig()
    if lg is not None:
        fmt = lg.choice("format", "console", ("console", "json"))
        logging_cfg = LoggingConfig(
            format="json" if fmt == "json" else "console",
            level=lg.choice("level", "info", ("debug", "info", "warning", "error")),
            file=_optional_path(lg.text("file", ""), base),
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
        oauth2=oauth2,
        maildir=maildir,
        outbox=outbox,
        scheduler=scheduler,
        turns=turns,
        workers=workers,
        health=health,
        zine=zine,
        retention=retention,
        hitforsix=hitforsix,
        logging=logging_cfg,
        source=source,
        max_mail_bytes=max_mail_bytes,
    )


def _auth_mode(sec: Section) -> AuthMode:
    mode = sec.choice("auth", "password", _AUTH_MODES)
    return (
        "xoauth2" if mode == "xoauth2" else "oauthbearer" if mode == "oauthbearer" else "password"
    )


def _oauth2(oa: Section) -> OAuth2Config:
    """``[oauth2]``: a provider's preset (or ``custom``), the client and the refresh token."""
    provider = oa.choice("provider", "custom", ("microsoft", "google", "custom"))
    preset = PROVIDERS.get(provider)
    tenant = oa.text("tenant", "common") if provider == "microsoft" else ""
    if tenant and not all(c.isalnum() or c in ".-" for c in tenant):
        raise ConfigError(oa.key("tenant"), f"not a tenant name or id: {tenant!r}")
    url = oa.text("token_url", preset.token_url.format(tenant=tenant) if preset else None)
    _check_token_url(oa, url)
    inline = oa.secret("refresh_token", required=False)
    path = oa.text("refresh_token_file", "")
    if bool(inline) == bool(path):
        raise ConfigError(
            oa.key("refresh_token_file"), "give refresh_token (or refresh_token_env) or this"
        )
    return OAuth2Config(
        provider=provider,
        token_url=url,
        client_id=oa.text("client_id"),
        scope=oa.text("scope", preset.scope if preset else ""),
        client_secret=oa.secret("client_secret", required=False),
        refresh_token=inline,
        refresh_token_file=Path(path) if path else None,
        timeout=oa.number("timeout", 30.0, lo=0.1),
        ca_file=oa.text("ca_file", "") or None,
    )


def _check_token_url(oa: Section, url: str) -> None:
    # The refresh token and client secret go to this URL: never in clear over the network.
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    loopback = parts.hostname in ("127.0.0.1", "::1", "localhost")
    if parts.scheme != "https" and not (parts.scheme == "http" and loopback):
        raise ConfigError(oa.key("token_url"), f"must be an https:// URL, got {url!r}")


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
