"""Competitions turn by turn: the draw when joining closes, each stage's deadline, reminders,
the pre-run check, resolving exactly once from frozen inputs, rerun and rollback.

A season is a sequence of stages (:mod:`engine.flungo.turn`): each round's selection, then its
turns. Each stage is a :class:`~pbm.db.models.Turn` row that takes orders while ``open``. When
it falls due (its deadline plus the grace period, or early once every team's orders are in and
the delay for second thoughts has passed) it is resolved in two commits:

1. :func:`freeze`: the orders in force for each team (canonical text; null for a team on its
   defaults), the season before and its seed are stored; the row is ``frozen``.
2. :func:`resolve_frozen`: the engine resolves the frozen inputs, the report and the season
   after are stored, the next stage opens, and every report mail and the GM's digest are
   queued; the row is ``done``.

A large stage (``[turns] split_matches`` matches or more) is split by match in the freeze's
commit: one :class:`~pbm.db.models.TurnMatch` row per match holds the engine's
:class:`~engine.flungo.turn.MatchJob`. Every worker's pass claims a batch of rows
(:func:`work_matches`, ``FOR UPDATE SKIP LOCKED``, then a lease of ``match_lease_seconds``),
resolves them outside any transaction and stores each result once; a claim whose lease has
passed is retaken (its worker died). Whoever stores the last result assembles the stage
(:func:`~engine.flungo.turn.assemble`: the bytes one resolver would give) in step 2, under the
same ``resolve`` key and the competition's row lock, so it completes exactly once. Its report
mails are then queued by every worker too, a batch to a claim (:mod:`pbm.games.flungo.turn_mail`).

Each runs under the scheduler's job key (``turn:<code>:<position>:<generation>:freeze`` and
``...:resolve``) in ``job_runs``, so a second daemon cannot run it twice; a daemon that dies
between the two commits resolves the frozen inputs on its next pass, never re-reading orders.

Service functions take a session, a clock and plain values and return what happened; the
caller commits. :func:`tick` is the scheduler's entry point and commits per step.

The package holds the concerns apart: :mod:`.policy` (settings and the pure decisions),
:mod:`.lifecycle` (the draw, the stages, freezing), :mod:`.split` (resolving, and the
split-stage workers), :mod:`.sweep` (the scheduler's entry point and its SQL mirror) and
:mod:`.gm` (the GM's controls). Their public names are importable from here.
"""

from __future__ import annotations

from pbm.games.flungo.turns.gm import (
    Rerun,
    extend,
    hold,
    rerun,
    resume,
    rollback,
    run_now,
)
from pbm.games.flungo.turns.lifecycle import (
    active_seats,
    current_turn,
    draw,
    freeze,
    frozen_state,
    is_away,
    latest_done,
    latest_orders,
    open_stage,
    orders_sent,
    played_orders,
    reseed,
    resolve_inputs,
    rulings,
    season_of,
    season_seed,
    stage_of,
    start_competition,
)
from pbm.games.flungo.turns.policy import (
    Settings,
    hold_reason,
    is_due,
    reminders_due,
    settings_for,
)
from pbm.games.flungo.turns.split import (
    Claimed,
    claim_matches,
    resolve_frozen,
    split_frozen,
    stage_size,
    store_results,
    work_matches,
)
from pbm.games.flungo.turns.sweep import (
    due_competitions,
    next_wakeup,
    tick,
)

__all__ = [
    "Claimed",
    "Rerun",
    "Settings",
    "active_seats",
    "claim_matches",
    "current_turn",
    "draw",
    "due_competitions",
    "extend",
    "freeze",
    "frozen_state",
    "hold",
    "hold_reason",
    "is_away",
    "is_due",
    "latest_done",
    "latest_orders",
    "next_wakeup",
    "open_stage",
    "orders_sent",
    "played_orders",
    "reminders_due",
    "rerun",
    "reseed",
    "resolve_frozen",
    "resolve_inputs",
    "resume",
    "rollback",
    "rulings",
    "run_now",
    "season_of",
    "season_seed",
    "settings_for",
    "split_frozen",
    "stage_of",
    "stage_size",
    "start_competition",
    "store_results",
    "tick",
    "work_matches",
]
