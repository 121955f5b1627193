"""Flungo's fixtures for tests and benches, shipped with the game (as :mod:`pbm.testing`
ships the ports' fakes): a full or drawn competition without the mail, for what comes after
joining."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session

from pbm.core.clock import Clock
from pbm.core.config import Config
from pbm.db.models import Competition, Turn

__all__ = ["seat_named_sides", "start_drawn_mini"]


def seat_named_sides(
    s: Session,
    clock: Clock,
    comp: Competition,
    addresses: list[str],
    side_name: Callable[[int], str] = lambda n: f"Side {n}",
) -> None:
    """Seat a named side in ``comp`` for each of ``addresses`` (seat 1 for the first), with
    the competition's own squad and no secret: a full competition without the mail, for the
    tests and benches of what comes after joining."""
    from dataclasses import replace

    from pbm.db.models import Player, Seat
    from pbm.games.flungo.competitions import base_squad

    players = [Player(address=a, created_at=clock.now()) for a in addresses]
    s.add_all(players)
    s.flush()
    for n, player in enumerate(players, start=1):
        team = replace(base_squad(comp, n), name=side_name(n))
        s.add(
            Seat(
                competition_id=comp.id,
                player_id=player.id,
                number=n,
                secret_hash="",
                secret_version=1,
                team=team.to_json(),
                named=True,
                naming_version=1,
                joined_at=clock.now(),
            )
        )


def start_drawn_mini(
    s: Session,
    config: Config,
    clock: Clock,
    code: str,
    *,
    settings: Mapping[str, Any] | None = None,
    seed: str | None = None,
    addresses: list[str] | None = None,
    side_name: Callable[[int], str] = lambda n: f"Side {n}",
) -> tuple[Competition, Turn]:
    """A four-team T20 mini tournament played every hour, with named sides
    (:func:`seat_named_sides`; ``<code>1@example.test`` ... by default), drawn: returns it and
    its first stage (selection), open. ``settings`` override the competition's (the pre-run
    check off by default: ``hold_share`` 1.0)."""
    from pbm.games.flungo import turns
    from pbm.games.flungo.competitions import create_competition

    comp = create_competition(
        s,
        clock,
        code=code,
        name=f"Cup {code}",
        fmt="t20",
        teams=4,
        naming_deadline=clock.now() + timedelta(days=1),
        seed=seed or f"{code}-seed",
        kind="mini",
        schedule="every 1h",
        settings={"hold_share": 1.0, **(settings or {})},
    )
    if addresses is None:
        addresses = [f"{code.lower()}{n}@example.test" for n in range(1, 5)]
    seat_named_sides(s, clock, comp, addresses, side_name)
    s.flush()
    s.refresh(comp)
    return comp, turns.start_competition(s, config, clock, comp)
