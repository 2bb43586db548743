"""A search bot's thinking in a process of its own, so the table's loop never waits for it.

Thinking in slices on the loop (:class:`~tablelight.core.bots.Thinking`) keeps the loop turning,
but every turn of it then waits for a slice: a key press crosses the loop a dozen times on its
way to the LEDs (`tablelight bench table --while-thinking`: p50 from 6 to about 50 ms). So where
there are processes (CPython; not Pyodide, where the table thinks in slices), a search bot's
decision goes to one worker process: the position pickled down a pipe with the bot's name and
seed, the action back. The loop watches the pipe's end (``add_reader``: no thread) and wakes the
table when the answer is in. One job at a time (a table has one bot to move at a time); a job the
game moved on from is dropped: the worker is stopped (its CPU is the table's) and a new one starts
for the next search. If the worker dies, the search goes on in slices, here.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from tablelight.core.bots import Position, Thinking
from tablelight.core.game import Action, Game

log = logging.getLogger(__name__)


def processes_available() -> bool:
    """Whether this interpreter can run a bot in a process of its own (Pyodide cannot)."""
    return sys.platform not in ("emscripten", "wasi")


#: The worker's niceness: on a busy machine the table's loop and the board go first (they answer
#: people within milliseconds; a search only has to end within its budget).
WORKER_NICENESS = 10


def _serve(conn: Connection) -> None:
    """The worker: decide each job it is sent, until the pipe closes."""
    if hasattr(os, "nice"):
        try:
            os.nice(WORKER_NICENESS)
        except OSError:
            pass
    while True:
        try:
            job, data, name, seed = conn.recv()
        except (EOFError, OSError):
            return
        try:
            game = pickle.loads(data)
            conn.send((job, type(game).make_bot(name, seed).choose(game), None))
        except Exception as error:  # the table goes on thinking in slices; it says why in the log
            conn.send((job, None, f"{type(error).__name__}: {error}"))


class ApartThinking:
    """One decision in the worker; the same face as :class:`~tablelight.core.bots.Thinking`."""

    #: The table need not tick for this thinking: the worker's answer wakes it.
    here = False

    def __init__(self, owner: BotProcess, job: int, name: str, game: Game, seat: int, seed: int) -> None:
        self.job = job
        self.seat = seat
        self._owner = owner
        self._name, self._seed = name, seed
        self._position = Position(game)
        self._game = game
        self._fallback: Thinking | None = None
        self.action: Action | Any = None
        self.decided = False

    def is_for(self, game: Game, seat: int) -> bool:
        return self._position.is_now(game) and seat == self.seat

    def run(self, seconds: float) -> bool:
        if self._fallback is not None:
            self.here = True
            if self._fallback.run(seconds):
                self.action, self.decided = self._fallback.action, True
        return self.decided

    def drop(self) -> None:
        self._owner.drop(self)

    def answered(self, action: Any, error: str | None) -> None:
        if error is None:
            self.action, self.decided = action, True
            return
        log.warning("bot %s failed in its process (%s): it thinks here instead", self._name, error)
        self.fail_over()

    def fail_over(self) -> None:
        """Think here, in slices, from now on."""
        self._fallback = Thinking(type(self._game).make_bot(self._name, self._seed), self._game, self.seat)
        self.here = True


class BotProcess:
    """The worker process of one table loop; ``on_decided`` wakes the loop's table."""

    def __init__(self, on_decided: Callable[[], None]) -> None:
        self._on_decided = on_decided
        self._process: Any = None
        self._conn: Connection | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._current: ApartThinking | None = None
        self._jobs = 0
        #: The worker could not start: search bots think here, in slices.
        self.broken = False

    def start(self) -> bool:
        """Start the worker (it imports the games for a while: better before the first search);
        False when it cannot start (search bots then think here, in slices; the log says why)."""
        if self._process is not None:
            return True
        if self.broken:
            return False
        try:
            self._start()
        except OSError as error:
            log.warning("search bots cannot think in a process (%s): they think here", error)
            self.broken = True
        return not self.broken

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # fork is unsafe beside the loop's other threads
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), name="tablelight-bot", daemon=True)
        try:
            process.start()
        except Exception as error:  # (a main script run again by spawn, no processes left...)
            mine.close()
            raise OSError(f"its process did not start: {error}") from error
        finally:
            theirs.close()
        self._process = process
        self._conn = mine
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(mine.fileno(), self._readable)

    def thinking(self, name: str, game: Game, seat: int, seed: int) -> ApartThinking:
        """Send the decision of bot ``name`` (seeded ``seed``) for ``seat`` at ``game`` to the worker."""
        if self._current is not None:
            self.drop(self._current)
        self._jobs += 1
        job = ApartThinking(self, self._jobs, name, game, seat, seed)
        self._current = job
        if not self.start():
            job.fail_over()
            return job
        try:
            assert self._conn is not None
            self._conn.send((job.job, pickle.dumps(game), name, seed))  # the worker waits in recv: no block
        except (OSError, EOFError, pickle.PicklingError) as error:
            log.warning("bot %s cannot think in a process (%s): it thinks here", name, error)
            self.close()
            job.fail_over()
        return job

    def drop(self, job: ApartThinking) -> None:
        """The game moved on from ``job``: its answer is never applied, and the worker stops working on it."""
        if job is self._current and not job.decided:
            self._current = None
            self.close()  # stopped mid-search; the next search starts a new worker

    def _readable(self) -> None:
        assert self._conn is not None
        try:
            while self._conn.poll():
                number, action, error = self._conn.recv()
                current = self._current
                if current is not None and current.job == number:
                    self._current = None
                    current.answered(action, error)
                    self._on_decided()
        except (EOFError, OSError):
            current, self._current = self._current, None
            self.close()
            if current is not None and not current.decided:
                current.fail_over()
                self._on_decided()

    def close(self) -> None:
        """Stop the worker (a search under way in it is lost)."""
        conn, process = self._conn, self._process
        self._conn = self._process = None
        if conn is not None:
            if self._loop is not None:
                self._loop.remove_reader(conn.fileno())
            conn.close()
        if process is not None:
            process.terminate()
            process.join(1.0)
