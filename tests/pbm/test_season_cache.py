"""An orders reply reads a competition's season (and its teams' next fixtures) once, and again
only when it changed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from pbm.db.models import Competition
from pbm.flungo.mail import _season


def test_the_season_is_read_again_only_when_its_text_changed() -> None:
    """Same stored text: the season read before; new text (a stage resolved, perhaps by
    another process): read again; no season (before the draw): None, nothing read."""
    reads: list[str] = []

    def read(comp: Competition) -> Any:
        reads.append(str(comp.season))
        # a season with no fixtures left: its teams' next fixtures are none
        return SimpleNamespace(
            text=comp.season, competition=SimpleNamespace(results=(), fixtures=())
        )

    comp = Competition(id=424242, season='{"v":1}')
    first = _season(comp, read)
    assert first is not None and first.state.text == '{"v":1}' and first.nexts == {}
    assert _season(comp, read) is first
    comp.season = '{"v":2}'
    second = _season(comp, read)
    assert second is not None and second.state.text == '{"v":2}'
    assert reads == ['{"v":1}', '{"v":2}']
    assert _season(Competition(id=424243, season=None), read) is None
    assert len(reads) == 2
