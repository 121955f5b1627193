"""Packaging shim: the top-level ``templates/`` folder installs as ``pbm.templates``.

Everything else is declared in ``pyproject.toml``; only the package list lives here, because
pyproject's ``packages.find`` cannot map a folder outside ``pbm/`` into the package.
"""

from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).parent
packages = find_packages(include=["engine", "engine.*", "pbm", "pbm.*"])
templates = [
    ".".join(("pbm", "templates", *p.relative_to(HERE / "templates").parts))
    for p in sorted(
        [HERE / "templates", *(d for d in (HERE / "templates").rglob("*") if d.is_dir())]
    )
]
setup(packages=packages + templates, package_dir={"pbm.templates": "templates"})
