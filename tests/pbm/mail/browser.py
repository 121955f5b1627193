"""Mail HTML as a reader's client shows it: headless Chromium, the page in a frame as wide as
the screen (Chromium's headless window is at least 500 px), a script that measures what a
reader meets (sideways scrolling, small text, faint text) and writes it into the DOM."""

from __future__ import annotations

import html as html_module
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["measure", "screenshot"]

_FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="{url}" style="width:{width}px;height:1200px;border:0"></iframe>
<pre id="found"></pre>
<script>
function lum(c) {{
  var m = c.match(/[\\d.]+/g).map(Number);
  var rgb = m.slice(0, 3).map(function (v) {{
    v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }});
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}}
function opaque(c) {{ var m = c.match(/[\\d.]+/g); return m && (m.length < 4 || +m[3] > 0.5); }}
document.getElementById("f").onload = function () {{
  var win = this.contentWindow, doc = this.contentDocument, root = doc.documentElement;
  var out = {{width: root.clientWidth, scroll: root.scrollWidth, small: [], faint: [],
              background: win.getComputedStyle(doc.body).backgroundColor,
              text: doc.body.innerText, tables: doc.querySelectorAll("table.data").length,
              cells: []}};
  var all = doc.body.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {{
    var el = all[i], own = "";
    for (var n = el.firstChild; n; n = n.nextSibling)
      if (n.nodeType === 3) own += n.textContent;
    own = own.trim();
    if (!own) continue;
    var st = win.getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden") continue;
    var size = parseFloat(st.fontSize);
    if (size < 14) out.small.push(el.tagName + " " + size + "px: " + own.slice(0, 40));
    var bg = null;
    for (var p = el; p && p.nodeType === 1; p = p.parentElement) {{
      var b = win.getComputedStyle(p).backgroundColor;
      if (opaque(b)) {{ bg = b; break; }}
    }}
    bg = bg || "rgb(255, 255, 255)";
    var l1 = lum(st.color), l2 = lum(bg);
    var ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    var large = size >= 24 || (size >= 18.66 && parseInt(st.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5))
      out.faint.push(el.tagName + " " + st.color + " on " + bg + " " + ratio.toFixed(2) +
                     ": " + own.slice(0, 40));
  }}
  var cells = doc.querySelectorAll("table.data td, table.data th");
  for (var k = 0; k < cells.length; k++) out.cells.push(cells[k].innerText.trim());
  document.getElementById("found").textContent = JSON.stringify(out);
}};
</script></body></html>
"""


def chromium() -> str:
    """Debian's Chromium (``scripts/test`` installs it)."""
    found = shutil.which("chromium")
    if found is None:
        raise RuntimeError("headless Chromium is needed: apt-get install chromium")
    return found


def _run(args: list[str], profile: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--hide-scrollbars", "--no-first-run", "--disable-background-networking",
         "--force-device-scale-factor=1", f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def measure(page: Path, width: int, dark: bool = False) -> dict[str, Any]:
    """``page`` in a frame ``width`` px wide (in the dark scheme, if asked): its viewport and
    scrolling widths, text under 14 px, text under WCAG AA contrast, its visible text, how many
    data tables it has and their cells' text."""
    with tempfile.TemporaryDirectory(prefix="pbm-mail-chromium-") as profile:
        frame = Path(profile) / "frame.html"
        url = html_module.escape(page.resolve().as_uri())
        frame.write_text(_FRAME.format(width=width, url=url), encoding="utf-8")
        scheme = ["--blink-settings=preferredColorScheme=0"] if dark else []
        done = _run(
            ["--window-size=1400,1300", "--allow-file-access-from-files",
             "--virtual-time-budget=5000", *scheme, "--dump-dom", frame.as_uri()],
            profile,
        )  # fmt: skip
    found = re.search(r'<pre id="found">(.*?)</pre>', done.stdout, re.S)
    assert found and found.group(1), f"the check did not run on {page.name}: {done.stderr[-800:]}"
    result: dict[str, Any] = json.loads(html_module.unescape(found.group(1)))
    return result


def screenshot(page: Path, shot: Path, width: int = 390, height: int = 1800) -> None:
    """A PNG of ``page`` at ``width`` CSS pixels."""
    with tempfile.TemporaryDirectory(prefix="pbm-mail-chromium-") as profile:
        _run([f"--window-size={width},{height}", f"--screenshot={shot}", page.resolve().as_uri()],
             profile)  # fmt: skip
    assert shot.exists(), f"no screenshot of {page.name}"


_TEXT_PAGE = """<!DOCTYPE html><html><body style="margin:0;width:{width}px;
font-family:'DejaVu Sans',Arial,sans-serif;font-size:16px">
{rows}
<pre id="found"></pre>
<script>
var out = [];
var tables = document.querySelectorAll("div.t");
for (var i = 0; i < tables.length; i++) {{
  var lines = tables[i].querySelectorAll("div.r"), starts = [], wrapped = 0;
  for (var j = 0; j < lines.length; j++) {{
    var spans = lines[j].querySelectorAll("span");
    if (spans.length > 1) starts.push(spans[1].getBoundingClientRect().left);
    if (lines[j].getBoundingClientRect().height > 30) wrapped++;
  }}
  out.push({{spread: Math.max.apply(null, starts) - Math.min.apply(null, starts),
             wrapped: wrapped}});
}}
document.getElementById("found").textContent = JSON.stringify(out);
</script></body></html>
"""


def proportional(tables: list[list[list[str]]], width: int = 390) -> list[dict[str, float]]:
    """Each text table (rows of cells as the text part sets them, the spaces between cells
    kept) in a proportional font ``width`` px wide, as Gmail or a phone shows plain text: how
    far apart its rows' second columns start (px), and how many of its rows wrap."""
    blocks = []
    for table in tables:
        rows = "".join(
            '<div class="r" style="white-space:pre-wrap">'
            + "".join(f"<span>{html_module.escape(c)}</span>" for c in cells)
            + "</div>"
            for cells in table
        )
        blocks.append(f'<div class="t">{rows}</div>')
    with tempfile.TemporaryDirectory(prefix="pbm-mail-chromium-") as profile:
        page = Path(profile) / "text.html"
        page.write_text(_TEXT_PAGE.format(width=width, rows="".join(blocks)), encoding="utf-8")
        done = _run(["--window-size=1400,1300", "--dump-dom", page.as_uri()], profile)
    found = re.search(r'<pre id="found">(.*?)</pre>', done.stdout, re.S)
    assert found and found.group(1), done.stderr[-800:]
    result: list[dict[str, float]] = json.loads(html_module.unescape(found.group(1)))
    return result
