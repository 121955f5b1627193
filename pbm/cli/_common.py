"""Shared bits of pbm's server-side commands: the --config option and friendly errors."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from pbm.cli._edge import Failure
from pbm.core.config import Config, load_config
from pbm.core.errors import ConfigError
from pbm.games import GAMES
from pbm.ops.logs import configure_logging

__all__ = ["DEFAULT_CONFIG", "config_option", "load", "problem"]

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_CONFIG = "pbm.toml"


def config_option(f: F) -> F:
    """``--config FILE`` (default ``$PBM_CONFIG`` or ``./pbm.toml``)."""
    return click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Config file (default: $PBM_CONFIG, else ./pbm.toml).",
    )(f)


def resolve(config_path: Path | None) -> Path:
    """The config file to use."""
    return config_path or Path(os.environ.get("PBM_CONFIG", DEFAULT_CONFIG))


def problem(path: Path, exc: ConfigError) -> str:
    """The message for a config that would not load; a missing file says where pbm looked."""
    text = f"{path}: {exc}"
    if not path.exists():
        text += (
            " (pbm reads --config FILE, else $PBM_CONFIG, else ./pbm.toml;"
            " config.example.toml documents every key)"
        )
    return text


def load(config_path: Path | None, *, logs: bool = True) -> Config:
    """Load the config or exit with a clear message naming the key."""
    path = resolve(config_path)
    try:
        config = load_config(path)
        for game in GAMES:  # what a game's section means is the game's to check
            game.check_config(config)
    except ConfigError as exc:
        raise Failure(problem(path, exc), os.EX_CONFIG) from exc
    if logs:
        configure_logging(
            config.logging.format, config.logging.level, config.secrets(), config.logging.file
        )
    return config
