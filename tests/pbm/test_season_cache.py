"""An orders reply reads a competition's season once, and again only when it changed."""

from __future__ import annotations

from typing import Any

from pbm.db.models import Competition
from pbm.flungo.mail import _season


def test_the_season_is_read_again_only_when_its_text_changed() -> None:
    """Same stored text: the season read before; new text (a stage resolved, perhaps by
    another process): read again; no season (before the draw): None, nothing read."""
    reads: list[str] = []

    def read(comp: Competition) -> Any:
        reads.append(str(comp.season))
        return ("season", comp.season)

    comp = Competition(id=424242, season='{"v":1}')
    assert _season(comp, read) == ("season", '{"v":1}')
    assert _season(comp, read) == ("season", '{"v":1}')
    comp.season = '{"v":2}'
    assert _season(comp, read) == ("season", '{"v":2}')
    assert reads == ['{"v":1}', '{"v":2}']
    assert _season(Competition(id=424243, season=None), read) is None
    assert len(reads) == 2
