"""What a message asks for, and the answer: JOIN, naming, HELP, and the GM's commands.

Every handler runs inside the message's one transaction and queues its reply in the outbox
there too. Handlers return the inbound status (applied, rejected, ignored) and a short note.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.flungo.formats import Format
from engine.flungo.language import canonical, parse_orders
from engine.flungo.squad import Team
from pbm.auth import SecretBox, normalise_secret, redact
from pbm.clock import Clock, utc
from pbm.competitions import (
    base_squad,
    create_competition,
    find_competition,
    format_title,
    join,
    naming_open,
    placeholder_team_name,
    record_event,
)
from pbm.config import Config
from pbm.db.models import Competition, Flag, InboundMail, NamingVersion, Player, Seat
from pbm.digest import digest_context
from pbm.intake import Incoming
from pbm.mail.limits import too_many_flags
from pbm.naming import apply_naming, diff_teams, is_fully_named
from pbm.replies import ReplyTo, queue_mail
from pbm.standing import (
    MailOrders,
    carries_match_orders,
    current_orders,
    read_mail_orders,
    store_orders,
    supersede_flags,
    without_naming,
)

__all__ = ["Handled", "Handler"]

GM_WORDS = frozenset({"NEWGAME", "DIGEST"})


@dataclass(frozen=True, slots=True)
class Handled:
    """The outcome of one message."""

    status: str
    note: str
    secrets: tuple[str, ...] = ()  # what to redact from the stored raw message


def squad_rows(team: Team) -> list[dict[str, Any]]:
    """A team's players as template rows."""
    return [
        {
            "slot": i,
            "name": p.name,
            "role": p.role.label,
            "batting": p.batting,
            "bowling": p.bowling,
            "fielding": p.fielding,
            "style": p.bowling_style.value,
        }
        for i, p in enumerate(team.players, start=1)
    ]


def competition_ctx(comp: Competition) -> dict[str, Any]:
    """A competition as template context."""
    return {
        "code": comp.code,
        "name": comp.name,
        "format": format_title(comp),
        "teams": comp.teams,
        "naming_deadline": utc(comp.naming_deadline).strftime("%Y-%m-%d %H:%M UTC"),
    }


