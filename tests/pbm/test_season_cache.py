"""An orders reply reads a competition's season (and its teams' next fixtures) once, and again
only when it changed: each write of the season raises ``season_version`` in the database,
and the intake's lookup leaves the text itself unloaded."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import event, inspect, select

from pbm.app import App
from pbm.db.models import Competition
from pbm.db.session import transaction
from pbm.flungo.mail import _season
from pbm.inbound.dispatch import _BY_CODE


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
        assert _season(s, comp, read) is None and reads == []
        comp.season = '{"v":1}'
    with transaction(app.sessions) as s:
        comp = s.scalars(_BY_CODE, {"code": demo}).one()
        assert comp.season_version == 1
        first = _season(s, comp, read)
        assert first is not None and first.state.text == '{"v":1}' and first.nexts == {}
    with transaction(app.sessions) as s:
        comp = s.scalars(_BY_CODE, {"code": demo}).one()
        assert _season(s, comp, read) is first
        assert "season" not in inspect(comp).dict  # the text was never loaded
        comp.season = '{"v":2}'
    with transaction(app.sessions) as s:
        comp = s.scalars(_BY_CODE, {"code": demo}).one()
        second = _season(s, comp, read)
        assert comp.season_version == 2
        assert second is not None and second.state.text == '{"v":2}'
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
