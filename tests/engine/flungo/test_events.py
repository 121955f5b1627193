"""Typed match events: one class per kind, facts as fields, JSON that reads back as the class."""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.flungo import Format, MatchSetup, generate_squad, play_match
from engine.flungo.events import (
    Ball,
    EventKind,
    InningsEnd,
    MatchEvent,
    ResultDeclared,
    Termination,
    Toss,
    event_from_json,
)
from engine.flungo.ground import Conditions
from engine.flungo.state import MatchState


def _match(seed: int, knockout: bool = False) -> MatchState:
    home = generate_squad(Dice(seed), "Gunge Giants")
    away = generate_squad(Dice(seed + 1), "Snodge Stars")
    setup = MatchSetup(Format.T20, seed, Conditions("The Gunge Bowl", 3, 1), home, away, knockout)
    return play_match(setup).state


@pytest.mark.parametrize("seed", range(12))
def test_every_event_reads_back_as_its_own_class(seed: int) -> None:
    """Each event's JSON names its kind and reads back equal, as the same class."""
    state = _match(seed)
    assert state.log, "a match always logs the toss and the result"
    for event in state.log:
        back = event_from_json(event.to_json())
        assert back == event and type(back) is type(event)
        assert event.to_json()["kind"] == event.kind.value


def test_facts_agree_with_the_sentences() -> None:
    """The toss, the innings ends and the result carry as fields what their text says."""
    state = _match(5)
    toss = next(e for e in state.log if isinstance(e, Toss))
    assert toss.text == f"{toss.team} won the toss (coin {toss.coin}) and chose to {toss.choice}"
    ends = [e for e in state.log if isinstance(e, InningsEnd)]
    assert [(e.runs, e.wickets) for e in ends] == [(i.runs, i.wickets) for i in state.innings]
    result = next(e for e in state.log if isinstance(e, ResultDeclared))
    assert state.result is not None
    assert result.winner == state.result.winner
    assert result.termination is state.result.termination
    if result.termination is Termination.RUNS:
        assert result.margin == state.result.runs > 0
    elif result.termination is Termination.WICKETS:
        assert result.margin == state.result.wickets


def test_terminations_cover_a_season_of_matches() -> None:
    """Across many seeds, league results are won by runs, by wickets or tied, and the
    termination agrees with the margin; knockout ties are broken, never left standing."""
    seen = set()
    for seed in range(60):
        r = _match(seed).result
        assert r is not None
        seen.add(r.termination)
        assert (r.termination is Termination.TIE) == (r.winner is None)
        assert (r.termination is Termination.RUNS) == (r.runs > 0)
    assert {Termination.RUNS, Termination.WICKETS} <= seen
    for seed in range(30):
        r = _match(seed, knockout=True).result
        assert r is not None and r.winner is not None


def test_unknown_kind_is_refused() -> None:
    """A stored event of a kind this engine does not know is an error, not a guess."""
    with pytest.raises(ValueError, match="unknown match event kind"):
        event_from_json({"kind": "streaker", "innings": 0, "at_ball": 0, "team": "", "text": ""})


def test_every_kind_has_a_class() -> None:
    """No kind is left as an untyped sentence: every EventKind has its MatchEvent subclass."""
    from engine.flungo import events

    kinds = {
        cls.kind
        for name in events.__all__
        if isinstance(cls := getattr(events, name), type)
        and issubclass(cls, MatchEvent)
        and cls is not MatchEvent
    }
    assert kinds == set(EventKind)
    assert Ball._fields[0] == "over"