class Handler:
    """Handles one parsed message in one session."""

    def __init__(
        self,
        session: Session,
        config: Config,
        clock: Clock,
        box: SecretBox,
        mail: InboundMail,
        msg: Incoming,
    ) -> None:
        self.s = session
        self.config = config
        self.clock = clock
        self.box = box
        self.mail = mail
        self.msg = msg
        self.reply_to = ReplyTo(msg.message_id, msg.references, msg.subject)
        self.notes: list[str] = []

    # -- replies ---------------------------------------------------------------------------

    def reply(self, kind: str, **ctx: Any) -> None:
        """Queue a reply to the sender, noting ignored attachments."""
        notes = [*self.msg.notes, *self.notes]
        notes += [f"Part of your mail could not be read as sent: {p}" for p in self.msg.problems]
        if self.msg.attachments:
            notes.append(
                f"Your message had {len(self.msg.attachments)} attachment(s); pbm reads only "
                "the text of a mail and ignored them."
            )
        queue_mail(
            self.s,
            self.config,
            self.clock,
            kind=kind,
            to=self.msg.from_addr,
            ctx={"notes": notes, **ctx},
            reply_to=self.reply_to,
            inbound_id=self.mail.id,
        )

    def refuse(self, reason: str, note: str) -> Handled:
        """Answer that the message was refused for lack of the right secret."""
        self.reply("auth-refused", reason=reason)
        return Handled("rejected", note)

    # -- dispatch --------------------------------------------------------------------------

    def handle(self) -> Handled:
        """Route the message to the flow it asks for."""
        words = set(self.msg.commands)
        if words & GM_WORDS:
            return self.gm_command(words)
        if not self.msg.code:
            if "HELP" in words:
                self.reply("help", competitions=self.open_competitions())
                return Handled("applied", "help")
            if self.msg.unknown_code:
                code = self.msg.unknown_code
                return self.not_understood(f"unknown game {code}", unknown_code=code)
            return self.not_understood("no game code")
        comp = find_competition(self.s, self.msg.code)
        if comp is None:  # pragma: no cover - routing only returns known codes
            return self.not_understood(f"unknown game {self.msg.code}", unknown_code=self.msg.code)
        self.mail.competition_id = comp.id
        if "JOIN" in words:
            return self.join(comp)
        if "HELP" in words:
            self.reply("help", competitions=self.open_competitions())
            return Handled("applied", "help")
        return self.naming(comp)

    def open_competitions(self) -> list[dict[str, Any]]:
        comps = self.s.scalars(
            select(Competition).where(Competition.status == "open").order_by(Competition.code)
        )
        return [competition_ctx(c) for c in comps]

    def not_understood(self, note: str, unknown_code: str | None = None) -> Handled:
        self.reply(
            "not-understood",
            unknown_code=unknown_code,
            competitions=self.open_competitions(),
        )
        record_event(self.s, self.clock, "not-understood", None, inbound=self.mail.id, note=note)
        return Handled("rejected", f"not understood: {note}")

    # -- JOIN ------------------------------------------------------------------------------

    def join(self, comp: Competition) -> Handled:
        result = join(self.s, self.clock, self.box, comp, self.msg.from_addr)
        if result.outcome != "joined":
            seat = result.seat
            self.reply(
                "join-refused",
                competition=competition_ctx(comp),
                outcome=result.outcome,
                team_name=Team.from_json(seat.team).name if seat else "",
            )
            return Handled("rejected", f"join {result.outcome}")
        assert result.seat is not None
        team = Team.from_json(result.seat.team)
        self.reply(
            "join",
            competition=competition_ctx(comp),
            seat=result.seat.number,
            team_name=team.name,
            secret=result.secret,
            squad=squad_rows(team),
        )
        return Handled("applied", f"joined seat {result.seat.number}")

    # -- naming ----------------------------------------------------------------------------

    def authenticate_seat(self, comp: Competition) -> Seat | Handled:
        """The sender's seat, if the mail carries that seat's secret; else a refusal."""
        player = self.s.scalars(select(Player).where(Player.address == self.msg.from_addr)).first()
        seat = None
        if player is not None:
            seat = self.s.scalars(
                select(Seat).where(Seat.competition_id == comp.id, Seat.player_id == player.id)
            ).first()
        if seat is None:
            return self.refuse(
                f"{self.msg.from_addr} has no team in {comp.code}; send JOIN to take one.",
                "no seat",
            )
        if not self.msg.secret:
            return self.refuse(
                "Orders must carry your secret on a line of its own: SECRET <your secret>. "
                "The sender's address alone proves nothing.",
                "no secret",
            )
        if not self.box.verify(seat.secret_hash, self.msg.secret):
            record_event(
                self.s, self.clock, "auth-failed", comp, seat=seat.number, inbound=self.mail.id
            )
            return self.refuse("The secret does not match your team's secret.", "wrong secret")
        if self.box.needs_rehash(seat.secret_hash):  # the configured cost changed since
            seat.secret_hash = self.box.hash(self.msg.secret)
        return seat

    def naming(self, comp: Competition) -> Handled:
        """A seat's orders: squad naming (while open) and standing orders for the next match."""
        seat = self.authenticate_seat(comp)
        if isinstance(seat, Handled):
            return seat
        secrets = (self.msg.secret or "",)
        text = redact(self.msg.body, secrets)
        current = Team.from_json(seat.team)
        placeholder = placeholder_team_name(seat.number)
        base = base_squad(comp, seat.number)
        # Names are given against the squad as generated; without them, the orders name the
        # squad as it stands.
        mail = read_mail_orders(text, base, comp.format)
        naming = mail.parsed.orders.naming
        if naming is not None and naming.team_name is None and not naming.names:
            naming = None
        if naming is not None and not naming_open(comp, self.clock.now()):
            self.reply("naming-closed", competition=competition_ctx(comp))
            return Handled("rejected", "naming closed", secrets)
        if naming is None and current != base:
            mail = read_mail_orders(text, current, comp.format)
        match = carries_match_orders(mail)
        if (too_many := too_many_flags(len(mail.not_understood))) is not None:
            self.reply("refused", reason=too_many)
            return Handled("rejected", "too many unreadable sentences", secrets)
        errors = [
            {"text": redact(str(e), secrets), "line": e.span.line if e.span else None}
            for e in mail.errors
        ]
        if naming is None and not match and not errors:
            return self.not_understood("no orders")
        ctx: dict[str, Any] = {
            "competition": competition_ctx(comp),
            "echo": mail.parsed.echo_text(),
            "named": seat.named,
            "version": seat.naming_version,
            "naming": naming is not None,
            "orders_version": 0,
            "standing": "",
            "flags": [],
        }
        if errors:
            if mail.not_understood:  # the whole mail is refused, so nothing goes to the GM
                errors = [
                    {"text": redact(str(e), secrets), "line": e.span.line if e.span else None}
                    for e in mail.parsed.errors
                ]
            self.reply(
                "naming",
                accepted=False,
                errors=errors,
                changes=[],
                squad=squad_rows(current),
                team_name=current.name,
                **ctx,
            )
            return Handled("rejected", f"orders with {len(errors)} error(s)", secrets)
        notes = []
        team = current
        changes: list[dict[str, str]] = []
        if naming is not None:
            team = apply_naming(base, naming, placeholder)
            changes = [
                {"what": c.what, "old": c.old, "new": c.new} for c in diff_teams(current, team)
            ]
            seat.naming_version += 1
            seat.team = team.to_json()
            seat.named = is_fully_named(team, (p.name for p in base.players), placeholder)
            self.s.add(
                NamingVersion(
                    seat_id=seat.id,
                    version=seat.naming_version,
                    team=seat.team,
                    inbound_id=self.mail.id,
                    created_at=self.clock.now(),
                )
            )
            record_event(
                self.s, self.clock, "naming", comp, seat=seat.number, version=seat.naming_version
            )
            ctx.update(named=seat.named, version=seat.naming_version)
            notes.append(f"naming v{seat.naming_version}")
        if match:
            self.keep_orders(comp, seat, mail, ctx)
            notes.append(f"orders v{ctx['orders_version']}")
        elif changes:
            self.check_standing(comp, seat, team)
        self.reply(
            "naming",
            accepted=True,
            errors=[],
            changes=changes,
            squad=squad_rows(team),
            team_name=team.name,
            **ctx,
        )
        return Handled("applied", ", ".join(notes), secrets)

    def check_standing(self, comp: Competition, seat: Seat, team: Team) -> None:
        """Warn when new names leave the standing orders naming squad members who are gone."""
        latest = current_orders(self.s, seat)
        if latest is None:
            return
        if parse_orders(latest.text, team, Format(comp.format)).errors:
            self.notes.append(
                f"Your standing orders (version {latest.version}) name squad members by names "
                "they no longer have, so they will not read as you meant: send your orders "
                "again with the new names."
            )

    def keep_orders(
        self, comp: Competition, seat: Seat, mail: MailOrders, ctx: dict[str, Any]
    ) -> None:
        """Store the mail's match orders as the seat's standing orders; flag each sentence
        not understood for the GM (the flags of the orders it replaces are superseded)."""
        now = self.clock.now()
        supersede_flags(self.s, seat, now)
        row = store_orders(
            self.s,
            self.clock,
            seat,
            canonical(without_naming(mail.parsed.orders)),
            inbound_id=self.mail.id,
        )
        flags = []
        for n in mail.not_understood:
            flag = Flag(
                competition_id=comp.id,
                seat_id=seat.id,
                inbound_id=self.mail.id,
                line=n.line,
                text=n.text,  # read from the redacted body: no secret in it
                reason=n.reason,
                status="open",
                created_at=now,
            )
            self.s.add(flag)
            flags.append({"line": n.line, "text": n.text})
        record_event(
            self.s,
            self.clock,
            "orders",
            comp,
            seat=seat.number,
            version=row.version,
            flags=len(flags),
        )
        ctx.update(orders_version=row.version, standing=row.text, flags=flags)

    # -- the GM ----------------------------------------------------------------------------

    def gm_command(self, words: set[str]) -> Handled:
        gm = self.config.gm
        given = self.msg.secret or ""
        secrets = (given,) if given else ()
        ok = self.msg.from_addr == gm.address and hmac.compare_digest(
            normalise_secret(given).encode(), normalise_secret(gm.secret).encode()
        )
        if not ok:
            record_event(self.s, self.clock, "gm-auth-failed", None, inbound=self.mail.id)
            h = self.refuse("GM commands need the GM's address and the GM's secret.", "not GM")
            return Handled(h.status, h.note, secrets)
        if "NEWGAME" in words:
            return self.new_game(secrets)
        queue_mail(
            self.s,
            self.config,
            self.clock,
            kind="digest",
            to=gm.address,
            ctx=digest_context(self.s, self.clock),
            reply_to=self.reply_to,
            inbound_id=self.mail.id,
        )
        return Handled("applied", "digest", secrets)

    def new_game(self, secrets: tuple[str, ...]) -> Handled:
        """``NEWGAME <CODE> <format> <teams> <deadline YYYY-MM-DD[THH:MM]> <name...>``."""
        line = next(
            (ln for ln in self.msg.body.splitlines() if ln.strip().upper().startswith("NEWGAME")),
            "",
        )
        parts = line.split(None, 5)
        problem = None
        comp = None
        if len(parts) < 6:
            problem = "expected NEWGAME <CODE> <format> <teams> <naming deadline YYYY-MM-DD> <name>"
        else:
            _, code, fmt, teams, deadline, name = parts
            try:
                when = datetime.fromisoformat(deadline)
                when = when if when.tzinfo else when.replace(tzinfo=UTC)
                comp = create_competition(
                    self.s,
                    self.clock,
                    code=code,
                    name=name,
                    fmt=fmt.lower(),
                    teams=int(teams),
                    naming_deadline=when,
                )
            except ValueError as exc:
                problem = str(exc)
        self.reply(
            "gm-created",
            problem=problem,
            competition=competition_ctx(comp) if comp else None,
            address=self.config.server.address,
        )
        if comp is None:
            return Handled("rejected", f"newgame: {problem}", secrets)
        return Handled("applied", f"created {comp.code}", secrets)
