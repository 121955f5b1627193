"""A parent that has imported pbm once and forks a ``pbm serve`` per request.

On a loaded machine a fresh interpreter spends seconds importing pbm before it listens, which
would make restarts, not trials, the cost of the fault harness. Each child is still a process
of its own that runs ``pbm serve`` from its command line with its own config, database
connections (nothing is opened before the fork), threads and signals, and dies from a SIGKILL
like any other; only the imports are shared.

Protocol on stdin/stdout, one line each: ``<config>\\t<log file>`` in, the child's pid out.
The parent reaps its children, so a killed one does not linger as a zombie.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback


def _reap(_signum: int, _frame: object) -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _child(config: str, log: str) -> None:
    from pbm.cli import main as cli

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(fd, 2)
    os.close(fd)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    code = 1
    try:
        cli(["serve", "--config", config])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
    os._exit(code)


def main() -> None:
    """Import, then fork on each request line."""
    # The imports each child would otherwise pay for, and the order parser's tables.
    import pbm.cli.server
    from pbm.games.flungo.grammar import warm_order_parser

    warm_order_parser()
    del pbm
    signal.signal(signal.SIGCHLD, _reap)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    for line in sys.stdin:
        config, log = line.rstrip("\n").split("\t")
        pid = os.fork()
        if pid == 0:
            _child(config, log)
        sys.stdout.write(f"{pid}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
