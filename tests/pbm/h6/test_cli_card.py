"""``pbm h6 card``: finding a player and writing his card."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from engine.hitforsix.colours import TEAM_COLOURS
from pbm.cli.h6_card import card, find_cards
from pbm.games.hitforsix.decks.load import load_deck


def test_finds_by_full_name_surname_or_id_in_any_case() -> None:
    """V Kohli is found as "v kohli", "KOHLI" and by his registry id."""
    deck = load_deck("t20i")
    for query in ("v kohli", "KOHLI", "ba607b88"):
        assert [c.name for c in find_cards(deck, query)] == ["V Kohli"]


def test_multi_word_surname_is_found() -> None:
    """ "de Villiers" finds AB de Villiers."""
    assert [c.id for c in find_cards(load_deck("odi"), "De Villiers")] == ["c4487b84"]


def test_writes_the_svg_card(tmp_path: Path) -> None:
    """``card kohli --svg FILE`` writes a well-formed card in India's colours and shows figures."""
    out = tmp_path / "kohli.svg"
    result = CliRunner().invoke(card, ["kohli", "--deck", "t20i", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert "3,963" in result.output
    svg = out.read_text()
    ET.fromstring(svg)
    assert TEAM_COLOURS["India"][0] in svg
    assert "V Kohli" in svg


def test_ambiguous_surname_lists_the_matches() -> None:
    """ "Anderson" in the Test deck is ambiguous: the error lists each with its id."""
    result = CliRunner().invoke(card, ["Anderson", "--deck", "test"])
    assert result.exit_code != 0
    assert "JM Anderson" in result.output
    assert "d12143bf" in result.output
    assert "CJ Anderson" in result.output


def test_unknown_name_suggests_close_ones() -> None:
    """A misspelt name is refused with a did-you-mean."""
    result = CliRunner().invoke(card, ["V Kohly"])
    assert result.exit_code != 0
    assert "did you mean V Kohli" in result.output
