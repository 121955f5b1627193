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

__all__ = ["chromium", "page_width", "run_page", "screenshot"]


def chromium() -> str:
    """The Chromium binary (scripts/test installs Debian's ``chromium``)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("headless Chromium is needed: apt-get install chromium (scripts/test does)")


_FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="{url}" style="width:{width}px;height:900px;border:0"></iframe>
<pre id="vectors"></pre>
<script>
document.getElementById("f").onload = function () {{
  var pre = this.contentDocument.getElementById("vectors");
  document.getElementById("vectors").textContent = pre.textContent;
}};
</script></body></html>
"""


def run_page(page: Path, spec: dict[str, Any], width: int | None = None) -> dict[str, Any]:
    """Open ``page`` with ``spec`` as its #vectors (in a window ``width`` CSS pixels wide, if
    given) and return what it wrote into <pre#vectors>."""
    token = base64.urlsafe_b64encode(json.dumps(spec).encode()).decode().rstrip("=")
    url = f"{page.resolve().as_uri()}#vectors={token}"
    with tempfile.TemporaryDirectory(prefix="h6-chromium-") as profile:
        size: list[str] = []
        if width is not None:
            # Headless Chromium's window is at least 500 px wide, so a phone is a frame of
            # ``width`` px in a page of its own; the frame's answers are copied out on load.
            frame = Path(profile) / "frame.html"
            frame.write_text(_FRAME.format(width=width, url=html.escape(url)), "utf-8")
            url = frame.as_uri()
            size = ["--window-size=1400,1000", "--allow-file-access-from-files"]
        done = subprocess.run(
            [
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--virtual-time-budget=20000",
                *size,
                f"--user-data-dir={profile}",
                "--dump-dom",
                url,
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


def screenshot(url: str, out: Path, width: int = 390, height: int = 2400) -> None:
    """A PNG of ``url`` at ``width`` CSS pixels (for the closing note; not asserted on)."""
    with tempfile.TemporaryDirectory(prefix="h6-chromium-") as profile:
        subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--hide-scrollbars", f"--window-size={width},{height}",
             "--force-device-scale-factor=1", f"--user-data-dir={profile}",
             f"--screenshot={out}", url],
            capture_output=True, timeout=120, check=False,
        )  # fmt: skip


_MEASURE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="{url}" style="width:{width}px;height:900px;border:0"></iframe>
<pre id="vectors"></pre>
<script>
document.getElementById("f").onload = function () {{
  var root = this.contentDocument.documentElement;
  document.getElementById("vectors").textContent =
    JSON.stringify({{width: root.clientWidth, scroll: root.scrollWidth}});
}};
</script></body></html>
"""


def page_width(page: Path, width: int) -> dict[str, int]:
    """``page`` in a frame ``width`` px wide: its viewport width and its scrolling width."""
    with tempfile.TemporaryDirectory(prefix="h6-chromium-") as profile:
        frame = Path(profile) / "measure.html"
        frame.write_text(_MEASURE.format(width=width, url=html.escape(page.resolve().as_uri())))
        done = subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--hide-scrollbars", "--virtual-time-budget=5000", "--window-size=1400,1000",
             "--allow-file-access-from-files", f"--user-data-dir={profile}", "--dump-dom",
             frame.as_uri()],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    found = re.search(r'<pre id="vectors">(.*?)</pre>', done.stdout, re.S)
    assert found and found.group(1), done.stderr[-2000:]
    result: dict[str, int] = json.loads(html.unescape(found.group(1)))
    return result
