"""Squad generation follows the seed's type table exactly."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.flungo.ground import PITCH_NAMES, PITCHES, WEATHERS, roll_conditions
from engine.flungo.squad import SQUAD_TABLE, BowlingStyle, Role, Team, generate_squad

RANGES = {  # role: ((bat lo, hi), (bowl lo, hi), (field lo, hi)), straight from the seed's table
    Role.STAR_BATSMAN: ((21, 26), (2, 12), (1, 6)),
    Role.BATSMAN: ((19, 24), (2, 12), (1, 6)),
    Role.WICKETKEEPER: ((17, 22), (1, 6), (3, 6)),
    Role.STAR_ALL_ROUNDER: ((19, 24), (19, 24), (3, 6)),
    Role.BATTING_ALL_ROUNDER: ((17, 22), (13, 18), (1, 6)),
    Role.BOWLING_ALL_ROUNDER: ((13, 18), (17, 22), (1, 6)),
    Role.STAR_BOWLER: ((2, 12), (21, 26), (1, 6)),
    Role.BOWLER: ((2, 12), (19, 24), (1, 6)),
}


def test_table_counts_make_eighteen() -> None:
    """The type table has 2+4+2+1+2+2+2+3 = 18 members in the seed's order."""
    assert [s.count for s in SQUAD_TABLE] == [2, 4, 2, 1, 2, 2, 2, 3]
    assert sum(s.count for s in SQUAD_TABLE) == 18


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_every_stat_is_in_its_table_range(seed: int) -> None:
    """Every rolled stat lies in the range the type table allows for its role."""
    team = generate_squad(Dice(seed))
    assert Counter(p.role for p in team.players) == {s.role: s.count for s in SQUAD_TABLE}
    for p in team.players:
        (blo, bhi), (wlo, whi), (flo, fhi) = RANGES[p.role]
        assert blo <= p.batting <= bhi
        assert wlo <= p.bowling <= whi
        assert flo <= p.fielding <= fhi
        assert p.bowling_style in set(BowlingStyle)
    assert len({p.name for p in team.players}) == 18


def test_squad_is_deterministic_and_rolls_are_recorded() -> None:
    """The same seed gives the same squad; every roll is recorded with its purpose."""
    d1, d2 = Dice(99), Dice(99)
    assert generate_squad(d1) == generate_squad(d2)
    # 18 members x (batting, bowling, fielding, style) dice; 2d6 stats roll twice.
    assert any(r.purpose == "squad Star Batsman 1 batting" for r in d1.rolls)
    assert all(r.purpose.startswith("squad ") for r in d1.rolls)


def test_team_json_round_trips() -> None:
    """A squad written as JSON reads back equal."""
    team = generate_squad(Dice(3), "The Gunge Rovers")
    assert Team.from_json(team.to_json()) == team


def test_pitch_and_weather_tables() -> None:
    """Each D6 maps to exactly one pitch and one weather, with the seed's modifiers."""
    for roll in range(1, 7):
        assert sum(roll in g.rolls for g in PITCHES) == 1
        assert sum(roll in g.rolls for g in WEATHERS) == 1
    d = Dice(1)
    c = roll_conditions(d, PITCH_NAMES[0])
    assert c.pitch_name == PITCH_NAMES[0]
    assert [r.die for r in d.rolls] == [6, 6]
    uneven = next(g for g in PITCHES if g.name == "Uneven bouncer")
    assert (uneven.fast, uneven.medium, uneven.spin) == (2, 1, 0)
    overcast = next(g for g in WEATHERS if g.name == "Overcast")
    assert (overcast.medium, overcast.fast, overcast.spin) == (2, 1, 0)
    assert len(set(PITCH_NAMES)) == len(PITCH_NAMES)
