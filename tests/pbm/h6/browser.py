"""Drive the one-file ground in headless Chromium: vectors in by the URL, answers out by the DOM."""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["chromium", "run_page"]


def chromium() -> str:
    """The Chromium binary (scripts/test installs Debian's ``chromium``)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("headless Chromium is needed: apt-get install chromium (scripts/test does)")


def run_page(page: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """Open ``page`` with ``spec`` as its #vectors and return what it wrote into <pre#vectors>."""
    token = base64.urlsafe_b64encode(json.dumps(spec).encode()).decode().rstrip("=")
    with tempfile.TemporaryDirectory(prefix="h6-chromium-") as profile:
        done = subprocess.run(
            [
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                f"--user-data-dir={profile}",
                "--dump-dom",
                f"{page.resolve().as_uri()}#vectors={token}",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    found = re.search(r'<pre id="vectors">(.*?)</pre>', done.stdout, re.S)
    if found is None:
        raise AssertionError(f"the page wrote no answers; chromium said:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return result
