"""A module a newcomer can read: no module of pbm/ or engine/ over 800 lines (issue 25)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 800


def _lines(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in f)


def _over(root: Path, package: str = "pbm") -> list[str]:
    return sorted(
        f"{p.relative_to(root).as_posix()} has {n} lines"
        for p in (root / package).rglob("*.py")
        if (n := _lines(p)) > LIMIT
    )


def test_no_module_of_pbm_is_over_800_lines() -> None:
    """Every Python module under pbm/ (migrations included) has at most 800 lines."""
    assert _over(ROOT) == []


def test_no_module_of_the_engine_is_over_800_lines() -> None:
    """Every Python module under engine/ has at most 800 lines."""
    assert _over(ROOT, "engine") == []


def test_the_size_check_sees_a_long_module(tmp_path: Path) -> None:
    """The check finds a module one line over the limit, however deep, and only that one."""
    deep = tmp_path / "pbm" / "games" / "x"
    deep.mkdir(parents=True)
    (deep / "long.py").write_text("pass\n" * (LIMIT + 1))
    (deep / "short.py").write_text("pass\n" * LIMIT)
    assert _over(tmp_path) == [f"pbm/games/x/long.py has {LIMIT + 1} lines"]
