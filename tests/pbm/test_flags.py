"""Match orders by mail become standing orders; sentences the parser can't read are flagged for
the GM, who resolves them in canonical form (``pbm gm flags``, ``pbm gm resolve``)."""

from __future__ import annotations

import os
from email.message import EmailMessage
from pathlib import Path

from click.testing import CliRunner, Result
from sqlalchemy import select

from pbm.cli import main
from pbm.core.clock import FixedClock
from pbm.core.config import Config
from pbm.daemon import Daemon
from pbm.db.models import Flag, OrdersVersion, Seat
from pbm.db.session import transaction
from pbm.testing import RecordingSender, body_of
from tests.pbm.conftest import GM, GM_SECRET
from tests.pbm.helpers import join, naming_text, say

DOOLALLY = "after 10 overs if we have lost 2 wickets or less then everyone will go doolally"
RULE = "after 10 overs, if wickets <= 2: all batsmen bat aggressive"


def _standing(daemon: Daemon, number: int = 1) -> list[OrdersVersion]:
    with transaction(daemon.app.sessions) as s:
        seat = s.scalars(select(Seat).where(Seat.number == number)).one()
        return list(
            s.scalars(
                select(OrdersVersion)
                .where(OrdersVersion.seat_id == seat.id)
                .order_by(OrdersVersion.version)
            )
        )


def _flags(daemon: Daemon) -> list[Flag]:
    with transaction(daemon.app.sessions) as s:
        return list(s.scalars(select(Flag).order_by(Flag.id)))


def _cli(config: Config, tmp_path: Path, *args: str) -> Result:
    path = tmp_path / "cli.toml"
    path.write_text(
        f"""[server]\naddress = "pbm@example.test"\n[database]\nurl = "{config.database.url}"
[gm]\naddress = "{GM}"\nsecret = "{GM_SECRET}"
[security]\nsecret_key = "{config.security.secret_key}"
argon2_time_cost = 1\nargon2_memory_kib = 1024
[smtp_listener]\nport = 0\n[maildir]\npath = "{tmp_path}/out"\n"""
    )
    return CliRunner().invoke(main, [*args, "--config", str(path)])


def _deliver(daemon: Daemon, sender: RecordingSender) -> EmailMessage:
    """Send what the CLI queued (it ran on the real clock, not the test's) and return it."""
    with transaction(daemon.app.sessions) as s:
        from pbm.db.models import OutboxMessage

        for row in s.scalars(select(OutboxMessage).where(OutboxMessage.status == "pending")):
            row.next_attempt_at = daemon.app.clock.now()
    daemon.run_once()
    return sender.sent[-1]


def _orders_with_doolally(daemon: Daemon, sender: RecordingSender) -> tuple[str, EmailMessage]:
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, f"SECRET {secret}\ntoss: bat\n{DOOLALLY}\n")
    return secret, reply


