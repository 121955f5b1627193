"""Test-only crash points. Never set ``PBM_TEST_CRASH_AT`` in production.

The SIGKILL tests start a real ``pbm`` process with ``PBM_TEST_CRASH_AT=<point>``; when the
process reaches that point it kills itself with SIGKILL, as a power cut would. Points:

* ``after-store``: the raw message is committed, its effects are not;
* ``before-commit``: the effects and the reply are written but not committed;
* ``after-commit``: the effects and the reply are committed, the reply is not sent;
* ``batch-before-commit``: several mails' effects and replies are written in one batch's
  transaction (:meth:`pbm.inbound.pipeline.Inbound.process_pending`, SQLite), none committed;
* ``after-send``: the reply was handed to the sender, the outbox row is not marked sent;
* ``spool-before-commit``: a pass read the spool's files, nothing of them is stored;
* ``spool-after-commit``: the spool's mail is committed, its files are not removed.

``PBM_TEST_FAIL_AT=<point>`` raises a plain bug instead (:func:`fail_point`), to show how the
CLI's edge meets an error nobody foresaw. Points: ``cli`` (a command, before it runs).
"""

from __future__ import annotations

import os
import signal

__all__ = ["crash_point", "fail_point"]

ENV = "PBM_TEST_CRASH_AT"
FAIL_ENV = "PBM_TEST_FAIL_AT"


def crash_point(name: str) -> None:
    """Die at once if the test asked to die here."""
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


class InjectedBug(RuntimeError):
    """The error :func:`fail_point` raises: stands for any bug nobody foresaw."""


def fail_point(name: str) -> None:
    """Raise :class:`InjectedBug` if the test asked to fail here."""
    if os.environ.get(FAIL_ENV) == name:
        raise InjectedBug(f"test fault at {name}")
