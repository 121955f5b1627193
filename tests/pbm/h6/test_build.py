"""Building decks from small Cricsheet-format fixtures the project writes itself."""

from __future__ import annotations

import dataclasses
import zipfile
from pathlib import Path

import pytest

from engine.hitforsix.cards import Card
from pbm.games.hitforsix.decks.build import build_decks, make_deck, write_decks
from pbm.games.hitforsix.decks.cricsheet import CricsheetFormatError, Match, discover_sources
from pbm.games.hitforsix.decks.deckfile import decode
from pbm.games.hitforsix.decks.load import DECK_SPECS, spec
from pbm.games.hitforsix.decks.tally import Tally
from tests.pbm.h6.cricsheet_fixtures import MATCH_1003, write_fixture_data

# The real decks' specs with no minimum, so the tiny careers get cards.
SPECS = [dataclasses.replace(s, min_matches=1) for s in DECK_SPECS]


@pytest.fixture
def built(tmp_path: Path) -> dict[str, dict[str, Card]]:
    report = build_decks(write_fixture_data(tmp_path / "cricsheet"), specs=SPECS)
    return {name: {c.id: c for c in b.file.cards} for name, b in report.decks.items()}


def test_batting_counts_wides_no_balls_non_boundary_and_run_outs(
    built: dict[str, dict[str, Card]],
) -> None:
    """Batter runs count off no-balls, wides are not balls faced, an all-run four is no four."""
    a = built["t20i"]["a1"]
    # 1001: 4, wide, 6 off a no-ball, all-run 4, leg-bye, run out for 1; 1003 (csv2): 4, wide,
    # no-ball, caught; both super overs ignored.
    assert (a.runs, a.balls_faced, a.fours, a.sixes) == (19, 8, 2, 1)
    assert a.dismissals == 2  # the run out and the catch


def test_bowling_counts_legal_balls_charged_runs_and_credited_wickets(
    built: dict[str, dict[str, Card]],
) -> None:
    """Balls bowled exclude wides and no-balls; byes are not charged; a run out is no wicket."""
    d = built["associates"]["d1"]
    assert (d.balls_bowled, d.runs_conceded, d.wickets) == (6, 23, 1)
    assert d.runs == 0  # his super-over sixes do not count


def test_retired_hurt_is_not_a_dismissal(built: dict[str, dict[str, Card]]) -> None:
    """Retiring hurt faces a ball but is not out; the bowled that follows is."""
    b = built["t20i"]["b1"]
    assert (b.balls_faced, b.dismissals) == (2, 1)
    c = built["associates"]["c1"]
    assert (c.balls_bowled, c.wickets) == (2, 1)  # credited the bowled, not the retirement


def test_registry_id_keys_a_player_through_a_name_change(built: dict[str, dict[str, Card]]) -> None:
    """A Bat and AB Bat are one registry id: one card, the most frequent name, 3 matches."""
    a = built["t20i"]["a1"]
    assert (a.name, a.initials, a.matches) == ("A Bat", "AB", 3)
    assert (a.balls_bowled, a.runs_conceded) == (1, 2)  # bowled as AB Bat in 1002


def test_country_is_most_played_team_with_latest_breaking_ties(
    built: dict[str, dict[str, Card]],
) -> None:
    """A Bat played India twice, Nepal once; X Ray once each, latest for India."""
    assert built["t20i"]["a1"].country == "India"
    x = built["t20i"]["x1"]
    assert (x.country, x.name) == ("India", "XY Ray")  # name tie also goes to the latest
    assert "x1" not in built["associates"]


def test_match_in_json_and_csv2_counts_once_and_afghanistan_men_are_left_out(
    tmp_path: Path,
) -> None:
    """1001 is in both archives and counts once (the JSON copy); 1004 (AFG men) is left out."""
    report = build_decks(write_fixture_data(tmp_path / "c"), specs=SPECS)
    assert report.matches_read == 5
    assert report.left_out["Afghanistan men (withheld by Cricsheet)"] == 1
    c = next(c for c in report.decks["associates"].file.cards if c.id == "c1")
    assert c.matches == 2
    assert report.decks["t20i"].file.source_matches == 3


def test_women_go_to_the_women_decks(built: dict[str, dict[str, Card]]) -> None:
    """A women's T20I makes women's cards and nothing in the men's decks."""
    assert set(built["t20i-women"]) == {"w1", "v1"}
    assert built["t20i-women"]["w1"].fours == 1
    assert not set(built["odi-women"])
    assert "w1" not in built["t20i"]


def test_minimum_matches_keeps_short_careers_out(tmp_path: Path) -> None:
    """With a minimum of 3 matches only A Bat (3 matches) keeps a T20I card."""
    specs = [dataclasses.replace(spec("t20i"), min_matches=3)]
    report = build_decks(write_fixture_data(tmp_path / "c"), specs=specs)
    assert [c.id for c in report.decks["t20i"].file.cards] == ["a1"]


