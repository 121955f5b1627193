"""Headless Chromium for the zine's reader checks: screenshots, and a DOM check run inside
the page (a copy of it, with a small inline script appended that writes its findings into
the DOM, read back with ``--dump-dom``)."""

from __future__ import annotations

import html as html_module
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium")

CHECK_SCRIPT = """
<script>
(function () {
  // Headless Chromium will not make a window narrower than 500 px, so the phone width is
  // imposed on the root element (the stylesheet has no width media queries to miss).
  var want = WANT_WIDTH;
  var doc = document.documentElement;
  if (window.innerWidth > want) doc.style.width = want + 'px';
  var width = Math.min(window.innerWidth, want);
  var out = {overflow: [], svg: [], headings: [], img: [], width: width};
  out.scrollWidth = Math.max(doc.scrollWidth > window.innerWidth ? doc.scrollWidth : 0,
                             document.body.scrollWidth);
  var all = document.body.querySelectorAll('*');
  for (var i = 0; i < all.length; i++) {
    var el = all[i];
    if (el.closest('.scroll') && !el.classList.contains('scroll')) continue;
    var r = el.getBoundingClientRect();
    if (r.width > 0 && (r.right > width + 1 || r.left < -1)) {
      out.overflow.push(el.tagName + '.' + el.className + ' ' +
                        Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  var svgs = document.querySelectorAll('svg');
  for (var j = 0; j < svgs.length; j++) {
    var t = svgs[j].querySelector(':scope > title');
    var d = svgs[j].querySelector(':scope > desc');
    out.svg.push({title: t ? t.textContent : '', desc: d ? d.textContent : '',
                  labelled: svgs[j].getAttribute('aria-labelledby') || ''});
  }
  var hs = document.querySelectorAll('h1, h2, h3, h4, h5, h6');
  for (var k = 0; k < hs.length; k++) out.headings.push(parseInt(hs[k].tagName.substring(1)));
  var imgs = document.querySelectorAll('img');
  for (var m = 0; m < imgs.length; m++) out.img.push(imgs[m].getAttribute('alt'));
  var pre = document.createElement('pre');
  pre.id = 'zine-check';
  pre.style.display = 'none';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )


def screenshot(page: Path, shot: Path, width: int, height: int = 2400) -> None:
    """A screenshot of ``page`` at ``width`` CSS pixels."""
    _run([f"--window-size={width},{height}", f"--screenshot={shot}", page.as_uri()])
    assert shot.exists(), f"no screenshot of {page.name}"


def check_page(page: Path, width: int, work: Path, shot: Path | None = None) -> dict[str, Any]:
    """Load a copy of ``page`` with the check script at ``width`` (taking a screenshot of it
    to ``shot`` in the same run); return the script's findings."""
    copy = work / f"check-{width}-{page.name}"
    html = page.read_text(encoding="utf-8")
    script = CHECK_SCRIPT.replace("WANT_WIDTH", str(width))
    copy.write_text(html.replace("</body>", script + "</body>"), encoding="utf-8")
    args = [f"--window-size={width},2400", "--dump-dom"]
    if shot is not None:
        args.append(f"--screenshot={shot}")
    done = _run([*args, copy.as_uri()])
    m = re.search(r'<pre id="zine-check"[^>]*>(.*?)</pre>', done.stdout, re.S)
    assert m, f"the check did not run on {page.name}: {done.stderr[-500:]}"
    found: dict[str, Any] = json.loads(html_module.unescape(m.group(1)))
    return found
