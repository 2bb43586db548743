"""A search bot's thinking in a process of its own, so the table's loop never waits for it.

Thinking in slices on the loop (:class:`~tablelight.core.bots.Thinking`) keeps the loop turning,
but every turn of it then waits for a slice: a key press crosses the loop a dozen times on its
way to the LEDs (`tablelight bench table --while-thinking`: p50 from 6 to about 50 ms). So where
there are processes (CPython; not Pyodide, where the table thinks in slices), a search bot's
decision goes to one worker process: the position pickled down a pipe with the bot's name and
seed, the action back. The loop watches the pipe's end (``add_reader``: no thread) and wakes the
table when the answer is in. One job at a time (a table has one bot to move at a time). A job the
game moved on from is dropped: the worker is told, abandons that search at its next look at the
pipe (every few milliseconds of searching) and waits for the next job; an answer that still comes
for a dropped job is known by its number and never applied. The worker lives as long as the
table's loop runs (starting one costs the games' imports, about a second on a busy machine). If
the worker dies, the search goes on in slices, here.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from tablelight.core.bots import Position, Steps, Thinking
from tablelight.core.game import Action, Game

log = logging.getLogger(__name__)


def processes_available() -> bool:
    """Whether this interpreter can run a bot in a process of its own (Pyodide cannot)."""
    return sys.platform not in ("emscripten", "wasi")


#: The worker's niceness: on a busy machine the table's loop and the board go first (they answer
#: people within milliseconds; a search only has to end within its budget).
WORKER_NICENESS = 10


#: What goes down the pipe: a job ``(JOB, number, pickled game, bot name, seed)`` or ``(DROP, number)``;
#: what comes back: ``(number, action, error)``.
JOB, DROP = "job", "drop"
#: How often a searching worker looks at its pipe for a drop or a newer job.
LOOK_EVERY_S = 0.005


def worker_niceness() -> int:
    """The niceness a worker gets: this process's plus :data:`WORKER_NICENESS` (at most 19)."""
    return min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS) if hasattr(os, "getpriority") else 0


def _set_niceness(pid: int, niceness: int) -> None:
    """Give process ``pid`` (0: this one) ``niceness``, where the system has niceness."""
    if hasattr(os, "setpriority"):
        try:
            os.setpriority(os.PRIO_PROCESS, pid, niceness)
        except OSError:
            pass


def _serve(conn: Connection, niceness: int) -> None:
    """The worker: decide each job it is sent, until the pipe closes; a job dropped or followed by
    another is abandoned mid-search."""
    _set_niceness(0, niceness)  # (the table's process set it already, unless it could not)
    message: Any = None
    while True:
        if message is None:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return
        if message[0] != JOB:  # a drop of a job that is over already
            message = None
            continue
        _, number, data, name, seed = message
        message = None
        try:
            game = pickle.loads(data)
            bot = type(game).make_bot(name, seed)
            if not hasattr(bot, "steps"):
                conn.send((number, bot.choose(game), None))
                continue
            action, message = _search(conn, bot.steps(game), number)
        except (EOFError, OSError):
            return  # the table is gone
        except Exception as error:  # the table goes on thinking in slices; it says why in the log
            conn.send((number, None, f"{type(error).__name__}: {error}"))
            continue
        if message is None:
            conn.send((number, action, None))


def _search(conn: Connection, steps: Steps, number: int) -> tuple[Any, Any]:
    """Run ``steps`` (job ``number``), looking at the pipe every :data:`LOOK_EVERY_S`: the action and
    None, or None and the message that ended the search (its drop, or the next job)."""
    look_at = time.monotonic() + LOOK_EVERY_S
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value, None
        if time.monotonic() < look_at:
            continue
        look_at = time.monotonic() + LOOK_EVERY_S
        while conn.poll():
            message = conn.recv()
            if message[0] == JOB or message[1] == number:
                steps.close()
                return None, message
            # (a drop of an earlier job, over already: this search goes on)


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
        niceness = worker_niceness()
        process = context.Process(target=_serve, args=(theirs, niceness), name="tablelight-bot", daemon=True)
        try:
            process.start()
        except Exception as error:  # (a main script run again by spawn, no processes left...)
            mine.close()
            raise OSError(f"its process did not start: {error}") from error
        finally:
            theirs.close()
        # At once, not when the worker gets to it: its start (an interpreter and the games' imports,
        # about a second on a busy machine) would otherwise compete with the table as an equal.
        if process.pid is not None:
            _set_niceness(process.pid, niceness)
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
            self._conn.send((JOB, job.job, pickle.dumps(game), name, seed))  # the pipe has room: no block
        except (OSError, EOFError, pickle.PicklingError) as error:
            log.warning("bot %s cannot think in a process (%s): it thinks here", name, error)
            self.close()
            job.fail_over()
        return job

    def drop(self, job: ApartThinking) -> None:
        """The game moved on from ``job``: its answer is never applied, and the worker abandons it."""
        if job is self._current and not job.decided:
            self._current = None
            if self._conn is not None and not job.here:  # (a job thinking here has nothing in the worker)
                try:
                    self._conn.send((DROP, job.job))
                except (OSError, EOFError):
                    self.close()

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs."""
        return None if self._process is None else self._process.pid

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
        """Stop the worker (a search under way in it is lost). It is not waited for: the loop goes on
        at once, and multiprocessing reaps it (at the next worker's start, or at exit)."""
        conn, process = self._conn, self._process
        self._conn = self._process = None
        if conn is not None:
            if self._loop is not None:
                self._loop.remove_reader(conn.fileno())
            conn.close()
        if process is not None:
            process.terminate()
