"""The dispatcher's pure decision, as a table: what a mail wants from its command lines."""

from __future__ import annotations

import pytest

from pbm.inbound.commands import Audience, registry
from pbm.inbound.dispatch import Ignore, NotUnderstood, Run, decide
from pbm.inbound.intake import Incoming, read_incoming
from pbm.testing import make_eml


def _msg(body: str, subject: str = "[DEMO] x") -> Incoming:
    return read_incoming(
        make_eml(body, subject=subject), "pbm@example.test", known_codes=frozenset({"DEMO"})
    )


@pytest.mark.parametrize(
    ("body", "game", "want"),
    [
        ("JOIN\n", "flungo", "JOIN"),
        ("HELP\n", None, "HELP"),
        ("JOIN\n", None, "no game code"),
        ("NAME 1 Zippy\n", "flungo", None),  # no command word: the game's orders
        ("HELP\nJOIN\n", "flungo", "JOIN"),  # the higher priority wins
        ("hello\n", None, "no game code"),
    ],
)
def test_decide_table(body: str, game: str | None, want: str | None) -> None:
    """Each mail goes to the command its lines name, or to the game's orders, or nowhere."""
    decision = decide(_msg(body), game)
    if want is not None and want.islower():
        assert isinstance(decision, NotUnderstood) and decision.note == want
        return
    assert isinstance(decision, Run)
    [(cmd, _line)] = decision.steps
    assert (cmd.word if cmd else None) == want


def test_gm_commands_all_run_in_line_order() -> None:
    """A GM's mail runs every GM command in it, in order, and is marked as the GM's."""
    decision = decide(_msg("DIGEST\nNEWGAME X t20 4 2026-02-01 Cup\n", subject="x"), None)
    assert isinstance(decision, Run) and decision.gm
    assert [c.word for c, _ in decision.steps if c] == ["DIGEST", "NEWGAME"]
    assert decision.steps[1][1].rest == "X t20 4 2026-02-01 Cup"


def test_robots_and_bounces_are_never_answered() -> None:
    """Automatic mail is ignored, a delivery report among it: the decision never answers one
    (the pipeline records a report before it decides, from the mail's one understanding)."""
    auto = read_incoming(
        make_eml("JOIN\n", subject="[DEMO] x", headers={"Auto-Submitted": "auto-replied"}),
        "pbm@example.test",
    )
    assert isinstance(decide(auto, "flungo"), Ignore)
    report = Incoming(None, (), "a@b", "", "", None, (), None, True, "report", ("x@y",))
    assert isinstance(decide(report, None), Ignore)


def test_every_command_has_help_and_an_audience() -> None:
    """Every registered command says what it does and who may send it."""
    for cmd in registry().values():
        assert cmd.help and cmd.usage.startswith(cmd.word)
        assert isinstance(cmd.audience, Audience)


def test_a_players_drop_is_not_the_gms_drop() -> None:
    """From a player, "drop 0, 1" under a TEST line is Hit for Six's window, not the GM's
    DROP; the GM's own mail still runs its GM commands; a stranger's GM word alone is the
    GM's (and is refused for want of the GM's address and secret)."""
    body = "TEST ABC234\ndrop 0, 1; name\n"
    player = decide(_msg(body, subject="x"), None, gm_address="gm@example.test")
    assert isinstance(player, Run) and not player.gm
    assert [c.word for c, _ in player.steps if c] == ["TEST"]
    alone = decide(_msg("NEWGAME X t20 4 2026-02-01 Cup\n", subject="x"), None, gm_address="gm@x")
    assert isinstance(alone, Run) and alone.gm
    gm_mail = read_incoming(
        make_eml("DIGEST\nHELP\n", subject="x", sender="gm@example.test"), "pbm@example.test"
    )
    gm = decide(gm_mail, None, gm_address="gm@example.test")
    assert isinstance(gm, Run) and gm.gm
