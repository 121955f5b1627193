"""The zine by mail comes inline, its HTML and text, and its PDF only for a team whose manager
asked with ZINE ATTACH (ZINE INLINE stops it), kept per team, so a turn's mail is not the
PDF's weight by default."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbm.testing import body_of
from tests.pbm.season import MINI_TEAMS, Season, drawn_mini, is_zine
from tests.pbm.test_mail_conventions import stage


@pytest.fixture
def season(tmp_path: Path) -> Iterator[Season]:
    """A mini-tournament of four named teams, drawn, whose zine has its PDF (Typst)."""
    settings = {"naming_after_full": 600, "hold_share": 1.0}
    with drawn_mini(tmp_path, "ZPDF", settings, zine={"pdf": True}) as s:
        yield s


def _parts(m: EmailMessage) -> list[str]:
    return [p.get_content_type() for p in m.walk() if not p.is_multipart()]


def test_only_the_manager_who_asked_gets_the_pdf_until_asking_no_more(season: Season) -> None:
    """ZINE ATTACH (with the seat's secret) brings that team the PDF beside the inline issue,
    the other teams the issue alone; ZINE INLINE takes the PDF away again; each answer says
    what comes."""
    a1, _, _ = MINI_TEAMS[0]
    [answer] = season.mail(a1, f"SECRET {season.secrets[a1]}\nZINE ATTACH\n")
    assert "with its PDF attached" in " ".join(body_of_words(answer))
    zines = [m for m in stage(season) if is_zine(m)]
    assert {str(m["To"]) for m in zines} == {a for a, _, _ in MINI_TEAMS}
    for m in zines:
        expected = ["text/plain", "text/html"]
        if str(m["To"]) == a1:
            expected.append("application/pdf")
        assert _parts(m) == expected, str(m["To"])
    inline = next(m for m in zines if str(m["To"]) != a1)
    attached = next(m for m in zines if str(m["To"]) == a1)
    assert len(inline.as_bytes()) * 3 < len(attached.as_bytes())

    [answer] = season.mail(a1, f"SECRET {season.secrets[a1]}\nZINE INLINE\n")
    assert "in the mail itself" in " ".join(body_of_words(answer))
    zines = [m for m in stage(season) if is_zine(m)]
    assert all(_parts(m) == ["text/plain", "text/html"] for m in zines)


def test_zine_attach_needs_the_seats_secret(season: Season) -> None:
    """Unlike ZINE OFF, ZINE ATTACH changes a team's mail only with its secret: a forged one
    is refused and no PDF follows."""
    a1, _, _ = MINI_TEAMS[0]
    [refused] = season.mail(a1, "ZINE ATTACH\n")
    assert "secret" in body_of(refused).lower()
    zines = [m for m in stage(season) if is_zine(m)]
    assert all("application/pdf" not in _parts(m) for m in zines)


def body_of_words(m: EmailMessage) -> list[str]:
    """The words of a mail's text, however it was wrapped."""
    return body_of(m).split()
