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


#: Where a distribution's import name differs from its name on PyPI.
_IMPORT_NAMES = {
    "imapclient": "imapclient",
    "sqlalchemy": "sqlalchemy",
    "flufl.bounce": "flufl.bounce",
    "argon2-cffi": "argon2",
    "dkimpy": "dkim",
    "pyyaml": "yaml",
    # Authlib's requests client needs requests but does not declare it: pbm does, for that import
    "requests": "authlib.integrations.requests_client",
}


def _declared() -> list[str]:
    import re
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return [re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0].lower() for d in deps]


def test_every_declared_dependency_is_imported_by_the_code() -> None:
    """A dependency nothing imports is dropped (issue 25 found two): each one declared in
    pyproject is imported somewhere under engine/ or pbm/."""
    import ast

    imported: set[str] = set()
    for path in [*(ROOT / "pbm").rglob("*.py"), *(ROOT / "engine").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module)
    unused = []
    for dist in _declared():
        name = _IMPORT_NAMES.get(dist, dist.replace("-", "_"))
        if not any(m == name or m.startswith(name + ".") for m in imported):
            unused.append(dist)
    assert unused == []


def test_postgresql_driver_is_an_extra_with_a_clear_message_when_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """psycopg is the ``postgres`` extra, not a dependency; a PostgreSQL URL without it is a
    configuration error that says what to install, not a traceback."""
    import tomllib

    from pbm.core.errors import ConfigError
    from pbm.db.session import make_db_engine

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "psycopg" not in _declared()
    assert any(d.startswith("psycopg") for d in project["optional-dependencies"]["postgres"])
    monkeypatch.setitem(sys.modules, "psycopg", None)  # an import of it now fails
    with pytest.raises(ConfigError, match=r"pbm\[postgres\]") as info:
        make_db_engine("postgresql://pbm@localhost/pbm")
    assert info.value.key == "database.url"


@pytest.mark.slow
def test_sdist_carries_the_licence_the_example_config_the_docs_and_the_unit(
    tmp_path: Path,
) -> None:
    """An operator who unpacks the sdist finds LICENSE (matching the metadata's MIT), the
    example config, the guides and the systemd unit."""
    import tarfile

    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--sdist",
            "--no-isolation",
            "-o",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    [sdist] = tmp_path.glob("pbm-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        licence = tar.extractfile(next(m for m in tar.getmembers() if m.name.endswith("/LICENSE")))
        assert licence is not None and b"MIT License" in licence.read()
        pkg_info = tar.extractfile(
            next(m for m in tar.getmembers() if m.name.endswith("/PKG-INFO"))
        )
        assert pkg_info is not None and b"License-Expression: MIT" in pkg_info.read()
    for needed in (
        "LICENSE",
        "config.example.toml",
        "docs/ops/pbm.service",
        "docs/ops/operations.md",
        "docs/players/orders.md",
        "docs/gm/guide.md",
        "templates/email",
    ):
        assert any(n == needed or n.startswith(needed + "/") for n in names), needed
