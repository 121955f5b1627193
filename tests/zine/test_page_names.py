"""Archive page names (issue 23): two teams named alike but for case get two pages, each its
own; a forced collision of page names stops the build; the old six-digit links lead on."""

from __future__ import annotations

import hashlib
import itertools
import re
from pathlib import Path

import pytest

from engine.flungo.squad import Team
from pbm.games.flungo.zine import links, model
from pbm.games.flungo.zine.archive import PageCollision, build_archive
from pbm.games.flungo.zine.demo import TEAM_NAMES, demo_season, demo_squads
from pbm.games.flungo.zine.model import legacy_team_href, player_href, team_href

ROCK = "Rock & Roll's"


def _case_variants(name: str) -> list[str]:
    """Every spelling of ``name`` by case alone (its letters up or down)."""
    letters = [i for i, ch in enumerate(name) if ch.isalpha()][:8]
    out = []
    for ups in itertools.product((False, True), repeat=len(letters)):
        chars = list(name.lower())
        for i, up in zip(letters, ups, strict=True):
            chars[i] = chars[i].upper() if up else chars[i]
        out.append("".join(chars))
    return out


def _squads(first: str, second: str) -> list[Team]:
    """Four squads, the first two named ``first`` and ``second``, with different players."""
    squads = demo_squads(4, seed=5, names=TEAM_NAMES[:4])
    squads[0] = Team(first, squads[0].players)
    squads[1] = Team(second, squads[2].players[::-1])
    return squads


def test_names_alike_but_for_case_get_a_page_each(tmp_path: Path) -> None:
    """Rock & Roll's and ROCK & ROLL'S are two teams with two pages, each listing its own
    squad and none of the other's, linked from the teams page."""
    a, b = ROCK, ROCK.upper()
    squads = _squads(a, b)
    reports = demo_season(4, code="CASE", seed=5, squads=squads, stages=2)
    result = build_archive([("CASE", reports)], tmp_path, pdf=False)
    assert team_href(a) != team_href(b)
    assert team_href(a).lower() != team_href(b).lower()  # a case-blind file system too
    page_a = (tmp_path / team_href(a)).read_text(encoding="utf-8")
    page_b = (tmp_path / team_href(b)).read_text(encoding="utf-8")
    only_a = {p.name for p in squads[0].players} - {p.name for p in squads[1].players}
    only_b = {p.name for p in squads[1].players} - {p.name for p in squads[0].players}
    assert only_a and only_b
    for name in only_a:
        assert player_href(a, name) in page_a and player_href(a, name) not in page_b
    for name in only_b:
        assert player_href(b, name) in page_b and player_href(b, name) not in page_a
    teams = (tmp_path / "teams.html").read_text(encoding="utf-8")
    assert team_href(a) in teams and team_href(b) in teams
    assert team_href(a) in result.files and team_href(b) in result.files


def test_a_forced_page_name_collision_stops_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With page names cut to two hex digits, a birthday search over case variants finds two
    teams that share a page (as it did with six digits in seconds); the build refuses,
    naming both, and writes nothing."""
    monkeypatch.setattr(links, "PAGE_DIGEST_HEX", 2)
    seen: dict[str, str] = {}
    pair = None
    for v in _case_variants(ROCK):
        href = team_href(v)
        if href in seen:
            pair = (seen[href], v)
            break
        seen[href] = v
    assert pair is not None
    a, b = pair
    assert hashlib.sha256(a.encode()).hexdigest()[:2] == hashlib.sha256(b.encode()).hexdigest()[:2]
    reports = demo_season(4, code="CASE", seed=5, squads=_squads(a, b), stages=1)
    out = tmp_path / "archive"
    with pytest.raises(PageCollision) as err:
        build_archive([("CASE", reports)], out, pdf=False)
    assert f'the team "{a}"' in str(err.value) and f'the team "{b}"' in str(err.value)
    assert not any(p.suffix == ".html" for p in out.rglob("*"))


def test_old_page_names_lead_to_the_new_pages(tmp_path: Path) -> None:
    """A link of before issue 23 (six hex digits) still works: it sends the reader on to the
    team's page now; an old name two teams shared lists both instead of showing either."""
    reports = demo_season(4, code="OLD", seed=5, squads=_squads(ROCK, "The Gloopers"), stages=1)
    build_archive([("OLD", reports)], tmp_path, pdf=False)
    stub = (tmp_path / legacy_team_href(ROCK)).read_text(encoding="utf-8")
    assert re.search(rf'http-equiv="refresh" content="0; url={re.escape(team_href(ROCK))}"', stub)
    player = reports[0].squads[0].players[0].name
    old_player = model.legacy_player_href(ROCK, player)
    assert player_href(ROCK, player) in (tmp_path / old_player).read_text(encoding="utf-8")
