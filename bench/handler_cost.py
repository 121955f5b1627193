"""The handler's own CPU a mail (issue 28): naming and match-orders mails handled in this
process through the real pipeline (``Inbound.process_next``), with the stage timer of
``bench/_stages.py`` (CPU seconds), so "handler" is what ``intake.py --cpu-stages`` calls it:
the handler's Python and SQL, without the argon2, order parse, practice, render, compose and
outbox row it calls. No IMAP door and no worker process between; run it from each tree with
``PYTHONPATH`` set to it for an alternated A/B.

    .venv/bin/python bench/handler_cost.py [--messages 200] [--warm 30] [--profile FILE]

``--profile FILE`` writes a cProfile of the handler's own time alone (the profiler runs
while the handler's code does, not while a stage it calls does) over the timed match-orders
mails to ``FILE`` and over the naming mails to ``FILE.naming``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import time
from collections.abc import Callable
from typing import Any

from _services import (  # type: ignore[import-not-found]
    Bench,
    join_mails,
    match_orders_mails,
    naming_mails,
    open_first_stage,
)
from _stages import _TARGETS, StageTimer, instrument  # type: ignore[import-not-found]

#: With ``--detail``: the handler's parts, each timed as its own stage (exclusive, as the
#: stages are), so the handler's row splits into where its time goes.
DETAIL: tuple[tuple[str, str, str], ...] = (
    ("h: authenticate_seat", "pbm.inbound.context:MailContext", "authenticate_seat"),
    ("h: authenticate_row", "pbm.inbound.context:MailContext", "authenticate_row"),
    ("h: _read_seat", "pbm.games.flungo.mail", "_read_seat"),
    ("h: outlook_of", "pbm.games.flungo.mail", "outlook_of"),
    ("h: current_orders", "pbm.games.flungo.mail", "current_orders"),
    ("h: merge_mail", "pbm.games.flungo.mail", "merge_mail"),
    ("h: read_standing", "pbm.games.flungo.standing", "read_standing"),
    ("h: order_reader", "pbm.games.flungo.standing", "order_reader"),
    ("h: merge_orders", "pbm.games.flungo.standing", "merge_orders"),
    ("h: canonical (merge)", "pbm.games.flungo.standing", "canonical"),
    ("h: _refuse_lookalike", "pbm.games.flungo.mail", "_refuse_lookalike"),
    ("h: keep_orders", "pbm.games.flungo.mail", "keep_orders"),
    ("h: supersede_flags", "pbm.games.flungo.mail", "supersede_flags"),
    ("h: store_orders", "pbm.games.flungo.mail", "store_orders"),
    ("h: _set_naming", "pbm.games.flungo.mail", "_set_naming"),
    ("h: _whats_next", "pbm.games.flungo.mail", "_whats_next"),
    ("h: _fixture_lines", "pbm.games.flungo.mail", "_fixture_lines"),
    ("h: will_play_ctx", "pbm.games.flungo.reports", "will_play_ctx"),
    ("h: _practice", "pbm.games.flungo.mail", "_practice"),
    ("h: practice_for", "pbm.games.flungo.mail", "practice_for"),
    ("h: squad_rows", "pbm.games.flungo.mail", "squad_rows"),
    ("h: competition_ctx", "pbm.games.flungo.mail", "competition_ctx"),
    ("h: ctx.record", "pbm.inbound.context:MailContext", "record"),
    ("h: ctx.reply (own)", "pbm.inbound.context:MailContext", "reply"),
    ("h: apply_slots", "pbm.games.flungo.mail", "apply_slots"),
    ("h: diff_teams", "pbm.games.flungo.mail", "diff_teams"),
)


HANDLER = "handler (JOIN / orders)"


class HandlerProfile(StageTimer):
    """A stage timer that also runs ``prof`` while the handler's own code runs: off inside
    each stage the handler calls, on again when it returns."""

    def __init__(self, prof: cProfile.Profile) -> None:
        super().__init__(time.process_time)
        self.prof = prof
        self.inside: list[str] = []

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        timed = super().wrap(stage, fn)
        inside, prof = self.inside, self.prof

        def profiled(*a: Any, **kw: Any) -> Any:
            outer = inside[-1] if inside else None
            if outer == HANDLER:
                prof.disable()
            inside.append(stage)
            if stage == HANDLER:
                prof.enable()
            try:
                return timed(*a, **kw)
            finally:
                if stage == HANDLER:
                    prof.disable()
                inside.pop()
                if outer == HANDLER:
                    prof.enable()

        return profiled


def _drain(
    bench: Bench, mails: list[bytes], warm: int, profile: str | None, detail: bool
) -> StageTimer:
    """Store ``mails``, handle ``warm`` of them untimed, the rest timed; the timer."""
    inbound = bench.app.inbound
    inbound.store_many(mails, "imap")
    after = 0
    for _ in range(warm):
        got = inbound.process_next(after)
        assert got is not None
        after = got[0]
    prof = cProfile.Profile()
    timer = HandlerProfile(prof) if profile else StageTimer(time.process_time)
    handled = 0
    with instrument(timer, _TARGETS + DETAIL if detail else None):
        while (got := inbound.process_next(after)) is not None:
            after, handled = got[0], handled + 1
    if profile:
        prof.dump_stats(profile)
    timer.seconds["mails"] = handled  # read back by the caller, not a stage
    return timer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=200, help="seats (default 200)")
    ap.add_argument("--warm", type=int, default=30, help="handled before the clock (default 30)")
    ap.add_argument("--profile", default=None, help="write cProfile stats here")
    ap.add_argument("--detail", action="store_true", help="split the handler into its parts")
    args = ap.parse_args()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    from pbm.daemon import _warm_up

    # As the daemon and intake.py's workers start: without the collector's freeze, a full
    # collection of the process's ~180,000 loaded objects landed in whichever stage ran.
    _warm_up()
    bench = Bench(competitions=-(-args.messages // 64), teams=64)
    try:
        bench.app.inbound.store_many([raw for _, raw in join_mails(bench, args.messages)], "imap")
        after = 0
        while (got := bench.app.inbound.process_next(after)) is not None:
            after = got[0]
        timers = {}
        naming = [raw for _, raw in naming_mails(bench)]
        prof = args.profile + ".naming" if args.profile else None
        timers["naming"] = _drain(bench, naming, args.warm, prof, args.detail)
        open_first_stage(bench)
        orders = [raw for _, raw in match_orders_mails(bench)]
        timers["match orders"] = _drain(bench, orders, args.warm, args.profile, args.detail)
    finally:
        bench.close()
    print(f"load before {load}, after {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for kind, t in timers.items():
        n = int(t.seconds.pop("mails"))
        handler = t.seconds.get(HANDLER, 0.0) / n * 1000
        print(
            f"{kind:<13} handler {handler:6.3f} CPU ms a mail, whole {t.total() / n * 1000:6.3f}"
            f" (over {n})"
        )
        print("\n".join(t.report(n)))
        parts = {k: v for k, v in t.seconds.items() if k.startswith("h: ")}
        for name, secs in sorted(parts.items()):
            print(f"    {name:<36} {secs / n * 1000:7.3f} ms")
        if parts:
            whole = (sum(parts.values()) + t.seconds[HANDLER]) / n * 1000
            print(f"    {'handler and its parts':<36} {whole:7.3f} ms")


if __name__ == "__main__":
    main()
