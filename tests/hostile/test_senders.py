"""Issue 23's senders: pbm cannot be made to flood one inbox by varying the +tag, the dots of
a Gmail address or the local part within a domain; a proven seat keeps its own bucket."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbm.inbound.ratelimit import base_address
from tests.hostile.conftest import Doors, eml
from tests.hostile.test_doors import join

LIMIT = 20  # the hostile suite's [rate_limit] per_hour
DOMAIN_LIMIT = 5 * LIMIT  # per_domain's default


def _flood(doors: Doors, senders: list[str]) -> list[str]:
    """One HELP from each of ``senders`` by SMTP, then a pass; every reply's recipient."""
    for frm in senders:
        doors.smtp(eml("HELP\n", frm=frm, subject="help"), mail_from=frm)
    return [rcpt for wire in doors.run() for rcpt in wire.rcpt_tos]


def test_plus_addresses_share_one_bucket(doors: Doors) -> None:
    """40 mails from victim+k@third.test (k = 1..40) get the hour's 20 answers and one
    "too many mails" notice, then silence: not 40 replies into one real mailbox."""
    got = _flood(doors, [f"victim+{k}@third.test" for k in range(1, 41)])
    assert len(got) == LIMIT + 1
    assert all(base_address(r) == "victim@third.test" for r in got)
    notice = doors.sink.wire[-1].text
    assert "20" in notice
    assert [m.note for m in doors.inbound()].count("rate limited") == 40 - LIMIT


def test_gmail_dots_share_one_bucket(doors: Doors) -> None:
    """Gmail delivers j.o.e@ to joe@: dotted and tagged spellings count as one mailbox."""
    spellings = [
        "joe@gmail.com",
        "j.oe@gmail.com",
        "jo.e+x@gmail.com",
        "J.O.E@gmail.com",
        "j.o.e+1@googlemail.com",
    ]
    got = _flood(doors, [spellings[k % 4] for k in range(30)])
    assert len(got) == LIMIT + 1
    # googlemail.com is its own domain and bucket: not refused by gmail.com's count
    assert _flood(doors, [spellings[4]]) == [spellings[4]]


def test_one_domain_is_capped_and_gets_no_notices(doors: Doors) -> None:
    """110 strangers at one domain, each mailing once, get 100 answers (per_domain), then
    nothing: not even a notice, which would itself be one mail to each new address."""
    got = _flood(doors, [f"s{k}@fourth.test" for k in range(DOMAIN_LIMIT + 10)])
    assert len(got) == DOMAIN_LIMIT
    assert got == [f"s{k}@fourth.test" for k in range(DOMAIN_LIMIT)]


def test_a_proven_seat_keeps_its_own_bucket(doors: Doors, demo: str) -> None:
    """A flood of forged and +tagged mail in a player's name and at its domain uses up the
    unproven counts only: the player's own mail with its secret is still acted on."""
    secret = join(doors, "victim@third.test")
    _flood(doors, [f"victim+{k}@third.test" for k in range(30)])
    _flood(doors, [f"x{k}@third.test" for k in range(DOMAIN_LIMIT)])
    doors.smtp(
        eml(f"SECRET {secret}\nTEAM NAME Real Eleven\n", frm="victim@third.test"),
        mail_from="victim@third.test",
    )
    [reply] = doors.run()
    assert reply.rcpt_tos == ["victim@third.test"]
    assert "Real Eleven" in reply.text
    assert doors.inbound()[-1].status == "applied"


_LOCAL = st.text("abcdefghij", min_size=1, max_size=8)


@given(_LOCAL, _LOCAL, st.sampled_from(["third.test", "example.org", "gmail.com"]))
def test_base_address_drops_the_tag_and_keeps_the_mailbox(
    local: str, tag: str, domain: str
) -> None:
    """Any +tag, and any case, maps to the same base address; a different local part never
    does (dots only merge at the providers that ignore them)."""
    assert base_address(f"{local}+{tag}@{domain}") == base_address(f"{local.upper()}@{domain}")
    assert base_address(f"{local}x@{domain}") != base_address(f"{local}@{domain}")
    dotted = f"{local[:1]}.{local[1:]}@{domain}" if len(local) > 1 else f"{local}@{domain}"
    same = base_address(dotted) == base_address(f"{local}@{domain}")
    assert same == (domain == "gmail.com" or len(local) == 1)
