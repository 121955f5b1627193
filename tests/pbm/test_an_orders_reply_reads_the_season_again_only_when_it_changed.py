"""An orders reply reads a competition's season (for its teams' next fixtures) once, and again
only when it changed: each write of the season raises ``season_version`` in the database,
and the intake's lookup leaves the text itself unloaded. Every competition of a large site
stays remembered."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import event, inspect, select

from pbm.app import App
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.games.flungo.mail import FIXTURE_LINES, _fixture_lines
from pbm.inbound.pipeline import _BY_CODE


def _reader(reads: list[str]) -> Any:
    def read(comp: Competition) -> Any:
        reads.append(str(comp.season))
        # a season with no fixtures left: its teams' next fixtures are none
        return SimpleNamespace(
            text=comp.season, competition=SimpleNamespace(results=(), fixtures=())
        )

    return read


def test_the_season_is_read_again_only_when_its_version_changed(app: App, demo: str) -> None:
    """Before the draw: None, nothing read. Then the stored season is read once; a later
    mail's lookup (the season deferred) finds the same version and loads no text; a new
    season (a stage resolved, perhaps by another process) raises the version and is read."""
    reads: list[str] = []
    read = _reader(reads)
    with transaction(app.sessions) as s:
        comp = s.scalars(_BY_CODE, {"code": demo}).one()
        assert comp.season_version == 0
        assert _fixture_lines(s, comp, read) is None and reads == []
        comp.season = '{"v":1}'
    with transaction(app.sessions) as s:
        comp = s.scalars(_BY_CODE, {"code": demo}).one()
        assert comp.season_version == 1
        first = _fixture_lines(s, comp, read)
        assert first == {}  # no fixtures left, so no team has a next one
    with transaction(app.sessions) as s:
        comp = s.scalars(_BY_CODE, {"code": demo}).one()
        assert _fixture_lines(s, comp, read) is first
        assert "season" not in inspect(comp).dict  # the text was never loaded
        comp.season = '{"v":2}'
    with transaction(app.sessions) as s:
        comp = s.scalars(_BY_CODE, {"code": demo}).one()
        second = _fixture_lines(s, comp, read)
        assert comp.season_version == 2
        assert second == {} and second is not first
    assert reads == ['{"v":1}', '{"v":2}']


def test_the_version_is_raised_by_the_update_itself(app: App, demo: str) -> None:
    """The UPDATE writes ``season_version + 1``, not a number computed from a stale read, so
    two writers of one season cannot both write the same next version."""
    seen: list[str] = []

    def log(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(app.db_engine, "before_cursor_execute", log)
    try:
        with transaction(app.sessions) as s:
            comp = s.scalars(select(Competition)).one()
            comp.season = '{"v":1}'
    finally:
        event.remove(app.db_engine, "before_cursor_execute", log)
    [update] = [st for st in seen if st.startswith("UPDATE competitions")]
    assert "season_version=(competitions.season_version + " in update


def test_every_competition_of_a_large_site_stays_remembered(app: App) -> None:
    """Mail spread over many more competitions than the 16 seasons once kept (each orders mail
    from another competition than the last) reads each season once, not once a mail; past
    the shelf's room (``FIXTURE_LINES.size``) the least recently used is the one read again."""
    reads: list[str] = []
    read = _reader(reads)
    made = datetime(2026, 1, 1, tzinfo=UTC)
    comps = [
        Competition(id=10_000 + i, season=f"season {i}", season_version=1, created_at=made)
        for i in range(FIXTURE_LINES.size + 1)
    ]
    with transaction(app.sessions) as s:
        for _ in range(2):  # round-robin over 40 competitions, twice
            for comp in comps[:40]:
                assert _fixture_lines(s, comp, read) == {}
        assert reads == [f"season {i}" for i in range(40)]
        for comp in comps:  # fill it: the first of them is the least recently used
            _fixture_lines(s, comp, read)
        reads.clear()
        _fixture_lines(s, comps[1], read)
        _fixture_lines(s, comps[0], read)
        assert reads == ["season 0"]
