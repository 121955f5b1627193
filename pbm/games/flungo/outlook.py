"""Each team's place in its season, as the mails read it: its squad as it stands (boosts and
injuries), whether it is on the field (and with which XI), its next fixture, and whether its
next selection spends helper points.

Every mail to a manager reads a team's fitness and what pbm will play from here, so that the
turn report, the reply to an orders mail, SQUAD, STATUS and the reminder say the same thing
(:mod:`engine.flungo.fitness`). The reply to each orders mail needs one team's outlook; reading
a large league's season for it would be most of that mail's cost, so the outlooks of a
competition are kept (:mod:`pbm.db.kept`) while its stored season's version is the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import Session

from engine.flungo.competition import fixture_teams, next_fixtures
from engine.flungo.fitness import Fitness, injured, next_window_squad
from engine.flungo.fixtures import Fixture
from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.ground import Conditions
from engine.flungo.plan import Selection
from engine.flungo.squad import Team
from engine.flungo.state import MatchState
from engine.flungo.turn import SeasonState
from pbm.db.kept import ShelfOf, kept
from pbm.db.models import Competition

__all__ = ["Outlook", "outlook_of", "outlooks"]


@dataclass(frozen=True, slots=True)
class Outlook:
    """One team in its season. ``squad`` as it stands; ``live`` the XI on the field while the
    team is in a match (``label`` is that match's), else ``fixture`` its next match (None when
    it has none) and ``spends`` whether that selection spends helper points first."""

    squad: Team
    spends: bool
    fixture: Fixture | None
    live: Selection | None = None
    label: str | None = None
    #: the next (or current) match's: the opponent's squad (None while not yet known, as in
    #: a knockout whose earlier round is still to play), its XI once published (on the
    #: field), the pitch and weather, the format and its house rule on consecutive overs
    opponent: Team | None = None
    opponent_xi: tuple[str, ...] | None = None
    conditions: Conditions | None = None
    format: Format | None = None
    no_consecutive_overs: bool = False

    @property
    def spec(self) -> FormatSpec | None:
        """The coming match's format numbers, with the house rule (None: no next match)."""
        if self.format is None:
            return None
        spec = FORMATS[self.format]
        return replace(spec, max_consecutive=1) if self.no_consecutive_overs else spec

    @property
    def in_match(self) -> bool:
        """Whether the team is on the field (its selection played, its result not yet)."""
        return self.live is not None

    def next_match(self) -> str:
        """How the mails call the team's next match: "your next match (Final)"."""
        f = self.fixture
        return f"your next match ({f.label})" if f is not None else "your next match"

    def fitness(self) -> tuple[Fitness, ...]:
        """The squad members who are not fit, and what it means now."""
        return injured(self.squad, self.in_match)

    def order_squad(self) -> Team:
        """The squad a mail's orders are read against: as its next helper-point window will
        find it (those sitting out the match on the field are healed after it)."""
        return next_window_squad(self.squad, self.in_match)


def outlooks(state: SeasonState) -> dict[str, Outlook]:
    """Every team's :class:`Outlook` in ``state``."""
    live: dict[str, tuple[Selection, str, MatchState, int]] = {}
    comp = state.competition
    for lm in state.live:
        label = comp.fixture(lm.fixture_id).label
        for side in (0, 1):
            live[lm.state.team(side).name] = (lm.state.selections[side], label, lm.state, side)
    nexts = next_fixtures(comp)
    played = set(state.played)
    squads = {t.name: t for t in state.squads}
    out = {}
    for team in state.squads:
        on = live.get(team.name)
        fixture = None if on else nexts.get(team.name)
        match: dict[str, Any] = {}
        if on is not None:
            st, side = on[2], on[3]
            match = {
                "opponent": st.team(1 - side),
                "opponent_xi": st.selections[1 - side].xi,
                "conditions": st.setup.conditions,
                "format": st.setup.format,
                "no_consecutive_overs": st.setup.no_consecutive_overs,
            }
        elif fixture is not None:
            home, away = fixture_teams(comp, fixture.id)
            other = away if home == team.name else home
            match = {
                "opponent": squads.get(other) if other is not None else None,
                "conditions": fixture.conditions,
                "format": comp.format,
                "no_consecutive_overs": comp.no_consecutive_overs,
            }
        out[team.name] = Outlook(
            squad=team,
            spends=team.name in played,
            fixture=fixture,
            live=on[0] if on else None,
            label=on[1] if on else None,
            **match,
        )
    return out


#: Per competition, every team's outlook (a few kilobytes a team), kept under its season's
#: version as the fixture lines of :mod:`pbm.games.flungo.mail` are.
OUTLOOKS: ShelfOf[Mapping[str, Outlook]] = ShelfOf("flungo.outlooks", 64)


def outlook_of(session: Session, comp: Competition, team: str) -> Outlook | None:
    """``team``'s outlook in ``comp``'s season as stored (None before the draw, or for a team
    not in it)."""
    version = comp.season_version
    if not isinstance(version, int):  # the season was just written in this unit of work
        return outlooks(SeasonState.from_text(comp.season)).get(team) if comp.season else None

    def derive() -> Mapping[str, Outlook]:
        return outlooks(SeasonState.from_text(comp.season)) if comp.season else {}

    key = (comp.id, comp.created_at)
    return kept(session).shelf(OUTLOOKS).get(key, version, derive).get(team)
