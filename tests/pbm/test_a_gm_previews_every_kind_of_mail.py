"""``pbm mail preview``: every kind of mail (or one) as .eml and .html, from made-up data."""

from __future__ import annotations

import re
from email import message_from_bytes, policy
from pathlib import Path

from click.testing import CliRunner

from pbm.cli import main
from pbm.outbound.render import email_kinds, has_html


def _sourceless(html: str) -> str:
    return re.sub(r'src="[^"]*"', 'src=""', html)


def test_every_kind_is_written_as_a_message_and_its_html(tmp_path: Path) -> None:
    """Without KIND, each kind is written as an .eml that parses (with an HTML part where the
    kind has one, the same as the .html beside it); nothing needs a config or database."""
    result = CliRunner().invoke(main, ["mail", "preview", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for kind in email_kinds():
        msg = message_from_bytes((tmp_path / f"{kind}.eml").read_bytes(), policy=policy.default)
        assert msg["Subject"] and msg.get_body(("plain",)) is not None
        html = msg.get_body(("html",))
        assert (html is not None) == has_html(kind) == (tmp_path / f"{kind}.html").exists()
        if html is not None:  # the same page, its pictures' sources aside (files beside it)
            page = (tmp_path / f"{kind}.html").read_text("utf-8")
            assert _sourceless(html.get_content()) == _sourceless(page)


def test_one_kind_alone_and_an_unknown_kind_refused(tmp_path: Path) -> None:
    """With KIND only that kind is written; a kind pbm has not is refused, naming the kinds."""
    one = tmp_path / "one"
    result = CliRunner().invoke(main, ["mail", "preview", "turn-report", "--out", str(one)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in one.iterdir()) == ["turn-report.eml", "turn-report.html"]
    bad = CliRunner().invoke(main, ["mail", "preview", "nope", "--out", str(tmp_path / "x")])
    assert bad.exit_code != 0 and "turn-report" in bad.output
    assert not (tmp_path / "x").exists()
