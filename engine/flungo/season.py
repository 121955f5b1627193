"""Everything between matches, in one import: competitions, results, tables and helper points.

The lead and the daemon use this module; the modules behind it are private detail::

    from engine.flungo import season
    comp, events = season.mini_tournament("Flungo Cup", teams, Format.T20, dice)
    comp, events = season.record_result(comp, summary)
"""

from engine.flungo.competition import (
    Competition,
    CompetitionKind,
    byes_for_round,
    champion,
    current_round,
    describe_entrant,
    fixture_teams,
    fixture_text,
    fixtures_for_round,
    fixtures_for_turn,
    is_finished,
    next_fixture,
    pending_fixtures,
    record_result,
    result_of,
    round_turns,
    standings,
    standings_text,
    turn_position,
)
from engine.flungo.draw import mini_tournament, new_knockout, new_league
from engine.flungo.fixtures import TURNS_PER_MATCH, Entrant, EntrantKind, Fixture, Phase
from engine.flungo.helpers import (
    HELPER_POINTS,
    STAT_CAPS,
    InjuryError,
    after_match,
    apply_helper_spend,
    check_helper_spend,
    default_spend,
    record_injuries,
    unavailable,
)
from engine.flungo.season_events import SeasonEvent, event_from_json
from engine.flungo.summary import (
    CompetitionError,
    InningsSummary,
    MatchSummary,
    injuries_from_report,
    summary_from_report,
)
from engine.flungo.table import TableRow, format_table, net_run_rate

__all__ = [
    "HELPER_POINTS",
    "STAT_CAPS",
    "TURNS_PER_MATCH",
    "Competition",
    "CompetitionError",
    "CompetitionKind",
    "Entrant",
    "EntrantKind",
    "Fixture",
    "InjuryError",
    "InningsSummary",
    "MatchSummary",
    "Phase",
    "SeasonEvent",
    "TableRow",
    "after_match",
    "apply_helper_spend",
    "byes_for_round",
    "champion",
    "check_helper_spend",
    "current_round",
    "default_spend",
    "describe_entrant",
    "event_from_json",
    "fixture_teams",
    "fixture_text",
    "fixtures_for_round",
    "fixtures_for_turn",
    "format_table",
    "injuries_from_report",
    "is_finished",
    "mini_tournament",
    "net_run_rate",
    "new_knockout",
    "new_league",
    "next_fixture",
    "pending_fixtures",
    "record_injuries",
    "record_result",
    "result_of",
    "round_turns",
    "standings",
    "standings_text",
    "summary_from_report",
    "turn_position",
    "unavailable",
]
