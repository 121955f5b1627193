"""The answer to HELP from an address that plays only Hit for Six."""

from __future__ import annotations

from typing import Any


def context() -> dict[str, Any]:
    """The made-up context: Hit for Six's commands and HELP, as HELP lists them."""
    rows = [
        ("AVERAGES", "AVERAGES <code> [NAME] <your name> [NUMBER <your number>]",
         "Hit for Six: post a finished Daily XI's code to The Averages"),
        ("CHALLENGE", "CHALLENGE <code>", "Hit for Six: a rival's deal, against their ghost"),
        ("DAILY", "DAILY [deck]", "Hit for Six: today's Daily XI, one deal shared by all"),
        ("DEAL", "DEAL [deck]", "Hit for Six: a random deal to play by reply"),
        ("HELP", "HELP", "this list of commands"),
        ("TEST", "TEST NEW [seats] [deck] [24h] | TEST JOIN <wire> | "
         "TEST [<wire>] [<ticket>] <answer>",
         "Hit for Six: Test by Post — open, join, or answer the over in play"),
    ]  # fmt: skip
    return {
        "commands": [{"word": w, "usage": u, "help": h, "gm": False} for w, u, h in rows],
        "competitions": [],
        "notes": [],
    }
