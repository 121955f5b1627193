"""``pbm --help`` and every subcommand's ``--help`` explain each command and option."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from pbm.cli import main


def _commands(cmd: click.Command, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    if isinstance(cmd, click.Group):
        for name, sub in cmd.commands.items():
            found += _commands(sub, (*path, name))
    return found


PATHS = _commands(main)


def test_the_main_commands_are_all_there() -> None:
    """The daemon's and the games' commands are all attached to ``pbm``."""
    tops = {p[0] for p in PATHS if len(p) == 1}
    assert {"serve", "run", "ingest", "check-config", "db", "gm", "mail", "h6", "decks"} <= tops


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "pbm")
def test_every_command_and_option_has_help(path: tuple[str, ...]) -> None:
    """Each command has a description and each visible option a help text in its --help."""
    cmd: click.Command = main
    for name in path:
        assert isinstance(cmd, click.Group)
        cmd = cmd.commands[name]
    assert cmd.help, f"pbm {' '.join(path)} has no description"
    bare = [
        p.opts
        for p in cmd.params
        if isinstance(p, click.Option) and not p.hidden and not p.help and p.name != "help"
    ]
    assert bare == []
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output
