"""Privacy kept as promised (issue 23): after a purge no table holds a non-player's address or
a handled mail's bytes; dead letters keep theirs until handled; the daemon purges daily."""

from __future__ import annotations

import json
import warnings
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import MetaData, select
from sqlalchemy.exc import SAWarning

from engine.hitforsix.code import encode
from engine.hitforsix.deal import daily_seed, deal
from engine.hitforsix.game import play_solo
from engine.hitforsix.over import Decisions
from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.daemon import Daemon
from pbm.db.models import InboundMail, OutboxMessage
from pbm.db.session import transaction
from pbm.games.hitforsix.decks.load import load_deck
from pbm.inbound import pipeline
from pbm.inbound.context import Handled, MailContext
from pbm.inbound.dispatch import Run
from pbm.ops.retention import REMOVED
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import config_data, toml_text
from tests.pbm.helpers import join, say

PLAYER = "player1@example.test"
STRANGER = "stranger@elsewhere.test"
POSTER = "poster@elsewhere.test"
DEAD = "dead@elsewhere.test"
STRANGER_WORDS = "ZANZIBAR OTTER"  # in the stranger's mail only
PLAYER_WORDS = "okapi dreams"  # a sign-off in the player's naming mail, kept by no game table
DEAD_WORDS = "WOMBAT LETTER"


def _daily(day: str) -> str:
    """A finished t20i Daily XI of ``day``, as its code."""
    d = deal(load_deck("t20i"), daily_seed("t20i", day))
    return encode(play_solo(d, d.rule, Decisions.from_text("0")))


def _boom(ctx: MailContext, decision: Run) -> Handled:
    raise RuntimeError("a handler failed")


def _world(daemon: Daemon, sender: RecordingSender, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who named a squad, a stranger who asked for HELP, an Averages poster, and
    a dead letter from a fourth address."""
    secret = join(daemon, sender, PLAYER)
    say(
        daemon,
        sender,
        f"SECRET {secret}\nNAME 4 Geoffrey Hayes\nCheers, {PLAYER_WORDS}\n",
        frm=PLAYER,
    )
    [help_] = say(daemon, sender, f"HELP\n{STRANGER_WORDS}\n", frm=STRANGER, subject="help")
    assert "HELP" in body_of(help_) or "command" in body_of(help_).lower()
    code = _daily(daemon.app.clock.now().date().isoformat())
    [posted] = say(daemon, sender, f"AVERAGES {code} NAME Pat Poster\n", frm=POSTER, subject="x")
    assert "Pat Poster" in str(posted["Subject"]) + body_of(posted)
    with monkeypatch.context() as m:
        m.setattr(pipeline, "execute", _boom)
        say(daemon, sender, f"HELP\n{DEAD_WORDS}\n", frm=DEAD, subject="help")


def _every_value(daemon: Daemon) -> dict[str, list[str]]:
    """Every table (reflected from the database, not the models) and its values as text."""
    db_engine = daemon.app.db_engine
    meta = MetaData()
    with warnings.catch_warnings():
        # SQLite's reflection skips the expression index on lower(address) (it holds no value)
        warnings.filterwarnings("ignore", "Skipped unsupported reflection", SAWarning)
        meta.reflect(db_engine)
    out: dict[str, list[str]] = {}
    with db_engine.connect() as c:
        for name, table in meta.tables.items():
            values = []
            for row in c.execute(select(table)):
                for v in row:
                    if isinstance(v, bytes | memoryview):
                        values.append(bytes(v).decode("utf-8", "replace"))
                    elif isinstance(v, dict | list):
                        values.append(json.dumps(v))
                    elif v is not None:
                        values.append(str(v))
            out[name] = values
    return out


def _holding(values: dict[str, list[str]], text: str) -> list[str]:
    """The tables where ``text`` appears (any case)."""
    return sorted(t for t, vs in values.items() if any(text.lower() in v.lower() for v in vs))


def _config_file(daemon: Daemon, tmp_path: Path) -> Path:
    path = tmp_path / "pbm.toml"
    path.write_text(toml_text(config_data(daemon.app.config.database.url, tmp_path)))
    return path


def test_after_a_purge_no_table_holds_a_strangers_address_or_raw_mail(
    daemon: Daemon,
    sender: RecordingSender,
    demo: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``pbm db purge --dry-run`` counts and changes nothing; ``pbm db purge`` then leaves
    no stranger's or Averages poster's address and no handled mail's words in any table
    (read by reflecting every table), keeps the player's address and the dead letter whole."""
    _world(daemon, sender, monkeypatch)
    before = _every_value(daemon)
    for text in (STRANGER, POSTER, STRANGER_WORDS, PLAYER_WORDS, "Pat Poster"):
        assert _holding(before, text), text  # the test can fail: they are there now
    config = _config_file(daemon, tmp_path)
    dry = CliRunner().invoke(main, ["db", "purge", "--dry-run", "--config", str(config)])
    assert dry.exit_code == 0, dry.output
    assert "would be removed" in dry.output and "would change" in dry.output
    assert _every_value(daemon) == before
    # the CLI's clock is the real one, months after the fixed clock's mail: all of it is old
    done = CliRunner().invoke(main, ["db", "purge", "--config", str(config)])
    assert done.exit_code == 0, done.output
    assert "mail from non-players" in done.output
    after = _every_value(daemon)
    for text in (STRANGER, POSTER, "?@elsewhere.test", STRANGER_WORDS, PLAYER_WORDS):
        assert _holding(after, text) == [], text
    assert "players" in _holding(after, PLAYER)
    assert "Pat Poster" not in " ".join(after["outbox"])  # the name and grade in a subject
    assert "Pat Poster" in " ".join(after["h6_averagers"])  # the book keeps the name
    with transaction(daemon.app.sessions) as s:
        dead = s.scalars(select(InboundMail).where(InboundMail.status == "shunted")).one()
        assert DEAD.encode() in dead.raw and DEAD_WORDS.encode() in dead.raw
        assert dead.sealed is not None
        stranger_out = s.scalars(select(OutboxMessage).where(OutboxMessage.to_addr == REMOVED))
        assert len(list(stranger_out)) >= 2


def test_strangers_go_at_once_and_player_raw_mail_after_raw_days(
    daemon: Daemon, sender: RecordingSender, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daemon's daily job: the same day nothing goes (a day for the answers' delivery);
    two days on the strangers' addresses (answered) go, but a player's handled mail stays
    until it is raw_days old; 31 days on, that goes too. The dead letter stays throughout."""
    _world(daemon, sender, monkeypatch)
    clock = daemon.app.clock
    assert isinstance(clock, FixedClock)
    clock.advance(timedelta(hours=1))
    daemon.run_once()
    assert _holding(_every_value(daemon), STRANGER)
    clock.advance(timedelta(days=2))
    daemon.run_once()
    one_day = _every_value(daemon)
    assert _holding(one_day, STRANGER) == [] and _holding(one_day, POSTER) == []
    assert "inbound_mail" in _holding(one_day, PLAYER_WORDS)
    clock.advance(timedelta(days=31))
    daemon.run_once()
    later = _every_value(daemon)
    assert _holding(later, PLAYER_WORDS) == []
    assert "inbound_mail" in _holding(later, DEAD_WORDS)
    assert _holding(later, DEAD) == ["inbound_mail"]
