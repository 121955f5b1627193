"""The tables. Engine state is stored as JSON (or its canonical text) in one column;
``engine/`` never sees these.

Status values are :class:`~enum.StrEnum` members stored as plain strings, so a new status needs
no migration; the columns read back as ``str``, which compares equal to the members.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    event,
    func,
    inspect,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from pbm.core.types import UtcDateTime
from pbm.secrets.columns import ScrubbedBytes, ScrubbedText

__all__ = [
    "Base",
    "Bounce",
    "Competition",
    "CompetitionKind",
    "CompetitionStatus",
    "Event",
    "Flag",
    "FlagStatus",
    "InboundMail",
    "Incident",
    "JobRun",
    "MailStatus",
    "NamingVersion",
    "OrdersVersion",
    "OutboxMessage",
    "OutboxStatus",
    "Player",
    "RateCounter",
    "Seat",
    "Standby",
    "Turn",
    "TurnMail",
    "TurnMatch",
    "TurnMatchStatus",
    "TurnStatus",
    "Worker",
    "table_of",
]

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: Every datetime column: aware UTC in, aware UTC out, on SQLite and PostgreSQL alike.
Stamp = UtcDateTime()
#: Text from outside (mail, players' words): secrets, secret shapes and SECRET lines hidden.
Scrubbed = ScrubbedText()
#: Text pbm wrote itself: secret shapes hidden (its own texts carry no SECRET line).
ScrubbedOwn = ScrubbedText(lines=False)


class MailStatus(StrEnum):
    """What became of an inbound message (see :class:`InboundMail`)."""

    RECEIVED = "received"
    APPLIED = "applied"
    REJECTED = "rejected"
    IGNORED = "ignored"
    SHUNTED = "shunted"


class CompetitionStatus(StrEnum):
    """A competition's life: taking teams (open, full), joining closed (closed: the draw
    failed or is due), under way (running, or held by the GM or the pre-run check), over."""

    OPEN = "open"
    FULL = "full"
    CLOSED = "closed"
    RUNNING = "running"
    HELD = "held"
    FINISHED = "finished"


class CompetitionKind(StrEnum):
    """The competition's shape: a league (single or double round robin), a knockout, or the
    seed's 4-team mini-tournament (semi-finals, then final and 3rd/4th play-off)."""

    LEAGUE = "league"
    DOUBLE = "double"
    KNOCKOUT = "knockout"
    MINI = "mini"


class FlagStatus(StrEnum):
    """A flag's life (see :class:`Flag`)."""

    OPEN = "open"
    RESOLVED = "resolved"
    DROPPED = "dropped"
    SUPERSEDED = "superseded"


class OutboxStatus(StrEnum):
    """An outbound message's life (see :class:`OutboxMessage`)."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


class TurnStatus(StrEnum):
    """A stage of a competition: taking orders (open), inputs frozen and being resolved
    (frozen), resolved (done), or undone by the GM (rolled_back)."""

    OPEN = "open"
    FROZEN = "frozen"
    DONE = "done"
    ROLLED_BACK = "rolled_back"


class Base(DeclarativeBase):
    """Declarative base with a naming convention, so migrations name constraints stably."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, datetime: Stamp}


