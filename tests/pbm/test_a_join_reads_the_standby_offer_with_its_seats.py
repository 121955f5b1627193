"""A JOIN reads whether the standby list offered its address a team in the same statement
that reads the seats taken and the address's own seat: no statement of its own for an offer
that nearly never exists, and an address that was offered a team still takes (or is told
about) that team instead of a new seat."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, select

from pbm.app import App
from pbm.db.models import Competition, MailStatus, Seat, Standby
from pbm.db.session import transaction
from pbm.testing import make_eml


def _join(app: App, code: str, sender: str) -> tuple[MailStatus | None, list[str]]:
    """Handle one JOIN from ``sender``: its new status and the statements it ran."""
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(" ".join(statement.split()))

    raw = make_eml("JOIN\n", sender=sender, subject=f"[{code}] join")
    mail = app.inbound.store(raw, "smtp")
    event.listen(app.db_engine, "before_cursor_execute", seen)
    try:
        status = app.inbound.process(mail.id)
    finally:
        event.remove(app.db_engine, "before_cursor_execute", seen)
    return status, statements


def _wait(app: App, code: str, address: str, offered: int | None) -> None:
    """Put ``address`` on the competition's standby list, offered team ``offered``."""
    with transaction(app.sessions) as s:
        comp_id = s.scalars(select(Competition.id).where(Competition.code == code)).one()
        now = app.clock.now()
        s.add(
            Standby(competition_id=comp_id, address=address, created_at=now, offered_seat=offered)
        )


def test_a_join_runs_no_statement_of_its_own_for_the_standby_list(app: App, demo: str) -> None:
    """A JOIN from an address on the standby list but offered nothing takes a new seat; the
    list is read only inside the statement that reads the seats."""
    _wait(app, demo, "waiting@example.org", None)
    status, statements = _join(app, demo, "waiting@example.org")
    assert status == MailStatus.APPLIED
    reading = [st for st in statements if "standbys" in st]
    assert len(reading) == 1
    assert "count(*)" in reading[0]  # the seats taken, read in the same statement
    with transaction(app.sessions) as s:
        assert s.scalars(select(Seat.number)).all() == [1]


def test_an_offered_address_is_answered_about_its_offer_not_given_a_seat(
    app: App, demo: str
) -> None:
    """An address the standby list offered team 1 gets no new seat from its JOIN: team 1's
    manager is still active, so the offer is withdrawn and the JOIN rejected."""
    assert _join(app, demo, "first@example.org")[0] == MailStatus.APPLIED
    _wait(app, demo, "offered@example.org", 1)
    status, _ = _join(app, demo, "offered@example.org")
    assert status == MailStatus.REJECTED
    with transaction(app.sessions) as s:
        assert s.scalars(select(Seat.number)).all() == [1]
        offer = s.scalars(select(Standby).where(Standby.address == "offered@example.org")).one()
        assert offer.offered_seat is None