def test_build_is_deterministic_and_round_trips(tmp_path: Path) -> None:
    """Two builds give identical bytes, and the written files decode to the built cards."""
    root = write_fixture_data(tmp_path / "c")
    one = build_decks(root, specs=SPECS)
    two = build_decks(root, specs=SPECS)
    assert {n: b.data for n, b in one.decks.items()} == {n: b.data for n, b in two.decks.items()}
    for path in write_decks(one, tmp_path / "out"):
        file, build = decode(path.read_bytes())
        assert file == one.decks[file.deck].file
        assert build == one.decks[file.deck].build


def test_loose_csv2_folder_without_type_is_refused(tmp_path: Path) -> None:
    """A csv2 folder with no README and no Cricsheet archive name cannot say its match type."""
    folder = tmp_path / "mystery"
    folder.mkdir()
    info, balls = MATCH_1003
    (folder / "1003_info.csv").write_text(info)
    (folder / "1003.csv").write_text(balls)
    with pytest.raises(CricsheetFormatError, match="match type"):
        build_decks(folder, specs=SPECS)


def test_csv2_test_match_counts_its_third_innings(tmp_path: Path) -> None:
    """In a csv2 Test (type from a tests_ archive name) innings 3 is real, not a super over."""
    info, balls = MATCH_1003
    with zipfile.ZipFile(tmp_path / "tests_csv2.zip", "w") as zf:
        zf.writestr("1003_info.csv", info)
        zf.writestr("1003.csv", balls)
    specs = [dataclasses.replace(spec("test"), min_matches=1, members="all")]
    report = build_decks(tmp_path, specs=specs)
    a = next(c for c in report.decks["test"].file.cards if c.id == "a1")
    assert a.runs == 10  # the 4 of innings 1 and the 6 of innings 3


def test_sources_are_found_in_zips_and_folders(tmp_path: Path) -> None:
    """Discovery finds the JSON zip and the csv2 zip in a subfolder; other files are ignored."""
    root = write_fixture_data(tmp_path / "c")
    (root / "README.md").write_text("not data")
    found = [(s.path.name, s.format, len(s.ids)) for s in discover_sources(root)]
    assert found == [("t20s_csv2_extra.zip", "csv2", 2), ("t20s_json.zip", "json", 4)]


def test_delivery_naming_someone_outside_the_registry_is_an_error(tmp_path: Path) -> None:
    """A name missing from the match's registry is refused, never keyed by name."""
    info, balls = MATCH_1003
    bad = balls.replace("A Bat", "Z Unknown")
    with zipfile.ZipFile(tmp_path / "t20s_csv2.zip", "w") as zf:
        zf.writestr("1003_info.csv", info)
        zf.writestr("1003.csv", bad)
    with pytest.raises(CricsheetFormatError, match="Z Unknown"):
        build_decks(tmp_path, specs=SPECS)


def test_from_a_single_zip(tmp_path: Path) -> None:
    """``--from`` may name one zip: only its matches are read."""
    root = write_fixture_data(tmp_path / "c")
    report = build_decks(root / "t20s_json.zip", specs=SPECS)
    assert report.matches_read == 4
    assert "1003" not in {m for s in discover_sources(root / "t20s_json.zip") for m in s.ids}


def test_namesakes_in_one_deck_are_told_apart() -> None:
    """Two players the scorebook names alike: the later debutant's card gets " (2)"."""
    tally = Tally()
    for mid, pid, date in (("2", "zz", "2019-05-01"), ("1", "aa", "2020-01-01")):
        tally.add(
            Match(
                id=mid,
                match_type="T20",
                gender="male",
                team_type="international",
                date=date,
                players=(("India", (pid,)),),
                names=((pid, "S Khan"),),
                balls=(),
            )
        )
    deck = make_deck(dataclasses.replace(spec("t20i"), min_matches=1), tally)
    assert {c.id: (c.name, c.initials) for c in deck.cards} == {
        "zz": ("S Khan", "SK"),
        "aa": ("S Khan (2)", "SK"),
    }


def test_damaged_match_file_is_reported_with_its_place(tmp_path: Path) -> None:
    """A match file that is JSON but not Cricsheet's is refused, naming the zip and member."""
    with zipfile.ZipFile(tmp_path / "t20s_json.zip", "w") as zf:
        zf.writestr("77.json", "{}")
    with pytest.raises(CricsheetFormatError, match=r"t20s_json\.zip:77\.json: not Cricsheet"):
        build_decks(tmp_path, specs=SPECS)


def test_broken_zip_is_refused(tmp_path: Path) -> None:
    """A file named .zip that is not a zip is a clear error."""
    (tmp_path / "odis_json.zip").write_bytes(b"not a zip")
    with pytest.raises(CricsheetFormatError, match="not a readable zip"):
        build_decks(tmp_path, specs=SPECS)
