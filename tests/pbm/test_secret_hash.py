"""Secrets: 80 random bits, hashed at the configured (cheap by default) argon2id cost, wrong
ones refused, nothing secret at rest, and old hashes re-made at the configured cost."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from pbm.core.config import SecurityConfig
from pbm.daemon import Daemon
from pbm.db.models import Seat
from pbm.db.session import transaction
from pbm.secrets.seats import SECRET_BITS, SecretBox
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import SECRET_KEY
from tests.pbm.helpers import join, naming_text, say

SHAPE = re.compile(r"^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$")


def _box(**kw: int) -> SecretBox:
    return SecretBox(SecurityConfig(secret_key=SECRET_KEY, **kw))


def test_defaults_are_cheap_argon2id_and_secrets_have_80_bits() -> None:
    """The default hash is argon2id t=1, 64 KiB; a secret is 16 symbols of 32 (80 bits)."""
    box = _box()
    secret = box.derive(1, 1)
    assert SECRET_BITS == 80 and SHAPE.match(secret), secret
    stored = box.hash(secret)
    assert stored.startswith("$argon2id$v=19$m=64,t=1,p=1$")
    assert secret not in stored and secret.replace("-", "") not in stored


@given(seat=st.integers(1, 10**6), version=st.integers(1, 50))
def test_derived_secrets_differ_per_seat_and_version(seat: int, version: int) -> None:
    """Another seat, or another version of the same seat, gets another secret."""
    box = _box()
    secret = box.derive(seat, version)
    assert SHAPE.match(secret)
    assert secret != box.derive(seat + 1, version)
    assert secret != box.derive(seat, version + 1)


def test_verify_accepts_the_secret_retyped_and_refuses_any_other() -> None:
    """Case, spaces and dashes do not matter; one wrong symbol, or another seat's secret, fails."""
    box = _box()
    secret = box.derive(7, 1)
    stored = box.hash(secret)
    assert box.verify(stored, secret.lower().replace("-", " "))
    wrong = ("A" if secret[0] != "A" else "B") + secret[1:]
    assert not box.verify(stored, wrong)
    assert not box.verify(stored, box.derive(8, 1))
    assert not box.verify(stored, "")
    assert not box.verify("not a hash", secret)


def test_needs_rehash_only_for_other_parameters() -> None:
    """A hash made at the configured cost is kept; one made at another cost is flagged."""
    cheap, strong = _box(), _box(argon2_time_cost=2, argon2_memory_kib=1024)
    secret = cheap.derive(1, 1)
    assert not cheap.needs_rehash(cheap.hash(secret))
    assert cheap.needs_rehash(strong.hash(secret))
    assert cheap.needs_rehash("garbage")


def test_an_old_cost_hash_is_remade_on_the_next_good_secret_only(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A seat hashed at another cost still accepts its secret, and is then re-hashed at the
    configured cost; a wrong secret leaves the old hash alone."""
    secret = join(daemon, sender, "player1@example.test")
    strong = _box(argon2_time_cost=2, argon2_memory_kib=1024)
    with transaction(daemon.app.sessions) as s:
        seat = s.scalars(select(Seat)).one()
        seat.secret_hash = old = strong.hash(secret)
    [refused] = say(daemon, sender, naming_text("AAAA-BBBB-CCCC-DDDD", team="Forged"))
    assert "does not match" in body_of(refused)
    with transaction(daemon.app.sessions) as s:
        assert s.scalars(select(Seat)).one().secret_hash == old
    [accepted] = say(daemon, sender, naming_text(secret))
    assert "does not match" not in body_of(accepted)
    with transaction(daemon.app.sessions) as s:
        now = s.scalars(select(Seat)).one().secret_hash
    assert now != old and not daemon.app.box.needs_rehash(now)
    assert daemon.app.box.verify(now, secret)
