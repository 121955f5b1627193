"""The ``pbm decks`` commands."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbm.cli import main
from pbm.games.hitforsix.decks.deckfile import decode
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck
from tests.pbm.h6.cricsheet_fixtures import write_fixture_data


def test_build_writes_the_asked_decks(tmp_path: Path) -> None:
    """``pbm decks build --from DIR --out OUT --deck t20i`` writes just that deck and reports it."""
    root = write_fixture_data(tmp_path / "c")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["decks", "build", "--from", str(root), "--out", str(out), "--deck", "t20i"]
    )
    assert result.exit_code == 0, result.output
    assert [p.name for p in out.iterdir()] == ["t20i.json.gz"]
    file, build = decode((out / "t20i.json.gz").read_bytes())
    assert file.deck == "t20i"
    assert build in result.output
    assert "5 matches" in result.output


def test_build_from_a_folder_without_matches_fails_clearly(tmp_path: Path) -> None:
    """A folder with no Cricsheet files is an error, not six empty decks."""
    result = CliRunner().invoke(
        main, ["decks", "build", "--from", str(tmp_path), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code != 0
    assert "no Cricsheet match files" in result.output


def test_list_shows_every_deck_with_its_build() -> None:
    """``pbm decks list`` names each shipped deck with its card count and build id."""
    result = CliRunner().invoke(main, ["decks", "list"])
    assert result.exit_code == 0, result.output
    for name in DECK_NAMES:
        deck = load_deck(name)
        assert name in result.output
        assert deck.build in result.output
        assert str(len(deck.cards)) in result.output
    assert "cricsheet.org" in result.output
