"""JOIN by mail: the reply, its secret, the squad, a full competition, redelivery."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from pbm.daemon import Daemon
from pbm.db.models import Competition, InboundMail, OutboxMessage, Seat
from pbm.db.session import transaction
from pbm.mail.flowed import unflow
from pbm.testing import RecordingSender, body_of, make_eml
from tests.pbm.helpers import SECRET_RE, join, say

GOLDEN = Path(__file__).parent / "golden" / "join_reply.txt"


def test_the_reply_goes_out_flowed_with_its_secret_filled_in(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The welcome, its secret put in at sending, is sent as ``format=flowed`` in
    quoted-printable (no relay strips a soft line's trailing space); a flowing reader gets
    its first paragraph as one line, and the secret's line and the squad's table as written."""
    [reply] = say(daemon, sender, "JOIN\n", subject="[DEMO] join")
    part = reply.get_body(preferencelist=("plain",))
    assert part is not None
    assert part.get_param("format") == "flowed"
    assert part["Content-Transfer-Encoding"] == "quoted-printable"
    # the part as the composer wrote it: filling the secret in wrote only its payload again
    assert list(part.keys()) == ["MIME-Version", "Content-Transfer-Encoding", "Content-Type"]
    read = unflow(part.get_content()).splitlines()
    assert read[0] == (
        "Welcome to Demo Cup [DEMO], a Twenty20 competition of Cosmic Celebrity Cricket"
        " for 4 teams."
    )
    assert (
        "Keep it safe: this is the only time it is shown, and pbm keeps only a scrambled"
        " copy. Every mail with orders must carry it on a line of its own:" in read
    )
    secret = SECRET_RE.search(body_of(reply))
    assert secret is not None and f"    SECRET {secret.group(1)}" in read
    assert "   1  Star Batsman 1          Star Batsman           22     9      6  spin" in read


