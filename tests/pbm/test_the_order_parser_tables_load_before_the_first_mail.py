"""The order parser's tables: shipped in the package, else cached in a private directory."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.dice import Dice
from engine.flungo.formats import Format
from engine.flungo.language import Reader, parse_orders
from engine.flungo.squad import generate_squad
from pbm.games.flungo.grammar import cache_dir, warm_order_parser


@pytest.mark.slow
def test_the_shipped_tables_need_no_cache(tmp_path: Path) -> None:
    """With the package's tables current, warming up writes nothing, gives no tables of its
    own (a Reader reads with the package's), and parses as the built tables do."""
    team = generate_squad(Dice(3), "Gunge Giants")
    text = "TEAM NAME Gunge Giants\nXI: 1,2,3,4,5,6,7,8,9,10,11\nToss: bat\n"
    tables = warm_order_parser(tmp_path / "cache", shipped=False)
    assert tables is not None
    built = parse_orders(text, team, Format.T20, reader=Reader(tables))
    assert warm_order_parser(tmp_path / "unused") is None
    assert not (tmp_path / "unused").exists()
    assert parse_orders(text, team, Format.T20, reader=Reader()) == built and not built.errors


@pytest.mark.slow
def test_cache_is_written_once_then_loaded(tmp_path: Path) -> None:
    """Without the shipped tables, the first warm-up writes the tables; the second loads
    them, faster, and parses alike."""
    team = generate_squad(Dice(3), "Gunge Giants")
    text = "TEAM NAME Gunge Giants\nXI: 1,2,3,4,5,6,7,8,9,10,11\nToss: bat\n"
    t0 = time.perf_counter()
    made = warm_order_parser(tmp_path, shipped=False)
    built = time.perf_counter() - t0
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].stat().st_size > 100_000
    first = parse_orders(text, team, Format.T20, reader=Reader(made))
    t0 = time.perf_counter()
    again = warm_order_parser(tmp_path, shipped=False)
    loaded = time.perf_counter() - t0
    assert loaded < built
    assert again is not None and again is not made
    assert parse_orders(text, team, Format.T20, reader=Reader(again)) == first


def test_cache_dir_is_private(tmp_path: Path) -> None:
    """The cache directory is made 0700; one open to others is refused (it holds a pickle)."""
    made = cache_dir({"XDG_CACHE_HOME": str(tmp_path)})
    assert made == tmp_path / "pbm"
    assert made is not None and (made.stat().st_mode & 0o777) == 0o700
    made.chmod(0o777)
    assert cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) is None
    assert cache_dir({}) is None


@pytest.mark.slow
def test_a_missing_cache_place_still_builds(tmp_path: Path) -> None:
    """Without a usable directory the parser is built in memory and works."""
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    tables = warm_order_parser(blocked, shipped=False)
    team = generate_squad(Dice(4), "Snodge Stars")
    assert not parse_orders("Toss: bowl", team, Format.T20, reader=Reader(tables)).errors
