"""A seat's secret hashed at other argon2 parameters than the configured ones is hashed
again when its player's mail proves the secret, and the new hash is what is stored."""

from __future__ import annotations

from argon2 import PasswordHasher
from sqlalchemy import select, update

from pbm.daemon import Daemon
from pbm.db.models import Seat, table_of
from pbm.db.session import transaction
from pbm.secrets.seats import normalise_secret
from pbm.testing import RecordingSender
from tests.pbm.helpers import join, naming_text, say


def _hash_of(daemon: Daemon) -> str:
    with transaction(daemon.app.sessions) as s:
        return str(s.scalar(select(Seat.secret_hash).where(Seat.number == 1)))


def test_a_proven_secret_is_rehashed_at_the_configured_cost_and_stored(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """After a naming mail with the right secret, the seat's hash made at an old cost is
    replaced by one at the configured cost that still verifies the secret; the mail was
    answered as accepted and a second mail verifies against the new hash."""
    secret = join(daemon, sender, "player1@example.test")
    old = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    with transaction(daemon.app.sessions) as s:
        s.execute(
            update(table_of(Seat))
            .where(table_of(Seat).c.number == 1)
            .values(secret_hash=old.hash(normalise_secret(secret)))
        )
    box = daemon.app.inbound.box
    assert box.needs_rehash(_hash_of(daemon))
    [reply] = say(daemon, sender, naming_text(secret))
    assert "Squad names received" in str(reply["Subject"])
    stored = _hash_of(daemon)
    assert not box.needs_rehash(stored)
    assert box.verify(stored, secret)
    [again] = say(daemon, sender, naming_text(secret, team="The Gloopers Two"))
    assert "Squad names received" in str(again["Subject"])
    assert _hash_of(daemon) == stored