def test_join_reply_gives_secret_team_and_squad(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A JOIN gets one threaded reply with a secret, the team and 18 rows of stats and style."""
    raw = make_eml("JOIN\n", subject="[DEMO] join", message_id="<join-1@example.test>")
    daemon.app.inbound.store(raw, "smtp")
    assert daemon.run_once().processed == 1
    [reply] = sender.to("player1@example.test")
    body = body_of(reply)
    assert SECRET_RE.search(body)
    assert reply["In-Reply-To"] == "<join-1@example.test>"
    assert reply["Auto-Submitted"] == "auto-replied"
    assert "[DEMO]" in str(reply["Subject"])
    rows = [ln for ln in body.splitlines() if ln[:4].strip().isdigit()]
    assert len(rows) == 18
    assert all(ln.split()[-1] in ("spin", "medium", "fast") for ln in rows)


def test_join_reply_matches_golden_snapshot(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """The JOIN reply's text is pinned (fixed seed, fixed key, first seat)."""
    say(daemon, sender, "JOIN\n", subject="[DEMO] join")
    body = body_of(sender.sent[-1])
    if not GOLDEN.exists():  # pragma: no cover - first run writes the snapshot
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(body)
    assert body == GOLDEN.read_text()


def test_join_by_plus_address(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """JOIN to pbm+demo@ joins DEMO without a subject tag."""
    replies = say(daemon, sender, "join\n", subject="hello", to="pbm+demo@example.test")
    assert SECRET_RE.search(body_of(replies[0]))


def test_squad_is_deterministic_from_seed_and_seat(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Two seats get different squads; the same seat of the same seed gets the same one."""
    join(daemon, sender, "a@example.test")
    join(daemon, sender, "b@example.test")
    with transaction(daemon.app.sessions) as s:
        seats = s.scalars(select(Seat).order_by(Seat.number)).all()
        comp = s.scalars(select(Competition)).one()
        from pbm.games.flungo.competitions import base_squad

        assert seats[0].team == base_squad(comp, 1).to_json()
        assert seats[0].team != seats[1].team


def test_competition_full_closes_joining(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """After the fourth team, a fifth JOIN is told the competition is full."""
    for i in range(4):
        join(daemon, sender, f"p{i}@example.test")
    [reply] = say(daemon, sender, "JOIN\n", frm="late@example.test", subject="[DEMO] join")
    assert "full" in str(reply["Subject"])
    assert not SECRET_RE.search(body_of(reply))
    with transaction(daemon.app.sessions) as s:
        assert s.scalars(select(Competition)).one().status == "full"
        assert s.scalar(select(func.count()).select_from(Seat)) == 4


def test_second_join_does_not_show_secret_again(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A player joining twice keeps one seat, and the secret is not shown again."""
    join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, "JOIN\n", subject="[DEMO] again")
    assert "already" in str(reply["Subject"])
    assert not SECRET_RE.search(body_of(reply))


def test_redelivery_is_ignored(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """The same message delivered twice is stored once, applied once, answered once."""
    raw = make_eml("JOIN\n", subject="[DEMO] join", message_id="<same@example.test>")
    first = daemon.app.inbound.store(raw, "smtp")
    daemon.run_once()
    second = daemon.app.inbound.store(raw, "imap")
    daemon.run_once()
    assert first.created and not second.created and first.id == second.id
    assert len(sender.to("player1@example.test")) == 1
    with transaction(daemon.app.sessions) as s:
        assert s.scalar(select(func.count()).select_from(InboundMail)) == 1
        assert s.scalar(select(func.count()).select_from(Seat)) == 1


def test_redelivery_without_message_id_is_ignored(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """Without a Message-ID, the same bytes are recognised by their hash."""
    raw = b"From: x@example.test\r\nTo: pbm@example.test\r\nSubject: [DEMO] j\r\n\r\nJOIN\r\n"
    a = daemon.app.inbound.store(raw, "ingest")
    b = daemon.app.inbound.store(raw, "ingest")
    assert a.id == b.id and b.created is False
    daemon.run_once()
    assert len(sender.to("x@example.test")) == 1


def test_unknown_game_and_no_game_are_answered(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A JOIN to an unknown code, or with no code, is answered, listing open competitions."""
    [r1] = say(daemon, sender, "JOIN\n", subject="[NOPE] join")
    assert "NOPE" in str(r1["Subject"])
    [r2] = say(daemon, sender, "JOIN\n", subject="join please")
    assert "[DEMO]" in body_of(r2)
    with transaction(daemon.app.sessions) as s:
        notes = s.scalars(select(InboundMail.note).order_by(InboundMail.id)).all()
    assert all(n and n.startswith("not understood") for n in notes)


def test_reply_row_written_with_the_change(daemon: Daemon, demo: str) -> None:
    """Processing commits the seat and its reply together; nothing is sent before a flush."""
    raw = make_eml("JOIN\n", subject="[DEMO] join")
    stored = daemon.app.inbound.store(raw, "smtp")
    daemon.app.inbound.process(stored.id)
    with transaction(daemon.app.sessions) as s:
        [row] = s.scalars(select(OutboxMessage)).all()
        assert row.status == "pending" and row.kind == "join"
        assert s.scalar(select(func.count()).select_from(Seat)) == 1


def test_filter_tag_does_not_hide_the_game(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A "[SPAM]" tag added before the game's tag does not stop the JOIN."""
    [reply] = say(daemon, sender, "JOIN\n", subject="[SPAM] [DEMO] join")
    assert SECRET_RE.search(body_of(reply))


def test_help_lists_commands(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """HELP is answered with the commands and the open competitions."""
    [reply] = say(daemon, sender, "HELP\n", subject="help")
    assert "JOIN" in body_of(reply) and "[DEMO]" in body_of(reply)


def test_conversation_helper_expects_a_reply(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """pbm.testing.Conversation says a mail and checks the one reply it expects."""
    from pbm.testing import Conversation

    talk = Conversation(daemon, sender, "talker@example.test")
    talk.say("JOIN\n", subject="[DEMO] join", expect="YOUR SECRET")
