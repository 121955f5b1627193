"""Issue 8's attacks on pbm's bookkeeping (bounces, rate limit, stalls, logs, the GM's screens),
each through the real doors and the real outbound SMTP path."""

from __future__ import annotations

import json
import threading
import time

import pytest
from sqlalchemy import select

from pbm.db.models import Flag, OutboxMessage, Player
from pbm.db.session import transaction
from pbm.mail.flowed import unflow
from pbm.mail.limits import MAX_LINES
from tests.hostile.conftest import Doors, eml
from tests.hostile.test_doors import join
from tests.pbm.conftest import GM, GM_SECRET

VICTIM = "victim@example.test"


def dsn(rcpt: str, *, action: str = "failed", status: str = "5.1.1", mid: str = "") -> bytes:
    """A delivery status notification (RFC 3464) to ``rcpt``, about ``mid`` if given."""
    returned = (
        f"--B\r\nContent-Type: text/rfc822-headers\r\n\r\nTo: {VICTIM}\r\nMessage-ID: {mid}\r\n\r\n"
        if mid
        else ""
    )
    body = (
        "--B\r\nContent-Type: text/plain\r\n\r\nDelivery report.\r\n"
        "--B\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.test\r\n\r\n"
        f"Final-Recipient: rfc822; {VICTIM}\r\nAction: {action}\r\nStatus: {status}\r\n\r\n"
        f"{returned}--B--\r\n"
    )
    raw = eml(
        body,
        frm="MAILER-DAEMON@mx.example.test",
        subject="Undelivered Mail Returned to Sender",
        content_type='multipart/report; report-type=delivery-status; boundary="B"',
        headers=[("Auto-Submitted", "auto-replied")],
    )
    return raw.replace(b"To: pbm@example.test", f"To: {rcpt}".encode(), 1)


def marked(doors: Doors) -> bool:
    """Whether the victim is marked undeliverable."""
    with transaction(doors.app.sessions) as s:
        player = s.scalars(select(Player).where(Player.address == VICTIM)).one()
        return player.undeliverable_at is not None


# -- 3. forged bounces ---------------------------------------------------------------------------


def test_forged_report_silences_nobody(doors: Doors, demo: str) -> None:
    """A multipart/report from anyone naming the victim changes nothing: the victim still
    gets replies."""
    join(doors, VICTIM)
    doors.smtp(dsn("pbm@example.test"), mail_from="<>")
    doors.ingest(dsn("pbm@example.test", mid="<made-up@evil.test>"), "--sender", "")
    assert doors.run() == []
    assert not marked(doors)
    assert [m.note for m in doors.inbound()][1:] == [
        "bounce ignored: it is not about a mail pbm sent"
    ] * 2
    doors.smtp(eml("HELP\n", frm=VICTIM), mail_from=VICTIM)
    assert [w.rcpt_tos for w in doors.run()] == [[VICTIM]]


def test_real_bounces_delays_soft_counts_and_clearing(doors: Doors, demo: str) -> None:
    """To pbm's VERP address: a delay marks nothing, soft bounces count to three, a hard one
    marks at once; ``pbm mail deliverable`` and the player's next mail clear the mark."""
    doors.smtp(eml("JOIN\n", frm=VICTIM), mail_from=VICTIM)
    [welcome] = doors.run()
    verp = welcome.mail_from
    assert verp.startswith("pbm+bounce-") and welcome.rcpt_tos == [VICTIM]
    doors.smtp(dsn(verp, action="delayed", status="4.4.7"), mail_from="<>", rcpt=verp)
    doors.run()
    assert not marked(doors)
    for _ in range(2):
        doors.smtp(dsn(verp, status="4.2.2"), mail_from="<>", rcpt=verp)
    doors.run()
    assert not marked(doors)
    doors.smtp(dsn(verp, status="4.2.2"), mail_from="<>", rcpt=verp)
    doors.run()
    assert marked(doors)
    result = doors.cli("mail", "deliverable", VICTIM)
    assert result.exit_code == 0, result.output
    assert not marked(doors)
    # A hard bounce quoting the Message-ID of pbm's mail, without VERP, is believed too.
    doors.ingest(dsn("pbm@example.test", mid=str(welcome.msg["Message-ID"])), "--sender", "")
    doors.run()
    assert marked(doors)
    with transaction(doors.app.sessions) as s:  # while marked, pbm's mail to it is not sent
        from pbm.outbound.replies import queue_mail

        queue_mail(
            s,
            doors.app.config,
            doors.app.clock,
            kind="rate-limited",
            to=VICTIM,
            ctx={"notes": [], "limit": 1},
        )
    assert doors.run() == []
    doors.smtp(eml("HELP\n", frm=VICTIM), mail_from=VICTIM)  # the player mails again
    assert [w.rcpt_tos for w in doors.run()] == [[VICTIM]]
    assert not marked(doors)


