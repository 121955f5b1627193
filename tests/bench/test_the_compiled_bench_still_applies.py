"""``bench/compiled.py`` compiles a copy of the tree after applying the edits mypyc needs
(``bench/compiled_mypyc.patch``): if the engine moves under the patch or a module it names is
renamed, the bench stops at its first step; these say so when the engine changes instead."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import compiled  # type: ignore[import-not-found]  # noqa: E402


def test_the_patch_for_mypyc_applies_to_this_tree(tmp_path: Path) -> None:
    """The patch applies cleanly to the files it names, copied as they are now."""
    patch = (ROOT / "bench" / "compiled_mypyc.patch").read_text()
    named = {line[len("+++ b/") :] for line in patch.splitlines() if line.startswith("+++ b/")}
    for rel in named:
        if (ROOT / rel).exists():
            (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / rel, tmp_path / rel)
    done = subprocess.run(
        ["git", "apply", "--check", str(ROOT / "bench" / "compiled_mypyc.patch")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", sorted(compiled.SETS))
def test_every_module_a_set_compiles_exists(name: str) -> None:
    """Each module of a set is a file of the engine."""
    missing = [m for m in compiled.SETS[name] if not (ROOT / m).is_file()]
    assert not missing
