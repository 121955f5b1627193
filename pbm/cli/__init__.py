"""The ``pbm`` command line (click). Each area registers its commands from its own module."""

from __future__ import annotations

import importlib

import click

from pbm import __version__
from pbm.cli._edge import PbmGroup, guard_tree

# Each entry: module under pbm.cli that defines a click command or group called ``command``.
# Keeping them separate lets the areas grow without touching one shared file.
_COMMAND_MODULES = (
    "sim",
    "orders",
    "h6",
    "decks",
    "server",
    "gm",
    "db",
    "retention",
    "secrets",
    "mail_cmds",
    "zine",
    "ops",
)


@click.group(cls=PbmGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbm")
def main() -> None:
    """pbm: play-by-mail games by email (Cosmic Celebrity Cricket and Hit for Six)."""


def _register() -> None:
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(f"pbm.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"pbm.cli.{name}":
                continue  # that area has no commands yet
            raise
        for cmd in getattr(module, "COMMANDS", ()):
            main.add_command(cmd)
    guard_tree(main)  # one edge for every command: the database checked, errors one line


_register()
