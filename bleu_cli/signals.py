"""Ctrl-C and SIGTERM: both commands stop with status 130 or 143, print nothing more and leave no process behind.

``stoppable`` runs a command with the handlers of ``Signals`` in place from
its first import of the lessons to its exit status. The handler unwinds the
run by raising KeyboardInterrupt (Ctrl-C) or ``Terminated`` (SIGTERM) where
the main thread is, and a library may catch that there: some turn it into an
error of their own (Dask waiting on its cluster), and Python only prints an
exception raised inside a ctypes callback (numba's compiler calls one) and
goes on. So the run remembers the signal, the command calls ``check_signals`` before
it prints or goes on to the next shard, and a signal a library kept is raised
again there.
"""

import logging
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType, TracebackType
from typing import Any


class Terminated(BaseException):
    """SIGTERM arrived: unwind as Ctrl-C does, stopping what was started."""


class Signals:
    """Ctrl-C and SIGTERM during one run: the first one received unwinds the run; the handlers before are restored.

    >>> with Signals() as signals:
    ...     signals.check()  # no signal yet: nothing happens
    ...     signals.received is None
    True
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict[int, Any] = {}
        self._previous_hook = sys.unraisablehook

    def __enter__(self) -> "Signals":
        self._previous = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
        self._previous_hook = sys.unraisablehook
        sys.unraisablehook = self._unraisable
        try:
            for number in self._previous:
                signal.signal(number, self._stop)
        except BaseException:  # a signal as the handlers go in: what was there before goes back
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, kind: type | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        # Each restored even if a signal comes midway; SIGINT's last, as Python's handler for it raises.
        sys.unraisablehook = self._previous_hook
        try:
            signal.signal(signal.SIGTERM, self._previous[signal.SIGTERM])
        finally:
            signal.signal(signal.SIGINT, self._previous[signal.SIGINT])
        if self.received is not None:
            # Stopped, the command says nothing more. A Dask client the signal cut off as it connected was never
            # handed back to be closed: its thread logs a failed reconnection as the process ends.
            logging.disable(logging.CRITICAL)

    def check(self) -> None:
        """Raise the signal received again, if a library caught it and went on."""
        if self.received is not None:
            raise KeyboardInterrupt if self.received == signal.SIGINT else Terminated

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        """The handler: note the signal, ignore any next one, and unwind."""
        # Once is enough: a second signal must not cut the clean-up short.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.received = signum
        self.check()

    def _unraisable(self, unraisable: Any) -> None:
        """Python's report of an exception it could not raise: the signal's, once received, is not an error."""
        if self.received is None or not isinstance(unraisable.exc_value, (KeyboardInterrupt, Terminated)):
            self._previous_hook(unraisable)


def stoppable(command: Callable[[Sequence[str], Callable[[], None]], int], argv: Sequence[str]) -> int:
    """``command(argv, check_signals)``'s exit status, or 128 + the signal's number once Ctrl-C or SIGTERM has
    stopped it.

    >>> stoppable(lambda argv, check_signals: len(argv), ["hyp.txt", "ref.txt"])
    2
    """
    signals = Signals()
    try:
        with signals:
            status = command(argv, signals.check)
    except BaseException:
        # Whatever the signal became on its way out (the signal itself or a library's own error), and even when it
        # came as the handlers were being put in place, it stopped the command.
        if signals.received is None:
            raise
    if signals.received is None:
        return status
    # A KeyboardInterrupt that left an exec() of a string (scipy runs one as numba imports it) marks CPython as
    # ended by Ctrl-C, and ``python -m`` would then end itself by SIGINT, whatever the status returned. An exec()
    # of a string that succeeds clears the mark.
    exec("")
    return 128 + signals.received
