"""A seat's standing text is read once and kept, but never kept across a change of squad; and
an acknowledgement need not read it at all."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.flungo.orders import Orders
from pbm.app import App
from pbm.db.models import OrdersVersion
from pbm.db.session import transaction
from pbm.games.flungo.defaults import will_play
from pbm.games.flungo.standing import merge_mail, read_standing, without_naming
from tests.engine.orders.squad import fixture_team
from tests.engine.orders.test_email_examples import EMAILS

#: Standing orders the corpus mails are merged onto (so a mail's parts replace some of them).
STANDING = "toss: bat\ncaptain: Joe Root\nbowling: Jimmy Anderson overs 1, 3, 5\n"


def test_a_standing_text_is_read_once_per_squad(app: App) -> None:
    """The same text, squad and format give the very same reading, kept by the App; renaming
    a player gives a new reading, in which the old name is no longer a squad member."""
    team = fixture_team()
    text = "captain: Joe Root"
    with transaction(app.sessions) as s:
        first = read_standing(text, team, "50", s)
        assert first.errors == () and first.orders.match is not None
    with transaction(app.sessions) as s:
        assert read_standing(text, team, "50", s) is first
        players = tuple(
            replace(p, name="Jo Rooted") if p.name == "Joe Root" else p for p in team.players
        )
        renamed = read_standing(text, replace(team, players=players), "50", s)
    assert renamed is not first and renamed.errors != ()
    assert read_standing(text, team, "50") == first  # without an App: the same, read afresh


#: The corpus mails read against a named squad (a naming mail changes the squad, and its
#: reply reads the stored text again against the new names).
MATCH_EMAILS = [e for e in EMAILS if e["squad"] != "placeholders"]


@pytest.mark.parametrize("email", MATCH_EMAILS, ids=[e["name"] for e in MATCH_EMAILS])
def test_an_acknowledgement_plays_what_the_stored_text_reads_as(email: dict[str, Any]) -> None:
    """The acknowledgement's "what pbm will play" is worked out from the orders just merged,
    not from the stored text read again: for every corpus mail, merged onto standing orders,
    the two are the same (so the reply shows what the freeze will read)."""
    team = fixture_team()
    fmt = email["format"]
    assert read_standing(STANDING, team, fmt).errors == ()
    standing = OrdersVersion(version=1, text=STANDING)
    got = merge_mail(email["text"], team, team, fmt, standing)
    stored = read_standing(got.standing, team, fmt)
    assert stored.errors == ()
    read = stored.orders if got.standing.strip() else None
    merged = without_naming(got.merged.orders)
    assert will_play(team, merged if merged != Orders() else None, fmt) == will_play(
        team, read, fmt
    )
