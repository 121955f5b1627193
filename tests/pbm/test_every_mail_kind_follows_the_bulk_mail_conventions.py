"""Every kind of mail pbm sends follows the conventions of automatic and bulk mail, rendered
from each kind's sample data and queued the way pbm queues it (as an answer, and as pbm's
own), then read back from the outbox: ``Auto-Submitted: auto-replied`` only on answers,
``auto-generated`` on fixtures, reminders, turn reports, digests and the zine whatever caused
them (RFC 3834); ``List-Id`` (RFC 2919) and a ``mailto:`` ``List-Unsubscribe`` (RFC 2369) on a
competition's bulk mail and on nothing else. The season by mail (``test_mail_conventions``)
checks the same on real flows, the zine and a digest the GM asked for among them."""

from __future__ import annotations

from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from pbm.app import App
from pbm.cli.mail_preview import sender_of
from pbm.db.models import OutboxMessage
from pbm.db.session import transaction
from pbm.outbound.render import email_kinds
from pbm.outbound.replies import ReplyTo, queue_mail
from tests.pbm.test_templates import SAMPLES

#: What each kind is, as the issue reads it: ``always`` pbm's own (auto-generated even when a
#: mail caused it), ``list`` a competition's bulk mail (list headers when pbm sends it of its
#: own accord), or ``as sent`` (an answer when it answers, pbm's own when it does not). A new
#: kind fails here until it is given its place.
ALWAYS_GENERATED = {"digest", "turn-digest", "h6-test-reminder"}
LIST_MAIL = {"fixtures", "reminder", "turn-report"}
AS_SENT = {
    "answer", "auth-refused", "flag-resolved", "gm-alert", "gm-created", "gm-done", "gm-hold",
    "gm-notice", "help", "join", "join-refused", "name-rejected", "naming", "naming-closed",
    "new-secret", "not-understood", "notice", "rate-limited", "refused", "rules",
    "h6-averages", "h6-deal", "h6-help", "h6-refused", "h6-result", "h6-test-joined",
    "h6-test-over", "h6-test-reveal", "h6-test-sealed",
}  # fmt: skip
ANSWERED = ReplyTo("<theirs.1@example.test>", (), "[DEMO] a question")


def test_every_kind_has_its_place() -> None:
    """Each kind with templates is classed once (the zine is mailed by its own job)."""
    classes = [ALWAYS_GENERATED, LIST_MAIL, AS_SENT]
    assert sorted(set().union(*classes)) == email_kinds()
    assert sum(len(c) for c in classes) == len(email_kinds())


@pytest.fixture
def sent(app: App) -> Iterator[dict[tuple[str, bool], EmailMessage]]:
    """Every kind queued twice from its sample context, as an answer and as pbm's own,
    read back from the outbox by ``(kind, answering)``."""
    with transaction(app.sessions) as s:
        for kind in email_kinds():
            for answering in (True, False):
                queue_mail(s, app.config, app.clock, kind=kind, to=f"{kind}.{answering:d}@x.test",
                           ctx={"notes": [], **SAMPLES[kind]}, from_name=sender_of(kind),
                           reply_to=ANSWERED if answering else None)  # fmt: skip
    with transaction(app.sessions) as s:
        out = {}
        for to, raw in s.execute(select(OutboxMessage.to_addr, OutboxMessage.raw)):
            kind, answering = to.split("@")[0].rsplit(".", 1)
            msg = message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out[(kind, answering == "1")] = msg
        yield out


@pytest.mark.parametrize("kind", email_kinds())
def test_each_kind_says_what_it_is(kind: str, sent: dict[tuple[str, bool], EmailMessage]) -> None:
    """An answer says auto-replied unless its kind is a report or digest; pbm's own mail says
    auto-generated; only a competition's bulk mail, sent of pbm's own accord, is list mail,
    its unsubscribe a mailto: of the competition's own address that asks for ZINE OFF; each
    mail is from its game's name (Hit for Six's from Hit for Six, as its previews are)."""
    for answering in (True, False):
        m = sent[(kind, answering)]
        auto = str(m["Auto-Submitted"])
        generated = kind in ALWAYS_GENERATED | LIST_MAIL or not answering
        assert auto == ("auto-generated" if generated else "auto-replied"), (kind, answering)
        if kind in LIST_MAIL and not answering:
            assert str(m["List-Id"]) == '"Demo Cup" <demo.example.test>', kind
            assert str(m["List-Unsubscribe"]) == (
                "<mailto:pbm+DEMO@example.test?subject=ZINE%20OFF>"
            ), kind
        else:
            assert m["List-Id"] is None and m["List-Unsubscribe"] is None, (kind, answering)
        sender = m["From"].addresses[0].display_name
        assert sender == ("Hit for Six" if kind.startswith("h6-") else "Cosmic Celebrity Cricket")
