"""The bots' worker process: a dropped search is abandoned in the worker, which stays alive for the
next search (a new process costs the games' imports), and an answer to a dropped search is never
applied. The tests wait for answers (with a deadline), never for a time."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from tablelight.core.game import Action
from tablelight.games.farlander.engine import Farlander
from tablelight.table.bot_process import WORKER_NICENESS, BotProcess
from tablelight.table.seats import bot_seed

#: A search of minutes: if the worker did not abandon it, the next answer would not come in time.
ENDLESS_SEARCH = "mcts:100000"
QUICK_SEARCH = "mcts:4"
ANSWER_DEADLINE_S = 60.0


def _positions() -> tuple[Farlander, Farlander]:
    """Two positions of one game: the first, and the one after a move (the game moved on)."""
    first = Farlander(2, seed=5)
    later = Farlander(2, seed=5)
    later.apply(later.legal_actions()[-1])
    return first, later


def _fresh_choice(game: Farlander, name: str) -> Any:
    seat = game.current_seat()
    assert seat is not None
    return Farlander.make_bot(name, bot_seed(game, seat)).choose(game)


async def _answer(decided: asyncio.Event, job: Any, what: str) -> None:
    try:
        await asyncio.wait_for(decided.wait(), ANSWER_DEADLINE_S)
    except asyncio.TimeoutError:
        raise AssertionError(f"no answer from the worker to {what} within {ANSWER_DEADLINE_S} s") from None
    decided.clear()
    assert job.decided, f"the worker woke the table, but {what} has no answer"


def _think(bots: BotProcess, name: str, game: Farlander) -> Any:
    seat = game.current_seat()
    assert seat is not None
    return bots.thinking(name, game, seat, bot_seed(game, seat))


def test_a_dropped_search_is_abandoned_by_a_worker_that_stays_alive() -> None:
    first, later = _positions()

    async def scenario() -> tuple[int | None, int | None, Any, Any]:
        decided = asyncio.Event()
        bots = BotProcess(on_decided=decided.set)
        try:
            warm = _think(bots, QUICK_SEARCH, first)  # the worker is up (imports done) once it answers
            await _answer(decided, warm, "the first search")
            pid_before = bots.pid
            endless = _think(bots, ENDLESS_SEARCH, first)
            endless.drop()  # the game moved on
            fresh = _think(bots, QUICK_SEARCH, later)
            await _answer(decided, fresh, "the search after the dropped one (was the dropped one abandoned?)")
            return pid_before, bots.pid, endless, fresh
        finally:
            bots.close()

    pid_before, pid_after, endless, fresh = asyncio.run(scenario())
    assert pid_before is not None and pid_after == pid_before, "a new worker process was started"
    assert not endless.decided and endless.action is None
    assert Action.parse(fresh.action, "answer") == Action.parse(_fresh_choice(later, QUICK_SEARCH), "choice")


def test_the_answer_to_a_search_the_game_moved_on_from_is_never_applied() -> None:
    """A quick search whose answer is on its way when the game moves on: the next search's job is
    sent at once, and only its answer is taken."""
    first, later = _positions()

    async def scenario() -> tuple[Any, Any, int | None, int | None]:
        decided = asyncio.Event()
        bots = BotProcess(on_decided=decided.set)
        try:
            warm = _think(bots, QUICK_SEARCH, later)
            await _answer(decided, warm, "the first search")
            pid_before = bots.pid
            stale = _think(bots, QUICK_SEARCH, first)  # answered in milliseconds by the idle worker
            fresh = _think(bots, QUICK_SEARCH, later)  # drops the one before
            await _answer(decided, fresh, "the search after the dropped one")
            return stale, fresh, pid_before, bots.pid
        finally:
            bots.close()

    stale, fresh, pid_before, pid_after = asyncio.run(scenario())
    assert pid_after == pid_before, "a new worker process was started"
    assert not stale.decided and stale.action is None
    expected = Action.parse(_fresh_choice(later, QUICK_SEARCH), "choice")
    assert Action.parse(fresh.action, "answer") == expected
    assert expected != Action.parse(_fresh_choice(first, QUICK_SEARCH), "choice"), "pick positions whose choices differ"


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no niceness on this system")
def test_the_worker_is_niced_from_its_start_and_stays_so() -> None:
    """The worker yields the CPU to the table from the moment it starts (before, it niced itself only
    once its imports were done: its start competed with the table as an equal), and only once."""
    wanted = min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS)
    first, _ = _positions()

    async def scenario() -> tuple[int, int]:
        decided = asyncio.Event()
        bots = BotProcess(on_decided=decided.set)
        try:
            assert bots.start() and bots.pid is not None
            at_start = os.getpriority(os.PRIO_PROCESS, bots.pid)  # the worker is still starting
            job = _think(bots, QUICK_SEARCH, first)
            await _answer(decided, job, "a search")
            return at_start, os.getpriority(os.PRIO_PROCESS, bots.pid)
        finally:
            bots.close()

    at_start, after_a_search = asyncio.run(scenario())
    assert at_start == wanted, "the worker started at the table's own priority"
    assert after_a_search == wanted
