"""Where one message's time goes: exclusive wall time per pipeline stage, for the benches.

:func:`instrument` wraps the functions each stage is made of (by replacing module and class
attributes, in the bench process only) with a timer that keeps a stack, so a stage's figure
excludes the stages it calls: the figures add up to the instrumented total, and "handler"
means the handler's own work, without the argon2, order parse, render or compose it calls.
The wrapping costs about a microsecond a call, small against the millisecond stages it
measures.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: (stage, owner, attribute): the owner's attribute is timed as that stage. Module owners are
#: named where the caller looks the function up (``from x import f`` binds it there).
_TARGETS: tuple[tuple[str, str, str], ...] = (
    ("store raw + dedup (1 commit/batch)", "pbm.inbound.pipeline:Inbound", "store_many"),
    ("claim + status (process)", "pbm.inbound.pipeline:Inbound", "_process"),
    ("claim + status (process)", "pbm.inbound.pipeline:Inbound", "_batch"),
    ("lookups, rate limit, bounces", "pbm.inbound.pipeline:Inbound", "_dispatch"),
    ("parse MIME + route", "pbm.inbound.pipeline", "understand"),
    ("parse MIME + route", "pbm.inbound.dispatch", "incoming_of"),
    ("argon2 verify/hash", "pbm.secrets.seats:SecretBox", "verify"),
    ("argon2 verify/hash", "pbm.secrets.seats:SecretBox", "hash"),
    ("handler (JOIN / orders)", "pbm.inbound.pipeline", "execute"),
    ("order language parse (engine)", "pbm.games.flungo.standing", "parse_orders"),
    ("order language parse (engine)", "pbm.games.flungo.naming", "parse_orders"),
    ("practice matches (engine)", "pbm.games.flungo.practice", "practise"),
    ("render reply (jinja)", "pbm.outbound.replies", "render_email"),
    ("compose reply (MIME)", "pbm.outbound.replies", "_reply"),
    ("queue outbox row", "pbm.outbound.replies", "queue_mail"),
    ("queue outbox row", "pbm.inbound.context", "queue_mail"),
    ("ORM flush (unit of work)", "sqlalchemy.orm.session:Session", "flush"),
    ("commit", "sqlalchemy.orm.session:SessionTransaction", "commit"),
    # a batch's one commit, on its connection (the session's commit of a mail in a batch
    # releases its savepoint; alone, it commits through this too)
    ("commit", "sqlalchemy.engine.base:Transaction", "commit"),
)

#: The same stages where an older tree had them, timed when present, so a "before" of an
#: alternated comparison is timed like the "after" (today's tree need not have them).
_OLDER: tuple[tuple[str, str, str], ...] = (
    ("parse MIME + route", "pbm.inbound.pipeline", "incoming_of"),  # before dispatch.route
)

#: The order stages are printed in.
STAGES: tuple[str, ...] = tuple(dict.fromkeys(name for name, _, _ in _TARGETS))

#: The stages no database design removes: reading the mail, reading its orders, playing the
#: practice the answer shows (match orders), writing and composing the answer. Every mail
#: pays them however its rows are claimed, looked up and written, so their sum bounds one
#: process's rate from above (the "floor" of a message).
FLOOR: tuple[str, ...] = (
    "parse MIME + route",
    "order language parse (engine)",
    "practice matches (engine)",
    "render reply (jinja)",
    "compose reply (MIME)",
)


class StageTimer:
    """Exclusive seconds per stage, and how many messages they were spent on."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock  # time.process_time: CPU seconds, the figure on a shared machine
        self.seconds: dict[str, float] = defaultdict(float)
        self._stack: list[list[float]] = []  # [start, time spent in timed callees]

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        stack = self._stack
        seconds = self.seconds
        clock = self.clock

        def timed(*a: Any, **kw: Any) -> Any:
            frame = [clock(), 0.0]
            stack.append(frame)
            try:
                return fn(*a, **kw)
            finally:
                stack.pop()
                took = clock() - frame[0]
                seconds[stage] += took - frame[1]
                if stack:
                    stack[-1][1] += took

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    def total(self) -> float:
        return sum(self.seconds.values())

    def report(self, messages: int, indent: str = "    ") -> list[str]:
        """Lines: ms per message for each stage, and the sum."""
        per = max(messages, 1)
        lines = [
            f"{indent}{name:<36} {self.seconds.get(name, 0.0) / per * 1000:7.3f} ms"
            for name in STAGES
        ]
        lines.append(f"{indent}{'sum':<36} {self.total() / per * 1000:7.3f} ms")
        return lines


def _owner(spec: str) -> Any:
    import importlib

    module, _, cls = spec.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, cls) if cls else obj


#: The outbox's drain (``bench/intake.py --drain``): a stored reply read, made ready and sent.
#: ``_fill`` and ``send`` are the older tree's (the reply parsed and flattened again),
#: ``_ready`` and ``send_bytes`` this one's.
DRAIN_TARGETS: tuple[tuple[str, str, str], ...] = (
    ("due rows", "pbm.outbound.outbox:Outbox", "due_ids"),
    ("claim row (+ bounced?)", "pbm.outbound.outbox:Outbox", "send_one"),
    ("fill secrets, parse", "pbm.outbound.outbox", "_fill"),
    ("fill secrets, parse", "pbm.outbound.outbox", "_ready"),
    ("envelope (VERP)", "pbm.app", "verp_address"),
    ("SMTP send (flatten, wire)", "pbm.mail.smtp:SmtpSender", "send"),
    ("SMTP send (flatten, wire)", "pbm.mail.smtp:SmtpSender", "send_bytes"),
    ("record sent", "pbm.outbound.outbox:Outbox", "_record"),
    ("record sent", "pbm.outbound.outbox:Outbox", "_record_sent"),
)
DRAIN_STAGES: tuple[str, ...] = tuple(dict.fromkeys(name for name, _, _ in DRAIN_TARGETS))


@contextmanager
def instrument(
    timer: StageTimer, targets: tuple[tuple[str, str, str], ...] | None = None
) -> Iterator[StageTimer]:
    """Time every stage of the pipeline (or ``targets``) in this process while the block
    runs."""
    saved: list[tuple[Any, str, Any]] = []
    try:
        for stage, spec, attr in _TARGETS + _OLDER if targets is None else targets:
            owner = _owner(spec)
            if attr not in vars(owner):  # an older tree (the "before" of a comparison)
                continue
            real = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
            saved.append((owner, attr, real))
            setattr(owner, attr, timer.wrap(stage, real))
        yield timer
    finally:
        for owner, attr, real in reversed(saved):
            setattr(owner, attr, real)
