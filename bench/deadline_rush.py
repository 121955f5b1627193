"""Deadline rush: 2,000 teams send their orders in the last minutes before a turn falls due.

Setup (not timed): 250 eight-team leagues (``--teams``/8), every team joined and named, the
draw made and each league's first stage (selection and toss) open. Then the deadline of
every stage is set to the end of the rush window, and each team's orders (toss, captain)
go into Dovecot by IMAP APPEND at seeded random moments over the window, from several
connections at once, as players would send them in the last ten minutes. The daemon runs as
``pbm serve`` would: IMAP IDLE, SQLite (WAL), SmtpSender to an aiosmtpd sink.

Printed: the acknowledgement latency during the rush (p50/p90/p99/max, by In-Reply-To), how
many orders were accepted, and after the deadline how long until every stage was resolved and
how long until the last report, digest and zine issue reached the sink.

    /work/venv/bin/python bench/deadline_rush.py [--teams 2000] [--window 600] [--pdf]

``--window 600`` is the real ten minutes; ``--window 120`` gives the same mail at five times
the rate (a harder test, in a fifth of the time).
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from datetime import UTC, datetime, timedelta

from _services import (  # type: ignore[import-not-found]
    Bench,
    _mail,
    join_mails,
    naming_mails,
    percentile,
    seats,
    summary,
)
from imapclient import IMAPClient
from sqlalchemy import func, select, update

from pbm.daemon import Daemon
from pbm.db.models import Competition, OutboxMessage, Turn, TurnStatus
from pbm.db.session import transaction
from pbm.mail.imap import ImapMailbox
from pbm.mail.smtp import SmtpSender

LEAGUE = 8


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--teams", type=int, default=2000, help="teams in all (8 a league)")
    ap.add_argument("--window", type=float, default=600.0, help="seconds of the rush")
    ap.add_argument("--connections", type=int, default=4, help="parallel delivering clients")
    ap.add_argument("--pdf", action="store_true", help="make each zine issue's PDF (Typst)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    leagues = -(-args.teams // LEAGUE)
    bench = Bench(
        competitions=leagues,
        teams=LEAGUE,
        sections={
            "turns": {"reminders": [], "hold_share": 1.0},
            "zine": {"pdf": args.pdf},
        },
    )
    try:
        run(bench, args, leagues * LEAGUE)
    finally:
        bench.close()


def _setup(bench: Bench, daemon: Daemon, teams: int) -> None:
    """Join and name every team through the store (fast, untimed), then close naming so the
    draw is made."""
    t0 = time.monotonic()
    for batch in (join_mails(bench, teams), None):
        mails = batch if batch is not None else naming_mails(bench)
        for k, (_, raw) in enumerate(mails):
            daemon.store(raw, "player@players.test", ["pbm@example.test"])
            if k % 200 == 199:
                daemon.run_once()
        daemon.run_once()
    # Naming closes now: the draw comes at the next pass, the fixtures are mailed.
    with transaction(bench.app.sessions) as s:
        s.execute(update(Competition).values(naming_deadline=datetime.now(UTC)))
    for _ in range(3):
        daemon.run_once()
    with transaction(bench.app.sessions) as s:
        open_stages = s.scalar(select(func.count()).where(Turn.status == TurnStatus.OPEN))
    print(
        f"  setup: {teams} teams joined and named, {open_stages} stages open, "
        f"{time.monotonic() - t0:.0f} s (untimed)"
    )


def _orders_mails(bench: Bench) -> list[tuple[str, bytes]]:
    out = []
    for seat_id, secret, address, code in seats(bench):
        body = f"SECRET {secret}\ntoss: bat\ncaptain: Celebrity {seat_id}-2\n"
        mid = f"<orders-{seat_id}@players.test>"
        out.append((mid, _mail(address, f"Re: [{code}] orders", body, mid)))
    return out


def run(bench: Bench, args: argparse.Namespace, teams: int) -> None:
    dv = bench.dovecot
    rng = random.Random(args.seed)
    mailbox = ImapMailbox(dv.host, dv.imap, username="pbm", password="secret", security="plain")
    sender = SmtpSender("127.0.0.1", bench.sink.port, security="plain")
    daemon = Daemon(bench.app, sender, [mailbox], max_wait=5)
    print(
        f"deadline rush: {teams} teams in {teams // LEAGUE} leagues send orders over the last "
        f"{args.window:.0f} s before the deadline, via IMAP APPEND from {args.connections} "
        "connections; daemon on IMAP IDLE, SQLite, SmtpSender -> aiosmtpd sink"
    )
    _setup(bench, daemon, teams)
    mails = _orders_mails(bench)
    offsets = sorted(rng.uniform(0, args.window) for _ in mails)

    def move_deadlines() -> float:
        """Every open stage falls due just after the last mail of the rush (its monotonic
        time is returned)."""
        at_mono = time.monotonic() + args.window + 1.0
        at = datetime.now(UTC) + timedelta(seconds=args.window + 1.0)
        with transaction(bench.app.sessions) as s:
            s.execute(update(Turn).where(Turn.status == TurnStatus.OPEN).values(deadline=at))
        return at_mono

    move_deadlines()
    # Untimed: the pass that settles every stage's reminders for the moved deadline (those
    # already past when the stage opened are skipped, a step per competition). A daemon in
    # its rush has done this long before. (What the first answers once waited for was the
    # set-up's fixtures, sent between mails: the outbox printed below.)
    settle = time.monotonic()
    daemon.run_once()
    print(f"  the pass after {teams // LEAGUE} deadlines moved: {time.monotonic() - settle:.1f} s")
    deadline_mono = move_deadlines()  # the same reminders past: nothing to settle again
    with transaction(bench.app.sessions) as s:
        backlog = dict(
            s.execute(
                select(OutboxMessage.kind, func.count())
                .where(OutboxMessage.status == "pending")
                .group_by(OutboxMessage.kind)
            ).all()
        )
    print(
        "  the outbox as the rush begins: "
        + (", ".join(f"{n} {kind}" for kind, n in sorted(backlog.items())) or "empty")
    )
    before = len(bench.sink.arrivals)
    loop = threading.Thread(target=daemon.run, name="daemon", daemon=True)
    loop.start()
    time.sleep(0.5)
    start = time.monotonic() + 0.2
    sent_at: dict[str, float] = {}

    def deliver(k: int) -> None:
        imap = IMAPClient(dv.host, port=dv.imap, ssl=False, timeout=30)
        imap.login("pbm", "secret")
        for i in range(k, len(mails), args.connections):
            mid, raw = mails[i]
            delay = start + offsets[i] - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            sent_at[mid] = time.monotonic()
            imap.append("INBOX", raw)
        imap.logout()

    clients = [threading.Thread(target=deliver, args=(k,)) for k in range(args.connections)]
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    acked = bench.sink.wait_for(before + len(mails), timeout=120)
    stages = teams // LEAGUE
    done_at = None
    limit = time.monotonic() + 900
    while time.monotonic() < limit:
        with transaction(bench.app.sessions) as s:
            done = s.scalar(
                select(func.count()).where(
                    Turn.status == TurnStatus.DONE, Turn.stage_key == "R1-select"
                )
            )
        if done == stages:
            done_at = time.monotonic()
            break
        time.sleep(0.2)
    # The reports, digests and zine issues: wait until the sink has been quiet for 5 s.
    quiet_since, count = time.monotonic(), len(bench.sink.arrivals)
    while time.monotonic() - quiet_since < 5 and time.monotonic() < limit:
        time.sleep(0.5)
        if len(bench.sink.arrivals) != count:
            quiet_since, count = time.monotonic(), len(bench.sink.arrivals)
    daemon.request_stop()
    loop.join(60)
    mailbox.close()
    sender.close()

    wanted = {mid for mid, _ in mails}
    latencies = [a - sent_at[irt] for a, irt in bench.sink.arrivals if irt in wanted]
    # The slowest answers, and when their mail went in (seconds before the deadline): a
    # tail at the deadline is the freeze, a tail spread over the rush is the wait for mail.
    slow = sorted(
        (
            (a - sent_at[irt], deadline_mono - sent_at[irt])
            for a, irt in bench.sink.arrivals
            if irt in wanted
        ),
        reverse=True,
    )[: max(1, len(mails) // 100)]
    after = [a for a, _ in bench.sink.arrivals if a >= deadline_mono]
    with transaction(bench.app.sessions) as s:
        frozen = s.scalars(select(Turn.orders).where(Turn.stage_key == "R1-select")).all()
    played = sum(
        1 for orders in frozen for text in (orders or {}).get("teams", {}).values() if text
    )
    print(f"  acks matched: {len(latencies)}/{len(mails)}" + ("" if acked else " (TIMED OUT)"))
    print(f"  orders played at the deadline: {played}/{teams} teams (the rest on defaults)")
    if latencies:
        print(f"  ack latency during the rush: {summary(latencies)}")
        print(f"  target p99 <= 1 s: {'met' if percentile(latencies, 99) <= 1.0 else 'MISSED'}")
        print(
            "  the slowest 1%: "
            + ", ".join(f"{lat:.1f} s ({before:.0f} s before)" for lat, before in slow[:20])
        )
    if done_at is None:
        print("  stages resolved: NOT ALL within 15 min of the deadline")
    else:
        print(f"  all {stages} stages resolved {done_at - deadline_mono:.1f} s after the deadline")
    if after:
        print(
            f"  {len(after)} mails after the deadline (reports, digests, zine issues); "
            f"the last {max(after) - deadline_mono:.1f} s after it"
        )


if __name__ == "__main__":
    main()
