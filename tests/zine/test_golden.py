"""A golden issue kept for human review: the plain-text part of the demo league's fifth issue
(round 1's last turn: two finished matches, the table, figures and revealed seeds).

Read ``golden/lg1-issue-5.txt`` as a player would. When the zine changes on purpose,
regenerate it with ``ZINE_GOLDEN=1 .venv/bin/python -m pytest tests/zine/test_golden.py``
and read the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

from pbm.games.flungo.zine.model import build_issue
from pbm.games.flungo.zine.render import issue_text
from pbm.games.flungo.zine.source import TurnReport

GOLDEN = Path(__file__).parent / "golden" / "lg1-issue-5.txt"


def test_golden_issue(league: list[TurnReport]) -> None:
    """The text of the golden issue is exactly the reviewed one."""
    text = issue_text(build_issue(league[4], league[:4], code="LG1"))
    if os.environ.get("ZINE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