# -- 4. lock-out by forged mail ------------------------------------------------------------------


def test_forged_mail_cannot_use_up_the_victims_rate_limit(doors: Doors, demo: str) -> None:
    """30 forged mails in the victim's name (no secret) do not stop the victim's own
    authenticated orders that hour."""
    secret = join(doors, VICTIM)
    for _ in range(30):
        doors.smtp(eml("TEAM NAME Forged Eleven\n", frm=VICTIM), mail_from="x@evil.test")
    doors.run()
    doors.smtp(eml(f"SECRET {secret}\nTEAM NAME Real Eleven\n", frm=VICTIM), mail_from=VICTIM)
    [reply] = doors.run()
    assert reply.rcpt_tos == [VICTIM]
    assert "Real Eleven" in reply.text
    assert doors.inbound()[-1].status == "applied"


# -- 5. one mail stalling the daemon -------------------------------------------------------------


def test_huge_mail_is_refused_quickly_with_an_answer(doors: Doors, demo: str) -> None:
    """12,000 lines of unreadable orders: refused in well under a second of handling, one
    short answer, no flag for the GM."""
    secret = join(doors)
    body = f"SECRET {secret}\n" + "Root bats like a wombat on fire\n" * 12_000
    doors.smtp(eml(body, subject="[DEMO] orders"))
    started = time.monotonic()
    [reply] = doors.run()
    assert time.monotonic() - started < 5
    words = " ".join(reply.text.split())  # the answer is wrapped to fit a phone
    assert "12001 lines" in words and "at most 400" in words
    assert len(reply.data) < 10_000
    with transaction(doors.app.sessions) as s:
        assert s.scalars(select(Flag)).all() == []


def test_too_many_unreadable_sentences_make_no_flags(doors: Doors, demo: str) -> None:
    """A mail within the line limit but with 30 unreadable sentences is refused as a whole."""
    secret = join(doors)
    body = f"SECRET {secret}\ntoss: bat\n" + "".join(
        f"after {i} overs everyone dances\n" for i in range(30)
    )
    doors.smtp(eml(body, subject="[DEMO] orders"))
    [reply] = doors.run()
    assert "at most 20" in reply.text
    with transaction(doors.app.sessions) as s:
        assert s.scalars(select(Flag)).all() == []


def test_smtp_door_answers_while_a_long_mail_is_handled(doors: Doors, demo: str) -> None:
    """While the pass handles a mail at the line limit (seconds, holding SQLite's write lock),
    another SMTP delivery gets 250 long before the pass ends (the spool), and is then answered
    once. The bound is half the pass (at most 3 s), not a second: here the pass's CPU shares
    the process and the shared machine's disk delays the spool's fsyncs; the lock held on
    purpose, with a one-second bound: test_a_held_write_lock_never_holds_the_doors."""
    secret = join(doors)
    body = f"SECRET {secret}\n" + "BAT Root aggressive\n" * 399
    doors.smtp(eml(body, subject="[DEMO] orders"))
    spent: list[float] = []

    def a_pass() -> None:
        started = time.monotonic()
        doors.daemon.run_once()
        spent.append(time.monotonic() - started)

    worker = threading.Thread(target=a_pass)
    worker.start()
    time.sleep(0.1)
    started = time.monotonic()
    code, _ = doors.smtp(eml("HELP\n", frm="player2@example.test"), "player2@example.test")
    waited = time.monotonic() - started
    worker.join(60)
    assert code == 250 and waited < min(3.0, spent[0] / 2), (code, waited, spent)
    doors.run()
    answered = [w.rcpt_tos for w in doors.sink.wire if w.rcpt_tos == ["player2@example.test"]]
    assert len(answered) == 1


# -- 10. log lines ------------------------------------------------------------------------------


