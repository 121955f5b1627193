"""A writer interrupted while it waits for its write turn (the second SIGTERM's SystemExit,
KeyboardInterrupt when pbm is embedded) leaves nothing behind in ``pbm.db.turns``: the turn
is never handed to the dead waiter, so the next writer (``Registry.stop()`` as the daemon
leaves) takes it at once instead of waiting its whole lock wait."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

import pytest

from pbm.db.turns import WriteTurns

#: An upper bound only: every wait ends as soon as its condition holds.
PATIENCE = 30.0


#: What the handler does first, on the main thread, before it raises (see the second test).
_first: list[Callable[[], None]] = []


def _second_sigterm(_signum: int, _frame: FrameType | None) -> None:
    while _first:
        _first.pop()()
    raise SystemExit(143)  # what the daemon's handler raises on a second signal


@pytest.fixture
def interrupt_main() -> Iterator[Callable[[], None]]:
    """Sends SIGUSR1 to the main thread, whose handler raises SystemExit as a second SIGTERM
    does (Lock.acquire is interrupted by a signal only in the main thread)."""
    assert threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGUSR1, _second_sigterm)
    main = threading.main_thread().ident
    assert main is not None
    try:
        yield lambda: signal.pthread_kill(main, signal.SIGUSR1)
    finally:
        signal.signal(signal.SIGUSR1, previous)
        _first.clear()


def _when(condition: Callable[[], bool], then: Callable[[], None]) -> threading.Thread:
    """Runs ``then`` on a thread of its own once ``condition`` holds."""
    ready = threading.Event()

    def run() -> None:
        while not condition():
            ready.wait(0.005)
        then()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_waiter_interrupted_in_the_queue_leaves_it(interrupt_main: Callable[[], None]) -> None:
    """The turn is held; the main thread queues for it and is interrupted there: once the
    holder gives the turn back, it is free, and the next writer takes it without waiting."""
    turns, holder, dead, nxt = WriteTurns(), object(), object(), object()
    assert turns.take(holder, 0)
    helper = _when(lambda: turns.waiting == 1, interrupt_main)
    with pytest.raises(SystemExit):
        turns.take(dead, PATIENCE)
    helper.join(PATIENCE)
    assert turns.waiting == 0
    turns.give_back(holder)
    assert turns.holder is None
    assert turns.take(nxt, 0)


def test_a_waiter_interrupted_as_the_turn_reaches_it_passes_it_on(
    interrupt_main: Callable[[], None],
) -> None:
    """The holder hands the turn to the queued main thread just as the interruption lands:
    the interrupted waiter passes the turn on (here: frees it), so the next writer takes it
    without waiting."""
    turns, holder, dead, nxt = WriteTurns(), object(), object(), object()
    assert turns.take(holder, 0)

    # The handler runs inside the waiter's wait: the holder's give_back hands the turn to
    # the waiter, and the SystemExit follows, before the waiter could know it had it.
    _first.append(lambda: turns.give_back(holder))
    helper = _when(lambda: turns.waiting == 1, interrupt_main)
    with pytest.raises(SystemExit):
        turns.take(dead, PATIENCE)
    helper.join(PATIENCE)
    assert turns.holder is None
    assert turns.take(nxt, 0)
