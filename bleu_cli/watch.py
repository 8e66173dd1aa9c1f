"""A watch on a Dask scheduler: a check run every second on a thread of its own, whose first error stops the command.

Dask bounds the TCP connection to a scheduler, but neither the handshake that
follows it nor any request after it, and TCP's keepalive cannot tell a
stopped scheduler from a busy one: its kernel still answers for it. So a
scheduler frozen (``kill -STOP``, a machine swapping) would keep the command
waiting for ever, and so would a run whose every worker is gone: the tasks
wait for a worker. ``watched`` runs a check every second while its block
runs; the first error the check returns is raised in the block, in the main
thread, which SIGALRM wakes from any wait as Ctrl-C wakes it, and raised again
every second until the block ends: raised inside a ``__del__`` (a Dask client
collected then), it would be lost.
"""

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from .errors import CommandError

# Seconds between two checks.
CHECK_EVERY = 1.0

Check = Callable[[], CommandError | None]


class Verdict(BaseException):
    """The check's error on its way through the block: a BaseException, as KeyboardInterrupt, so that no library's
    ``except Exception`` swallows it."""


@contextmanager
def watched(check: Check) -> Iterator[None]:
    """The block, while a thread runs ``check`` every second: the first error it returns is raised in the block.

    Entered in the main thread, the only one that runs signal handlers. Here the first check, a second in, stops
    a wait of a minute:

    >>> import time
    >>> from bleu_cli.errors import NoScheduler
    >>> with watched(lambda: NoScheduler("tcp://127.0.0.1:8786", "no answer within 10 s")):
    ...     time.sleep(60)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bleu_cli.errors.NoScheduler: cannot reach the Dask scheduler at tcp://127.0.0.1:8786: no answer within 10 s; ...
    """
    watch = _Watch(check)
    previous = signal.signal(signal.SIGALRM, watch.interrupt)
    try:
        try:
            watch.start()
            yield
        finally:
            watch.stop()
    except Verdict as verdict:
        raise verdict.args[0] from None
    finally:
        signal.signal(signal.SIGALRM, previous)


class _Watch:
    """The thread of ``watched``, and the handler that raises its verdict in the main thread."""

    def __init__(self, check: Check) -> None:
        self._check = check
        self._verdict: CommandError | None = None
        self._main = threading.get_ident()
        self._stopped = threading.Event()
        # Held while the watch signals the main thread, so that no signal comes once ``stop`` has returned.
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="bleu-scratch watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop checking. The block has ended, so a verdict given from now on is not raised."""
        with self._lock:
            self._stopped.set()
        # A check waits at most for its own timeout; the thread is gone when the handler is restored.
        self._thread.join()

    def interrupt(self, signum: int, frame: FrameType | None) -> None:
        """The SIGALRM handler, in the main thread: raise the verdict, if there is one and the block still runs."""
        if self._verdict is not None and not self._stopped.is_set():
            raise Verdict(self._verdict)

    def _run(self) -> None:
        while not self._stopped.wait(CHECK_EVERY):
            verdict = self._verdict or self._check()
            if verdict is not None:
                with self._lock:
                    if not self._stopped.is_set():
                        self._verdict = verdict
                        signal.pthread_kill(self._main, signal.SIGALRM)
