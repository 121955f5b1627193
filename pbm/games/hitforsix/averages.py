"""The Averages (law 8): the book of the Daily XI, kept by replay.

* **Posting** (AVERAGES <code> NAME <name> [NUMBER <n>]): the code is replayed with the engine;
  it must be a Daily XI of today or yesterday (UTC: a game begun before midnight may be posted
  after) under the day's Rule (:func:`engine.hitforsix.code.check_daily`), and it is entered
  under the name. **One statement a day for each deck**: a second code for the same day and
  deck is refused, whatever its grade.
* **Names are first come, first served** (law 8.02), compared without case or spacing, and a
  new name that looks like one in the book ("BiII" beside "Bill") is refused. The first
  posting under a name invents a **number** for the poster's device (twelve digits, shown once in
  the reply); the book keeps only its argon2 hash, and every later posting under the name must
  carry the number. The book keeps nothing else: no address, no time, and nothing at all about
  anyone who never posts.
* **The season** is the calendar month (UTC) and counts **only each name's best day** — its
  single best grade of the month, any deck: four decks give four chances and no extra credit.
  Ties go to the earlier posting.
* Every tally is **derived by replay** (the book stores codes, never grades).

Functions take a Session, a clock and plain values and return what happened; the caller commits.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.hitforsix.code import CodeError, check_daily, decode, replay
from engine.hitforsix.game import SoloGame
from engine.lookalike import lookalike_key
from pbm.core.clock import Clock
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck
from pbm.games.hitforsix.models import H6Averager, H6Statement
from pbm.games.hitforsix.solo import Reply, daily_days
from pbm.secrets.seats import SecretBox

__all__ = [
    "Entry",
    "PostOutcome",
    "day_statements",
    "post_daily",
    "season_table",
]

Draw = Callable[[int], int]
_NAME = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9 .'&-]{0,39}\Z")


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def _lookalike(session: Session, name: str) -> str | None:
    """A name in the book a reader could not tell from ``name`` ("rn" for "m", "l" for
    "I": the TS #39 skeleton, as team names are compared), if any."""
    mine = lookalike_key(name)
    for other in session.scalars(select(H6Averager.name)):
        theirs = lookalike_key(other)
        if mine[0] == theirs[0] or mine[1] == theirs[1]:
            return other
    return None


@functools.lru_cache(maxsize=4096)
def _tally(code: str) -> SoloGame:
    # A code always replays to the same game, so its tally can be kept in memory, never stored.
    ch = decode(code)
    return replay(ch, load_deck(ch.deck))


@dataclass(frozen=True, slots=True)
class Entry:
    """A line of a page: the name, the deck and day, the grade (derived) and the code."""

    name: str
    deck: str
    day: str
    tenths: int
    code: str
    resembles: str
    order: int  # posting order (the statement's row), which breaks ties

    @property
    def grade(self) -> str:
        """The grade as shown."""
        return f"{self.tenths / 10:.1f}"


@dataclass(frozen=True, slots=True)
class PostOutcome:
    """What posting did: entered or refused, and the reply (its context) to send."""

    ok: bool
    note: str
    reply: Reply = field(default_factory=lambda: Reply("h6-averages", {}))


def _refused(reason: str) -> PostOutcome:
    return PostOutcome(False, reason, Reply("h6-refused", {"reason": reason}))


def post_daily(
    session: Session,
    clock: Clock,
    box: SecretBox,
    *,
    code: str,
    name: str,
    number: str | None = None,
    draw: Draw = secrets.randbits,
) -> PostOutcome:
    """Enter a finished daily under ``name``; refuse what the laws refuse, saying why."""
    name = " ".join(name.split())
    if not _NAME.match(name):
        return _refused("a name is 1 to 40 letters, digits, spaces or . ' & - (starting with "
                        "a letter or digit)")  # fmt: skip
    try:
        ch = decode(code)
        deck = load_deck(ch.deck)
        days = [d for d in daily_days(clock.now()) if _is_daily_of(ch.seed, ch.deck, d)]
        if not days:
            return _refused(
                f"this code is not the {ch.deck} Daily XI of today or yesterday (UTC): "
                "The Averages is the book of the Daily XI"
            )
        day = days[0]
        game = check_daily(ch, deck, day)
    except CodeError as exc:
        return _refused(str(exc))
    averager = session.scalar(select(H6Averager).where(H6Averager.name_key == _key(name)))
    invented = None
    if averager is None and (alike := _lookalike(session, name)) is not None:
        return _refused(
            f"the name {name!r} looks just like {alike!r}, a name already in the book: "
            "names are first come, first served; choose one that reads differently"
        )
    if averager is None:
        invented = f"{draw(40) % 10**12:012d}"
        averager = H6Averager(name=name, name_key=_key(name), number_hash=box.hash(invented))
        session.add(averager)
        session.flush()
    elif number is None or not box.verify(averager.number_hash, number):
        return _refused(
            f"the name {averager.name!r} is taken: names are first come, first served; post "
            "with its NUMBER, or choose another name"
        )
    taken = session.scalar(
        select(H6Statement).where(
            H6Statement.averager_id == averager.id,
            H6Statement.day == day,
            H6Statement.deck == ch.deck,
        )
    )
    if taken is not None:
        return _refused(
            f"{averager.name} has posted the {ch.deck} Daily XI of {day} already: one statement "
            "a day for each deck"
        )
    session.add(H6Statement(averager_id=averager.id, day=day, deck=ch.deck, code=code.strip()))
    session.flush()
    today = day_statements(session, day, ch.deck)
    rank = next(i for i, e in enumerate(today, 1) if e.name == averager.name)
    season = season_table(session, day[:7])
    best = next(e for e in season if e.name == averager.name)
    ctx: dict[str, Any] = {
        "name": averager.name,
        "number": invented,
        "deck": ch.deck,
        "day": day,
        "grade": f"{game.grade.grade:.1f}",
        "rank": rank,
        "of": len(today),
        "season": day[:7],
        "season_best": best.grade,
        "season_rank": season.index(best) + 1,
    }
    return PostOutcome(True, f"{averager.name}: {ch.deck} {day}", Reply("h6-averages", ctx))


def _is_daily_of(seed: int, deck: str, day: str) -> bool:
    from engine.hitforsix.deal import daily_seed

    return seed == daily_seed(deck, day)


def _entries(session: Session, *where: Any) -> list[Entry]:
    rows = session.execute(
        select(H6Statement, H6Averager.name)
        .join(H6Averager, H6Statement.averager_id == H6Averager.id)
        .where(*where)
        .order_by(H6Statement.id)
    )
    out = []
    for st, name in rows:
        game = _tally(st.code)
        out.append(
            Entry(
                name,
                st.deck,
                st.day,
                game.grade.tenths,
                st.code,
                game.resemblance.match.name,
                st.id,
            )
        )
    return out


def day_statements(session: Session, day: str, deck: str | None = None) -> list[Entry]:
    """The day's statements (one deck, or all), best grade first, earlier posting on ties."""
    where = [H6Statement.day == day]
    if deck is not None:
        if deck not in DECK_NAMES:
            raise ValueError(f"there is no deck {deck!r}")
        where.append(H6Statement.deck == deck)
    entries = _entries(session, *where)
    return sorted(entries, key=lambda e: (-e.tenths, e.order))


def season_table(session: Session, season: str) -> list[Entry]:
    """The season (``YYYY-MM``): each name's best day only, best first."""
    best: dict[str, Entry] = {}
    for e in _entries(session, H6Statement.day.startswith(season)):
        if e.name not in best or e.tenths > best[e.name].tenths:
            best[e.name] = e
    return sorted(best.values(), key=lambda e: (-e.tenths, e.order))
