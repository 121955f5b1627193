"""A large stage split by match across workers on one PostgreSQL: every match resolved once,
the stage completed once with the report one worker would have made, and a dead worker's
claim retaken after its lease.

Each worker is a thread with its own :class:`~pbm.app.App` (engine and pool), as separate
``pbm serve`` processes would be (the bench runs processes: the GIL); they start on a barrier.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select, update

from pbm.app import App
from pbm.core.clock import FixedClock
from pbm.core.config import Config
from pbm.db.models import (
    Competition,
    Event,
    OutboxMessage,
    Turn,
    TurnMail,
    TurnMatch,
    TurnStatus,
)
from pbm.db.session import transaction
from pbm.games.flungo import turn_mail, turns
from pbm.games.flungo.competitions import create_competition
from pbm.games.flungo.fixtures import seat_named_sides
from tests.pbm.conftest import fresh_pg_database, make_config

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
TEAMS = 16  # a knockout: 8 matches a stage in its first round


def _split_config(config: Config, batch: int, mail_batch: int = 32) -> Config:
    return replace(
        config,
        turns=replace(
            config.turns,
            split_matches=4,
            match_batch=batch,
            match_lease_seconds=60,
            mail_batch=mail_batch,
        ),
    )


def _knockout(app: App, *codes: str) -> None:
    """16-team knockouts (``KO`` unless named), drawn, their selection stages resolved (in one
    piece), Turn 1 due."""
    clock = app.clock
    assert isinstance(clock, FixedClock)
    with transaction(app.sessions) as s:
        for code in codes or ("KO",):
            comp = create_competition(
                s,
                clock,
                code=code,
                name=f"Big Knockout {code}",
                fmt="t20",
                teams=TEAMS,
                naming_deadline=START + timedelta(days=1),
                seed=f"{code}-seed",
                kind="knockout",
                schedule="every 1h",
                settings={"hold_share": 1.0, "reminders": [], "early": 0},
            )
            prefix = "" if code == "KO" else f"{code}-"
            addresses = [f"{prefix}p{n}@example.test" for n in range(1, TEAMS + 1)]
            seat_named_sides(s, clock, comp, addresses)
            s.flush()
            s.refresh(comp)
            turns.start_competition(s, app.config, clock, comp)
    clock.advance(timedelta(hours=1, seconds=1))
    whole = replace(app.config, turns=replace(app.config.turns, split_matches=0))
    # Each selection: frozen, resolved whole.
    assert turns.tick(app.sessions, whole, clock) == 2 * len(codes or ("KO",))
    clock.advance(timedelta(hours=1, seconds=1))  # Turn 1 is due


def _t1(app: App) -> Turn:
    with transaction(app.sessions) as s:
        return s.scalars(select(Turn).where(Turn.stage_key == "T1")).one()


def _check_once(app: App, code: str = "KO") -> Turn:
    """Turn 1 done once: one resolved event, one report mail per team, the same report and
    season as one resolver gives (``pbm gm rerun``), every match done."""
    with transaction(app.sessions) as s:
        comp = s.scalars(select(Competition).where(Competition.code == code)).one()
        t1 = s.scalars(select(Turn).where(Turn.stage_key == "T1")).one()
        assert t1.status == TurnStatus.DONE and t1.issue == 2
        resolved = s.scalars(select(Event).where(Event.kind == "turn-resolved")).all()
        assert [e.data["stage"] for e in resolved] == ["R1-select", "T1"]
        reports = s.scalar(
            select(func.count()).where(
                OutboxMessage.kind == "turn-report", OutboxMessage.subject.contains("Turn 1")
            )
        )
        assert reports == TEAMS, reports
        verdict = turns.rerun(s, comp, "T1")
        assert verdict.identical, verdict
        rows = s.scalars(select(TurnMatch).where(TurnMatch.turn_id == t1.id)).all()
        assert len(rows) == TEAMS // 2 and {r.status for r in rows} == {"done"}
        assert all(r.result is None and r.job == "" for r in rows)  # the report keeps them
        mails = s.scalars(select(TurnMail).where(TurnMail.turn_id == t1.id)).all()
        assert {m.status for m in mails} == {"done"} and all(m.mails == "" for m in mails)
        assert sum(m.count for m in mails) == TEAMS + 1  # every report and the digest
        digests = s.scalar(select(func.count()).where(OutboxMessage.kind == "turn-digest"))
        assert digests == 2, digests  # the selection's and Turn 1's
        return t1


def test_a_split_turn_is_resolved_by_several_workers_once(pg_url: str, tmp_path: Path) -> None:
    """Four workers' passes on a due 8-match stage: one freezes and splits it, all claim
    matches, each match is resolved once (one attempt, one result), the stage completes once
    with the single-resolver report, and more than one worker resolved matches."""
    url = fresh_pg_database(pg_url)
    config = _split_config(make_config(url, tmp_path), batch=1)
    first = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(first)
    apps = [first] + [App.from_config(config, FixedClock(first.clock.now())) for _ in range(3)]
    barrier = threading.Barrier(len(apps))
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        barrier.wait()
        try:
            for _ in range(400):
                turns.tick(apps[i].sessions, config, apps[i].clock, f"w{i}")
                if _t1(apps[i]).status == TurnStatus.DONE:
                    return
                time.sleep(0.01)
            raise AssertionError("Turn 1 was not resolved")
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(apps))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    t1 = _check_once(first)
    with transaction(first.sessions) as s:
        rows = s.scalars(select(TurnMatch).where(TurnMatch.turn_id == t1.id)).all()
        split = s.scalars(select(Event).where(Event.kind == "turn-split")).all()
    assert [r.attempts for r in rows] == [1] * len(rows)
    assert all(r.resolved_by == r.claimed_by for r in rows)
    by = Counter(r.resolved_by for r in rows)
    assert len(by) >= 2, by
    assert [e.data["matches"] for e in split] == [TEAMS // 2]
    for a in apps:
        a.close()


def test_a_dead_workers_claim_is_retaken_after_its_lease(pg_url: str, tmp_path: Path) -> None:
    """A worker claims three matches and dies (its claim abandoned): another worker resolves
    the rest but cannot finish the stage, nor take the claimed matches, until the lease
    passes; then it retakes them and the stage completes once, with the one-resolver report."""
    url = fresh_pg_database(pg_url)
    config = _split_config(make_config(url, tmp_path), batch=3)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    clock = app.clock
    assert isinstance(clock, FixedClock)
    assert turns.tick(app.sessions, config, clock, matches=False) == 1  # frozen and split
    dead = turns.claim_matches(app.sessions, config, clock, "dead")
    assert len(dead) == 3
    assert turns.tick(app.sessions, config, clock, "live") == 2  # the other 5 matches
    assert _t1(app).status == TurnStatus.FROZEN
    clock.advance(timedelta(seconds=59))
    assert turns.tick(app.sessions, config, clock, "live") == 0  # still under the lease
    with transaction(app.sessions) as s:
        wake = turns.next_wakeup(s, config, clock.now())
    assert wake is not None and wake <= clock.now() + timedelta(seconds=2)  # the lease's end
    clock.advance(timedelta(seconds=2))
    # The dead worker's three, then the stage's 17 mails (one row of them).
    assert turns.tick(app.sessions, config, clock, "live") == 1 + 1
    t1 = _check_once(app)
    with transaction(app.sessions) as s:
        rows = s.scalars(select(TurnMatch).where(TurnMatch.turn_id == t1.id)).all()
    retaken = {c.row_id for c in dead}
    assert {r.id for r in rows if r.attempts == 2} == retaken
    assert {r.resolved_by for r in rows} == {"live"}
    # The dead worker comes back late with its results: nothing is stored twice or redone.
    turns.store_results(app.sessions, config, clock, "dead", dead)
    with transaction(app.sessions) as s:
        assert s.scalar(select(func.count()).where(TurnMatch.resolved_by == "dead")) == 0
        s.execute(update(Turn).where(Turn.id == t1.id).values(note="checked"))
    _check_once(app)
    app.close()


def test_a_split_turn_on_sqlite_resolves_in_one_pass(tmp_path: Path) -> None:
    """One daemon on SQLite: the split stage's matches are all worked in the pass that froze
    it, and the report is the one-resolver report."""
    config = _split_config(make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), batch=3)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    # The freeze, 3 batches of 3 matches, one row of mails.
    assert turns.tick(app.sessions, config, app.clock) == 1 + 3 + 1
    _check_once(app)
    app.close()


def test_a_match_that_fails_to_resolve_stops_neither_the_worker_nor_the_rest(
    tmp_path: Path,
) -> None:
    """A corrupt job (a bug, in the field) is logged and left claimed: the pass goes on, the
    other matches are stored, and the stage waits, frozen, for that one (retried after the
    lease), rather than being assembled without it."""
    config = _split_config(make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), batch=3)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    assert turns.tick(app.sessions, config, app.clock, matches=False) == 1  # frozen and split
    with transaction(app.sessions) as s:
        s.execute(update(TurnMatch).where(TurnMatch.seq == 4).values(job='{"not": "a job"}'))
    assert turns.tick(app.sessions, config, app.clock, "w") == 3  # three batches, no raise
    with transaction(app.sessions) as s:
        rows = s.scalars(select(TurnMatch).order_by(TurnMatch.seq)).all()
        assert [r.status for r in rows] == ["done"] * 4 + ["claimed"] + ["done"] * 3
        assert rows[4].result is None and rows[4].attempts == 1
    assert _t1(app).status == TurnStatus.FROZEN
    app.close()


def _turn_reports(app: App) -> int:
    with transaction(app.sessions) as s:
        return int(
            s.scalar(
                select(func.count()).where(
                    OutboxMessage.kind == "turn-report", OutboxMessage.subject.contains("Turn 1")
                )
            )
            or 0
        )


def test_a_dead_workers_mail_claim_is_retaken_and_nothing_is_queued_twice(
    pg_url: str, tmp_path: Path
) -> None:
    """The assembled stage's 17 mails wait in four rows of five; a worker claims two rows and
    dies: another queues the other two but not those until the lease passes, then retakes
    them; the dead worker, back late with its claim, queues nothing; every team has its
    report once and the GM one digest."""
    url = fresh_pg_database(pg_url)
    config = _split_config(make_config(url, tmp_path), batch=8, mail_batch=5)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    clock = app.clock
    assert isinstance(clock, FixedClock)
    assert turns.tick(app.sessions, config, clock, matches=False) == 1  # frozen and split
    assert turns.work_matches(app.sessions, config, clock, "live") == TEAMS // 2
    assert _t1(app).status == TurnStatus.DONE  # assembled: its mails wait for workers
    assert _turn_reports(app) == 0
    dead = turn_mail.claim_mails(app.sessions, config, clock, "dead", limit=2)
    assert len(dead) == 2
    assert turns.tick(app.sessions, config, clock, "live") == 2  # the two rows left
    assert _turn_reports(app) == TEAMS - 10  # 6 reports and the digest in the last two rows
    clock.advance(timedelta(seconds=59))
    assert turns.tick(app.sessions, config, clock, "live") == 0  # still under the lease
    with transaction(app.sessions) as s:
        assert turn_mail.mails_pending(s) == 2
        wake = turns.next_wakeup(s, config, clock.now())
    assert wake is not None and wake <= clock.now() + timedelta(seconds=2)  # the lease's end
    clock.advance(timedelta(seconds=2))
    assert turns.tick(app.sessions, config, clock, "live") == 2  # the dead worker's rows
    assert turn_mail.queue_claimed(app.sessions, config, clock, "dead", dead) == 0
    t1 = _check_once(app)
    with transaction(app.sessions) as s:
        rows = s.scalars(select(TurnMail).where(TurnMail.turn_id == t1.id)).all()
        addresses = Counter(
            s.scalars(
                select(OutboxMessage.to_addr).where(
                    OutboxMessage.kind == "turn-report", OutboxMessage.subject.contains("Turn 1")
                )
            )
        )
    assert {r.id for r in rows if r.attempts == 2} == set(dead)
    assert {r.queued_by for r in rows} == {"live"}
    assert len(addresses) == TEAMS and set(addresses.values()) == {1}
    app.close()


def test_a_mail_row_that_fails_midway_queues_none_of_its_mails(tmp_path: Path) -> None:
    """A row whose third mail cannot be rendered (a bug, in the field) rolls back whole: none
    of its mails is queued, it stays claimed for a retry after the lease, and the other rows'
    mails are queued by the same pass."""
    config = _split_config(
        make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), batch=8, mail_batch=5
    )
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app)
    clock = app.clock
    assert turns.tick(app.sessions, config, clock, matches=False) == 1  # frozen and split
    assert turns.work_matches(app.sessions, config, clock, "w") == TEAMS // 2
    with transaction(app.sessions) as s:
        row = s.scalars(select(TurnMail).where(TurnMail.seq == 1)).one()
        mails = json.loads(row.mails)
        mails[2]["kind"] = "no-such-template"
        row.mails = json.dumps(mails)
    assert turns.tick(app.sessions, config, clock, "w") == 4  # every row tried, no raise
    assert _turn_reports(app) == TEAMS - 5
    with transaction(app.sessions) as s:
        rows = s.scalars(select(TurnMail).order_by(TurnMail.seq)).all()
        assert [r.status for r in rows] == ["done", "claimed", "done", "done"]
        assert rows[1].count == 5 and rows[1].mails != ""  # kept for the retry
    app.close()


def test_two_split_stages_are_claimed_in_turn_so_they_finish_together(tmp_path: Path) -> None:
    """Two competitions' stages split at once: each claim holds one stage's matches, and the
    claims alternate between the stages by the matches' places, so both stages' last matches
    come in the last two claims (two workers' claims, each assembling its own stage) rather
    than one stage wholly before the other."""
    config = _split_config(make_config(f"sqlite:///{tmp_path}/pbm.sqlite3", tmp_path), batch=4)
    app = App.from_config(config, FixedClock(START), upgrade=True)
    _knockout(app, "KA", "KB")
    clock = app.clock
    assert turns.tick(app.sessions, config, clock, matches=False) == 2  # both frozen and split
    claims = [turns.claim_matches(app.sessions, config, clock, f"w{i}") for i in range(5)]
    with transaction(app.sessions) as s:
        turn_of = dict(s.execute(select(Turn.id, Competition.code).join(Competition)).all())
        seq = dict(s.execute(select(TurnMatch.id, TurnMatch.seq)).all())
    stages = [{turn_of[c.turn_id] for c in claim} for claim in claims]
    assert stages == [{"KA"}, {"KB"}, {"KA"}, {"KB"}, set()]
    assert [[seq[c.row_id] for c in claim] for claim in claims[:4]] == [[0, 1, 2, 3]] * 2 + [
        [4, 5, 6, 7]
    ] * 2
    for i, claim in enumerate(claims[:4]):
        turns.store_results(app.sessions, config, clock, f"w{i}", claim)
    with transaction(app.sessions) as s:
        done = s.scalars(select(Turn).where(Turn.stage_key == "T1")).all()
        assert {t.status for t in done} == {TurnStatus.DONE}
        resolved = s.scalars(select(Event).where(Event.kind == "turn-resolved")).all()
        assert sorted(e.data["stage"] for e in resolved).count("T1") == 2
    app.close()
