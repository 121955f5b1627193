"""The wheel: installs the ``pbm`` command with engine, pbm, migrations and the templates."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_wheel_installs_in_a_fresh_venv_and_renders(tmp_path: Path) -> None:
    """A wheel built from the tree, installed in a new venv, renders a template from inside
    the installed package and migrates a database with the shipped migrations."""
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    [wheel] = dist.glob("pbm-*.whl")
    env_dir = tmp_path / "v"
    venv.create(env_dir, with_pip=False)
    py = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    # The dependencies come from the running environment (offline and fast); pbm itself only
    # from the wheel: the checkout is not on the new venv's path.
    paths = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (site / "deps.pth").write_text("\n".join(paths) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    probe = (
        "import pbm.outbound.render as r; from pbm.core.config import ServerConfig;"
        "print(r.templates_dir());"
        "print(r.render_email('auth-refused', {'server': ServerConfig('pbm@x.test'),"
        " 'notes': [], 'reason': 'probe'}).subject)"
    )
    out = subprocess.run(
        [str(py), "-c", probe], check=True, capture_output=True, text=True, cwd=tmp_path
    ).stdout.splitlines()
    assert out[0].startswith(str(site)) and out[0].endswith("pbm/templates")
    assert out[1].startswith("Refused")
    url = f"sqlite:///{tmp_path}/w.sqlite3"
    pbm = env_dir / "bin" / "pbm"
    for args in (["db", "upgrade", "--url", url], ["db", "check", "--url", url]):
        r = subprocess.run([str(pbm), *args], capture_output=True, text=True, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