def table_of(model: type[Base]) -> Table:
    """``model``'s table, for Core statements on the hot paths (typed: ``__table__`` is not)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


class Competition(Base):
    """A competition (a game): its code for routing, format, size and naming deadline."""

    __tablename__ = "competitions"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    game: Mapped[str] = mapped_column(String(32), default="flungo")
    format: Mapped[str] = mapped_column(String(16))
    teams: Mapped[int] = mapped_column(Integer)
    naming_deadline: Mapped[datetime]
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default=CompetitionStatus.OPEN)
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime]
    # -- the season (0004) ---------------------------------------------------------------------
    kind: Mapped[str] = mapped_column(
        String(16), default=CompetitionKind.LEAGUE, server_default=CompetitionKind.LEAGUE
    )
    schedule: Mapped[str | None] = mapped_column(
        String(200)
    )  # a cadence (pbm.games.flungo.schedule)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # per-competition overrides
    season: Mapped[str | None] = mapped_column(Text)  # the engine's SeasonState, canonical text
    issue: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # zine issues
    hold_reason: Mapped[str | None] = mapped_column(Text)
    editorial: Mapped[str | None] = mapped_column(Text)  # for the next issue
    # -- (0013) --------------------------------------------------------------------------------
    #: Raised in the database each time ``season`` is set (see :func:`_season_set`): a reader
    #: that keeps a season read knows it is current without loading the text, over half a
    #: megabyte for a 64-team league, which every orders mail loaded to compare.
    season_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    seats: Mapped[list[Seat]] = relationship(back_populates="competition", order_by="Seat.number")


@event.listens_for(Competition.season, "set")
def _season_set(target: Competition, value: object, old: object, initiator: object) -> None:
    """Every assignment of a season raises its version, as ``season_version + 1`` in the
    UPDATE itself, so two writers cannot both write the same next number."""
    if inspect(target).has_identity:
        target.season_version = Competition.season_version + 1
    else:
        target.season_version = 1


class Player(Base):
    """A mail address that has joined something. Secrets live on seats, one per team."""

    __tablename__ = "players"
    #: The address as compared (``lower(address) = ?``: HELP asks each game whether the
    #: sender plays): the unique index on the address as written cannot serve that lookup.
    __table_args__ = (Index("ix_players_address_lower", func.lower(text("address"))),)

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(320), unique=True)
    created_at: Mapped[datetime]
    undeliverable_at: Mapped[datetime | None]
    undeliverable_reason: Mapped[str | None] = mapped_column(Scrubbed)
    time_zone: Mapped[str | None] = mapped_column(String(64))  # IANA, shown beside UTC
    #: Soft bounces (4.x.x failures) of pbm's mail since the last delivery or mail from them.
    soft_bounces: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Seat(Base):
    """A player's team in a competition: the squad (squad JSON shape) and its secret's hash."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("competition_id", "number"),
        UniqueConstraint("competition_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    competition_id: Mapped[int] = mapped_column(ForeignKey("competitions.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    number: Mapped[int] = mapped_column(Integer)
    secret_hash: Mapped[str] = mapped_column(String(200))
    secret_version: Mapped[int] = mapped_column(Integer, default=1)
    team: Mapped[dict[str, Any]]
    named: Mapped[bool] = mapped_column(default=False)
    naming_version: Mapped[int] = mapped_column(Integer, default=0)
    joined_at: Mapped[datetime]
    retired: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # -- (0014) --------------------------------------------------------------------------------
    #: A house team (the demo's): managed by nobody, so also ``retired`` (never mailed nor
    #: waited for); shown as the house's, not as a team whose manager left.
    house: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: The manager is away until then (AWAY): the team plays on its standing orders and the
    #: defaults, is not reminded, not waited for and not counted as sending nothing.
    away_until: Mapped[datetime | None]
    #: Stages in a row the team sent nothing for (reset by any orders): the GM's nmr_limit.
    missed: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # -- (0015) --------------------------------------------------------------------------------
    #: The team's manager gets the zine (ZINE OFF / ZINE ON, or the List-Unsubscribe link):
    #: the zine only; turn reports, fixtures and reminders go to every team that plays.
    zine: Mapped[bool] = mapped_column(Boolean, default=True, server_default="1")
    # -- (0016) --------------------------------------------------------------------------------
    #: The zine's PDF is attached for this team (ZINE ATTACH; ZINE INLINE stops it): by
    #: default the issue comes inline, HTML and text, without the weight of its PDF.
    zine_pdf: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")

    competition: Mapped[Competition] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class NamingVersion(Base):
    """Every accepted naming of a squad, in order; the latest is the seat's ``team``."""

    __tablename__ = "naming_versions"
    __table_args__ = (UniqueConstraint("seat_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))
    version: Mapped[int] = mapped_column(Integer)
    team: Mapped[dict[str, Any]]
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"))
    created_at: Mapped[datetime]


class OrdersVersion(Base):
    """Every version of a seat's standing orders for its next match, as canonical text.

    The latest version is what stands. ``source`` is ``mail`` (the player's mail
    ``inbound_id``) or ``gm`` (a flag the GM resolved, ``flag_id``).
    """

    __tablename__ = "orders_versions"
    __table_args__ = (UniqueConstraint("seat_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16))
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"))
    flag_id: Mapped[int | None] = mapped_column(ForeignKey("flags.id"))
    created_at: Mapped[datetime]


class Flag(Base):
    """A sentence of a player's orders the parser could not read, for the GM to read.

    ``status``: open, resolved (``resolution`` holds the canonical text the GM entered),
    dropped (``note`` says why) or superseded (a later mail replaced those orders). ``text``
    is stored redacted of the seat's secret.
    """

    __tablename__ = "flags"
    __table_args__ = (Index("ix_flags_status_id", "status", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    competition_id: Mapped[int] = mapped_column(ForeignKey("competitions.id"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"))
    line: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Scrubbed)
    reason: Mapped[str] = mapped_column(Scrubbed)
    status: Mapped[str] = mapped_column(String(16), default=FlagStatus.OPEN)
    resolution: Mapped[str | None] = mapped_column(Scrubbed)
    note: Mapped[str | None] = mapped_column(Scrubbed)
    created_at: Mapped[datetime]
    resolved_at: Mapped[datetime | None]


class InboundMail(Base):
    """Every message that came in, stored raw before anything else happens.

    ``key`` is the Message-ID (or ``sha256:<hex>`` of the bytes when there is none); its
    uniqueness makes a redelivery a no-op. ``status``: received, applied, rejected, ignored,
    shunted (the dead letters, with ``error`` holding the traceback).
    """

    __tablename__ = "inbound_mail"
    __table_args__ = (Index("ix_inbound_mail_status_id", "status", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(512), unique=True)
    door: Mapped[str] = mapped_column(String(16))  # imap, smtp, ingest, cli
    raw: Mapped[bytes] = mapped_column(ScrubbedBytes())
    status: Mapped[str] = mapped_column(String(16), default=MailStatus.RECEIVED)
    received_at: Mapped[datetime]
    processed_at: Mapped[datetime | None]
    envelope_from: Mapped[str | None] = mapped_column(String(320))
    envelope_to: Mapped[str | None] = mapped_column(Text)  # space-separated RCPT TO addresses
    from_addr: Mapped[str | None] = mapped_column(String(320))
    subject: Mapped[str | None] = mapped_column(Scrubbed)
    competition_id: Mapped[int | None] = mapped_column(ForeignKey("competitions.id"))
    note: Mapped[str | None] = mapped_column(Scrubbed)  # why rejected/ignored, in a word or two
    error: Mapped[str | None] = mapped_column(Scrubbed)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    #: The raw mail as it came, encrypted (``pbm.secrets.at_rest.Sealer``) until handled.
    sealed: Mapped[bytes | None] = mapped_column(LargeBinary)


class OutboxMessage(Base):
    """A message to send, written in the same transaction as the change it reports.

    ``raw`` is the composed message; a new player's secret is not in it but a placeholder the
    sender fills in at the last moment (see ``pbm.secrets``). ``status``: pending, sent, failed.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_next", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    to_addr: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(ScrubbedOwn)
    message_id: Mapped[str] = mapped_column(String(512), unique=True)
    # pbm's own mail, sent as stored: its text parts are searched, never its attachments.
    raw: Mapped[bytes] = mapped_column(ScrubbedBytes(lines=False, deep=False))
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime]
    last_error: Mapped[str | None] = mapped_column(ScrubbedOwn)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"))


class Bounce(Base):
    """A delivery failure report (DSN) received for one of our messages."""

    __tablename__ = "bounces"

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(320), index=True)
    reason: Mapped[str] = mapped_column(Scrubbed)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mail.id"))
    created_at: Mapped[datetime]
    #: hard (5.x.x), soft (4.x.x failed) or delay (not a failure); None before 0003.
    kind: Mapped[str | None] = mapped_column(String(16))
    #: The outbox row the report is about (every accepted bounce names one).
    outbox_id: Mapped[int | None] = mapped_column(ForeignKey("outbox.id"))


class RateCounter(Base):
    """Mails counted per sender per hour window."""

    __tablename__ = "rate_counters"

    sender: Mapped[str] = mapped_column(String(320), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class Event(Base):
    """The audit log: what happened, when, to which competition (joins, namings, alerts...)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(index=True)
    kind: Mapped[str] = mapped_column(String(32))
    competition_id: Mapped[int | None] = mapped_column(ForeignKey("competitions.id"))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)


class JobRun(Base):
    """Scheduled jobs already done, keyed like ``digest:2026-11-29``: run each exactly once."""

    __tablename__ = "job_runs"

    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    ran_at: Mapped[datetime]


class Incident(Base):
    """An outage of a door (``imap``, ``smtp``, ``database``): open while ``resolved_at`` is
    None. ``count`` is the failed attempts seen; ``last_error`` is the server's words,
    neutralised (foreign text) before it is stored."""

    __tablename__ = "incidents"

    id: Mapped[int] = mapped_column(primary_key=True)
    door: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(32))
    first_seen: Mapped[datetime] = mapped_column(index=True)
    last_seen: Mapped[datetime]
    resolved_at: Mapped[datetime | None]
    count: Mapped[int] = mapped_column(Integer, default=1)
    last_error: Mapped[str | None] = mapped_column(Text)


class Turn(Base):
    """One stage of a competition's season (a round's selection, or a turn), once per
    ``generation`` (a rollback reopens the stage as the next generation).

    While ``open`` it takes orders until ``deadline``. Resolving is two commits: the inputs are
    frozen first (``orders``: each team's canonical orders text as played, or null for its
    defaults; ``state_before``: the season before; ``seed``: the season seed), then resolved
    into ``state_after`` and ``report`` (the engine's TurnReport JSON text, the zine's input,
    ``issue`` its number). A daemon that dies between the two resolves the frozen inputs on
    its next pass; ``pbm gm rerun`` resolves them again and must get the same bytes.
    """

    __tablename__ = "turns"
    __table_args__ = (
        UniqueConstraint("competition_id", "position", "generation"),
        Index("ix_turns_status_deadline", "status", "deadline"),
        Index("ix_turns_competition_status", "competition_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    competition_id: Mapped[int] = mapped_column(ForeignKey("competitions.id"))
    position: Mapped[int] = mapped_column(Integer)  # the stage's index in the season
    generation: Mapped[int] = mapped_column(Integer, default=0)
    stage_key: Mapped[str] = mapped_column(String(16))  # R1-select, T1, ...
    round: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    selection: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16), default=TurnStatus.OPEN)
    opened_at: Mapped[datetime]
    deadline: Mapped[datetime]
    resolved_at: Mapped[datetime | None]
    orders: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    seed: Mapped[str | None] = mapped_column(String(64))
    state_before: Mapped[str | None] = mapped_column(Text)
    state_after: Mapped[str | None] = mapped_column(Text)
    report: Mapped[str | None] = mapped_column(Text)
    issue: Mapped[int | None] = mapped_column(Integer)
    reminders: Mapped[dict[str, Any]] = mapped_column(default=dict)  # {"sent": [seconds, ...]}
    skip_check: Mapped[bool] = mapped_column(Boolean, default=False)  # the GM said run anyway
    note: Mapped[str | None] = mapped_column(Text)


class Standby(Base):
    """An address waiting for a seat: the GM hands it a seat whose manager has gone."""

    __tablename__ = "standbys"
    __table_args__ = (UniqueConstraint("competition_id", "address"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    competition_id: Mapped[int] = mapped_column(ForeignKey("competitions.id"))
    address: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]
    #: The team number offered to this address (a team that missed ``nmr_limit`` stages in a
    #: row, or whose manager resigned): a JOIN from it takes the seat. (0014)
    offered_seat: Mapped[int | None] = mapped_column(Integer)


class TurnMatchStatus(StrEnum):
    """One match of a split stage: waiting for a worker, claimed by one, or resolved."""

    PENDING = "pending"
    CLAIMED = "claimed"
    DONE = "done"


class TurnMatch(Base):
    """One match of a large frozen stage, resolved by whichever worker claims it (0010).

    ``job`` is the engine's MatchJob (canonical JSON text: everything the match needs, so a
    worker reads nothing else); ``result`` its MatchOutcome once resolved. A worker claims a
    batch (``claimed_by``, ``lease_until``) and stores the results; a claim whose lease has
    passed is retaken (its worker died). The stage is assembled from the results once all are
    done, exactly once (the turn's ``resolve`` job key)."""

    __tablename__ = "turn_matches"
    __table_args__ = (
        UniqueConstraint("turn_id", "fixture_id"),
        Index("ix_turn_matches_status_lease_until", "status", "lease_until"),
        Index("ix_turn_matches_turn_id_status", "turn_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    turn_id: Mapped[int] = mapped_column(ForeignKey("turns.id"))
    seq: Mapped[int] = mapped_column(Integer)  # the match's place in the stage's report
    fixture_id: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default=TurnMatchStatus.PENDING)
    claimed_by: Mapped[str | None] = mapped_column(String(128))
    lease_until: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    job: Mapped[str] = mapped_column(Text)
    result: Mapped[str | None] = mapped_column(Text)
    resolved_by: Mapped[str | None] = mapped_column(String(128))
    resolved_at: Mapped[datetime | None]


class TurnMail(Base):
    """A batch of an assembled split stage's report mails, queued by whichever worker claims
    it (0012_turn_mail).

    ``mails`` is a JSON list of ``{"kind", "to", "ctx"}``: what
    :func:`pbm.outbound.replies.queue_mail`
    renders, built by the assembler so a worker reads nothing else. A worker claims rows
    (``claimed_by``, ``lease_until``) and queues each row's mails in the transaction that
    marks it done, so each mail is queued once; a claim whose lease passed is retaken."""

    __tablename__ = "turn_mails"
    __table_args__ = (
        UniqueConstraint("turn_id", "seq"),
        Index("ix_turn_mails_status_lease_until", "status", "lease_until"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    turn_id: Mapped[int] = mapped_column(ForeignKey("turns.id"))
    seq: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default=TurnMatchStatus.PENDING)
    claimed_by: Mapped[str | None] = mapped_column(String(128))
    lease_until: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    count: Mapped[int] = mapped_column(Integer)  # mails in the batch (kept once queued)
    mails: Mapped[str] = mapped_column(Text)
    queued_by: Mapped[str | None] = mapped_column(String(128))
    queued_at: Mapped[datetime | None]


class Worker(Base):
    """A running ``pbm serve`` (0010): where and since when, its last heartbeat, and what it
    was doing then (``doing``: the claim in hand, e.g. ``inbound 42``). ``stopped_at`` is set
    by a warm stop; a worker that dies just stops beating."""

    __tablename__ = "workers"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime]
    heartbeat_at: Mapped[datetime]
    stopped_at: Mapped[datetime | None]
    doing: Mapped[str | None] = mapped_column(String(200))