def test_concurrent_logging_keeps_one_json_object_per_line(
    doors: Doors, demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """SMTP deliveries from 6 threads while passes run: every stderr line is one JSON object."""
    from pbm.ops.logs import configure_logging

    configure_logging("json", "info")
    capsys.readouterr()

    def deliver(n: int) -> None:
        for i in range(8):
            doors.smtp(eml("HELP\n", frm=f"p{n}x{i}@example.test"), mail_from=f"p{n}@example.test")

    threads = [threading.Thread(target=deliver, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        doors.daemon.run_once()
    for t in threads:
        t.join()
    doors.daemon.run_once()
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) > 100
    for line in lines:
        assert isinstance(json.loads(line), dict), line


# -- 11. bidi overrides and C1 controls on the GM's screens -------------------------------------


def test_bidi_and_c1_controls_are_neutralised_for_the_gm(doors: Doors, demo: str) -> None:
    """A flagged sentence with U+202E and a C1 control reaches the digest mail and
    ``pbm gm flags`` only as visible <U+...> marks."""
    secret = join(doors)
    sentence = "after 10 overs everyone \u202edrawkcab\u202c shouts \x9b31m loudly"
    doors.smtp(eml(f"SECRET {secret}\ntoss: bat\n{sentence}\n", subject="[DEMO] orders"))
    doors.run()
    doors.smtp(eml(f"SECRET {GM_SECRET}\nDIGEST\n", frm=GM, subject="digest"), mail_from=GM)
    [digest] = doors.run()
    assert "<U+202E>drawkcab<U+202C>" in digest.text and "<U+009B>" in digest.text
    assert "\u202e" not in digest.text and "\x9b" not in digest.text
    shown = doors.cli("gm", "flags")
    assert shown.exit_code == 0, shown.output
    assert "<U+202E>" in shown.output and "\u202e" not in shown.output
    assert "\x9b" not in shown.output
    with transaction(doors.app.sessions) as s:
        assert all(o.status == "sent" for o in s.scalars(select(OutboxMessage)))


# -- the naming answer's "Still to name" -------------------------------------------------------


def test_a_hostile_naming_mail_gets_a_clean_still_to_name_answer(doors: Doors, demo: str) -> None:
    """A naming mail with an encoded-word Subject hiding CR/LF and a Bcc, a forged Reply-To,
    a team name that is an encoded word of the placeholder, a bare CR inside a name and
    padding up to the line limit: one answer, to the sender alone, whose "Still to name"
    line lists only what pbm wrote (its placeholder, slot numbers), with no CR/LF or header
    of the sender's in its bytes."""
    secret = join(doors)
    body = (
        f"SECRET {secret}\n"
        "TEAM NAME =?utf-8?b?VGVhbSAx?=\n"  # "Team 1", encoded: a literal name in a body
        "NAME 2 Evil\rBcc: third@evil.test\n" + "thanks\n" * (MAX_LINES - 10)
    )
    raw = eml(
        body,
        subject="=?utf-8?q?=5BDEMO=5D_names=0D=0ABcc:_third@evil.test?=",
        headers=[("Reply-To", "third@evil.test")],
    )
    doors.smtp(raw)
    [reply] = doors.run()
    assert reply.rcpt_tos == ["player1@example.test"]
    head, _, _ = reply.data.partition(b"\r\n\r\n")
    # The Subject echoes the sender's, neutralised into one encoded line; no header of theirs
    names = [line.split(b":")[0] for line in head.split(b"\r\n") if line[:1] not in b" \t"]
    assert b"Bcc" not in names and b"Reply-To" not in names, names
    assert reply.msg["Reply-To"] is None and "\n" not in str(reply.msg["Subject"])
    assert b"\r" not in reply.data.replace(b"\r\n", b"")  # no bare CR anywhere
    text = reply.text
    [still] = [line for line in text.splitlines() if line.startswith("Still to name")]
    assert "evil" not in still.lower() and "=?" not in still
    # the encoded word is no name (refused at its column, never decoded), the CR ends a line
    assert "a name cannot contain '?'" in text and "I don't know what 'bcc' means" in text
    words = " ".join(text.split())
    assert 'Still to name: the team itself ("Team 1" is the name' in words
    assert "you name it); slots 1, 3, 4, 5," in words  # slot 2 is named "Evil"


def test_echoed_lines_keep_their_carets_and_no_from_line_goes_out(doors: Doors, demo: str) -> None:
    """A naming mail whose lines hold the unit separator (pbm's own soft-break marker while it
    renders), start with "From " and ">", under an encoded-word Subject hiding CR/LF: the
    answer's bytes hold no control character of the sender's and no line starting "From "
    (every one stuffed), and each error's caret stands under its column both for a reader
    that flows and for one that shows the lines as sent."""
    secret = join(doors)
    body = f"SECRET {secret}\nTEAM NAME From Here\x1f\nFrom the pavilion, bat first\x1f\n>quoted\n"
    doors.smtp(eml(body.encode(), subject="[DEMO] =?utf-8?q?names=0D=0ABcc:_x@evil.test?="))
    [reply] = doors.run()
    assert reply.rcpt_tos == ["player1@example.test"]
    part = reply.msg.get_body(preferencelist=("plain",))
    assert part is not None and part.get_param("format") == "flowed"
    as_sent = part.get_content()
    assert "\x1f" not in as_sent and "\r" not in as_sent.replace("\r\n", "")
    assert not any(line.startswith("From ") for line in as_sent.splitlines())
    for shown in (as_sent, unflow(as_sent)):
        lines = shown.splitlines()
        # "From the pavilion, bat first" now reads for its meaning (toss: bat): no caret
        for word in ("From Here",):
            [at] = [k for k, line in enumerate(lines[:-1]) if word in line and "^" in lines[k + 1]]
            assert lines[at + 1].index("^") == lines[at].index(word.split()[0]), lines[at : at + 2]