def test_unreadable_conditional_is_returned_and_flagged(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A conditional the parser can't read is answered as sent to the GM, and stored as a flag."""
    _, reply = _orders_with_doolally(daemon, sender)
    body = body_of(reply)
    assert "Orders received (version 1), 1 sentence(s) sent to the GM" in str(reply["Subject"])
    words = " ".join(body.split())  # the sentence is wrapped to fit a phone
    assert f"line 3: {DOOLALLY}" in words  # the mail's own numbering: SECRET is line 1
    assert "not understood — sent to the GM, who will read it and enter its meaning" in body
    [flag] = _flags(daemon)
    assert (flag.line, flag.text, flag.status) == (3, DOOLALLY, "open")
    [v1] = _standing(daemon)
    assert v1.text == "toss: bat" and v1.inbound_id == flag.inbound_id


def test_match_orders_with_naming_are_kept_and_names_still_apply(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A naming mail that also carries match orders applies the names and keeps the orders,
    which may use the new names."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, naming_text(secret) + "captain: Celeb 1\n")
    assert "Squad names received (version 1) and orders (version 1)" in str(reply["Subject"])
    assert [v.text for v in _standing(daemon)] == ["captain: Celeb 1"]


def test_later_mail_replaces_orders_and_supersedes_flags(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A later mail is a new version that replaces only the parts it gives: a new toss leaves
    the flagged sentence open; new conditional orders supersede it."""
    secret, _ = _orders_with_doolally(daemon, sender)
    [reply] = say(daemon, sender, f"SECRET {secret}\ntoss: bowl\n")
    assert "Orders received (version 2)" in str(reply["Subject"])
    assert [v.text for v in _standing(daemon)] == ["toss: bat", "toss: bowl"]
    assert [f.status for f in _flags(daemon)] == ["open"]
    say(daemon, sender, f"SECRET {secret}\n{RULE}\n")
    assert _standing(daemon)[-1].text == f"toss: bowl\n{RULE}"
    assert [f.status for f in _flags(daemon)] == ["superseded"]


def test_naming_only_mail_leaves_standing_orders(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A mail of names alone does not replace the standing orders."""
    secret, _ = _orders_with_doolally(daemon, sender)
    say(daemon, sender, naming_text(secret))
    assert len(_standing(daemon)) == 1 and [f.status for f in _flags(daemon)] == ["open"]


def test_renaming_warns_when_standing_orders_use_old_names(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """New names that leave the standing orders naming someone gone bring a warning."""
    secret = join(daemon, sender, "player1@example.test")
    say(daemon, sender, f"SECRET {secret}\ncaptain: Star Batsman 1\n")
    [reply] = say(daemon, sender, naming_text(secret))
    words = " ".join(body_of(reply).split())  # the note is wrapped to fit a phone
    assert "name squad members by names they no longer have" in words
    assert len(_standing(daemon)) == 1


def test_orders_are_kept_after_the_naming_deadline(
    daemon: Daemon, sender: RecordingSender, demo: str, clock: FixedClock
) -> None:
    """After the naming deadline a mail of match orders (without names) is still kept."""
    secret = join(daemon, sender, "player1@example.test")
    clock.advance(30 * 86400)
    [reply] = say(daemon, sender, f"SECRET {secret}\ntoss: bowl\n")
    assert "Orders received (version 1)" in str(reply["Subject"])
    assert [v.text for v in _standing(daemon)] == ["toss: bowl"]


def test_mail_with_errors_keeps_the_rest_and_flags_the_sentence(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """An error costs only its own line: the toss is kept and the unreadable sentence is
    flagged; the reply lists the error."""
    secret = join(daemon, sender, "player1@example.test")
    [reply] = say(daemon, sender, f"SECRET {secret}\ntoss: bat\nNAMEE 2 Zippy\n{DOOLALLY}\n")
    body = body_of(reply)
    assert "Orders received (version 1), 1 error(s), 1 sentence(s)" in str(reply["Subject"])
    assert "line 3, column 1: unknown order 'NAMEE'" in body
    assert [v.text for v in _standing(daemon)] == ["toss: bat"]
    assert [f.line for f in _flags(daemon)] == [4]


def test_secret_is_never_stored_in_a_flag(
    daemon: Daemon, sender: RecordingSender, demo: str
) -> None:
    """A secret written inside the sentence is redacted before the flag is stored."""
    secret = join(daemon, sender, "player1@example.test")
    say(daemon, sender, f"SECRET {secret}\nafter 10 overs everyone shouts {secret}\n")
    [flag] = _flags(daemon)
    assert secret not in flag.text and secret.lower() not in flag.text.lower()
    assert "[redacted]" in flag.text and secret not in flag.reason


def test_digest_lists_open_flags(daemon: Daemon, sender: RecordingSender, demo: str) -> None:
    """The GM digest lists each open flag with its team and the sentence."""
    _orders_with_doolally(daemon, sender)
    [digest] = say(daemon, sender, f"SECRET {GM_SECRET}\nDIGEST\n", frm=GM, subject="digest")
    body = body_of(digest)
    assert "Sentences for the GM to read (open flags, all): 1" in body
    assert '[DEMO] team 1 "Team 1", line 3:' in body and DOOLALLY in body


def test_gm_resolves_a_flag_and_the_player_is_told(
    daemon: Daemon, sender: RecordingSender, demo: str, config: Config, tmp_path: Path
) -> None:
    """``pbm gm resolve`` appends the canonical rule to the standing orders, closes the flag
    and mails the player the canonical line; ``pbm gm flags`` lists it until then."""
    _orders_with_doolally(daemon, sender)
    [flag] = _flags(daemon)
    r = _cli(config, tmp_path, "gm", "flags", "DEMO")
    assert r.exit_code == 0 and DOOLALLY[:30] in r.output and str(flag.id) in r.output
    r = _cli(
        config,
        tmp_path,
        "gm",
        "resolve",
        str(flag.id),
        "after 10 overs if wickets<=2 all aggressive",
    )
    assert r.exit_code == 0, r.output
    assert "standing orders version 2" in r.output
    assert [v.text for v in _standing(daemon)] == ["toss: bat", f"toss: bat\n{RULE}"]
    [flag] = _flags(daemon)
    assert (flag.status, flag.resolution) == ("resolved", RULE)
    mail = _deliver(daemon, sender)
    assert mail["To"] == "player1@example.test"
    assert "The GM read your sentence" in str(mail["Subject"]) and RULE in body_of(mail)
    assert "no open flags" in _cli(config, tmp_path, "gm", "flags").output


def test_bad_canonical_text_is_refused(
    daemon: Daemon, sender: RecordingSender, demo: str, config: Config, tmp_path: Path
) -> None:
    """A resolution with errors is refused with the errors shown, and changes nothing."""
    _orders_with_doolally(daemon, sender)
    [flag] = _flags(daemon)
    r = _cli(config, tmp_path, "gm", "resolve", str(flag.id), "after 10 overs go doolally")
    assert r.exit_code == os.EX_DATAERR and "not resolved" in r.output and "doolally" in r.output
    assert [f.status for f in _flags(daemon)] == ["open"] and len(_standing(daemon)) == 1


def test_resolution_touches_only_the_flagged_seat(
    daemon: Daemon, sender: RecordingSender, demo: str, config: Config, tmp_path: Path
) -> None:
    """Resolving one seat's flag leaves another seat's standing orders as they were."""
    _orders_with_doolally(daemon, sender)
    other = join(daemon, sender, "player2@example.test")
    say(daemon, sender, f"SECRET {other}\ntoss: bowl\n", frm="player2@example.test")
    [flag] = _flags(daemon)
    r = _cli(config, tmp_path, "gm", "resolve", str(flag.id), RULE)
    assert r.exit_code == 0, r.output
    assert [v.text for v in _standing(daemon, 2)] == ["toss: bowl"]


def test_gm_drops_a_flag_with_a_note(
    daemon: Daemon, sender: RecordingSender, demo: str, config: Config, tmp_path: Path
) -> None:
    """``--drop`` closes the flag without changing the orders and tells the player why."""
    _orders_with_doolally(daemon, sender)
    [flag] = _flags(daemon)
    r = _cli(config, tmp_path, "gm", "resolve", str(flag.id), "--drop", "bananas is no style")
    assert r.exit_code == 0, r.output
    assert [f.status for f in _flags(daemon)] == ["dropped"] and len(_standing(daemon)) == 1
    mail = _deliver(daemon, sender)
    assert "could not use your sentence" in str(mail["Subject"])
    assert "bananas is no style" in body_of(mail)
    r = _cli(config, tmp_path, "gm", "resolve", str(flag.id), RULE)
    assert r.exit_code == os.EX_DATAERR and "dropped, not open" in r.output
