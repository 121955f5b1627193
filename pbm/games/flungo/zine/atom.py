"""The archive's Atom feed (RFC 4287): one entry per issue, ids as ``tag:`` URIs, links
relative to the feed (so the feed works wherever the archive is served), text escaped."""

from __future__ import annotations

from collections.abc import Sequence

from pbm.games.flungo.zine.model import MASTHEAD, Issue, slug
from pbm.outbound.render.env import environment

__all__ = ["atom_feed"]

FEED_ID = "tag:pbm.flungo,2026:zine"


def atom_feed(issues: Sequence[Issue], base: str = "") -> str:
    """The feed of ``issues`` (oldest first; readers sort by ``updated``). An issue with no
    date of its own (the demo's first) takes the earliest date the feed knows, so no entry
    claims 1 January 2000 while others are dated."""
    known = [i.updated for i in issues if i.updated]
    last = min(known) if known else "2000-01-01T00:00:00Z"
    dates = []
    for i in issues:
        last = i.updated or last
        dates.append(last)
    entries = [
        {
            "title": i.title,
            "id": f"{FEED_ID}:{slug(i.code)}:{i.number}",
            "href": i.href,
            "pdf_href": i.pdf_href,
            "updated": updated,
            "summary": f"{i.stage}. " + " ".join(m.headline + "." for m in i.matches),
        }
        for i, updated in zip(issues, dates, strict=True)
    ]
    updated = max((e["updated"] for e in entries), default="2000-01-01T00:00:00Z")
    return (
        environment()
        .get_template("zine/atom.xml")
        .render(masthead=MASTHEAD, feed_id=FEED_ID, base=base, updated=updated, entries=entries)
    )
