"""Benchmark of the whole table path: ``tablelight bench table [--presses N] [--json] [--async]``.

A key is pressed on the simulated board (the real firmware, over a pseudo-terminal); the
host receives it, Farlander's face turns it into a placement, the engine checks it, the
game store commits it to SQLite, and the new look goes back to the board. The figure is
the time from the press until the territory's LED changed, as ``p50_ms``, ``p99_ms`` and
``max_ms``, with the number of presses measured. ``--async`` measures the path ``tablelight play``
runs (:func:`measure_async`: one asyncio loop holds the table, the board session and the simulated
board); the default, the polling driver with the threaded board session that tools use.
``--while-thinking BOT`` measures that path while a search bot thinks on the same loop, beside the
figure with no bot thinking and the bot thinking each move whole (:func:`measure_beside`).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import threading
import time
from typing import Any

from tablelight.board.events import ConnectionChanged
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import InputMachine, load_layout
from tablelight.table.seats import bot_seed
from tablelight.table.service import Table
from tablelight.table.store import GameStore


def measure(presses: int = 200, pause: float = 0.03) -> dict[str, Any]:
    from tablelight.board.session import BoardSession
    from tablelight.sim.board import SimBoard

    layout = load_layout()
    times: list[float] = []
    with SimBoard.start(layout.id) as sim, tempfile.TemporaryDirectory() as folder:
        session = BoardSession.open(sim.port)
        try:
            with GameStore(os.path.join(folder, "bench.sqlite")) as store:
                seed = 0
                while len(times) < presses:
                    game = Farlander(2, seed=seed)
                    seed += 1
                    table = Table(game, ["human", "human"], board=session, store=store, poll_interval=0.001)
                    table.refresh()
                    keys = InputMachine(game, layout)
                    done = threading.Event()

                    def press_each_territory() -> None:
                        try:
                            for territory, info in enumerate(keys.reads.map.territories):
                                if len(times) >= presses:
                                    break
                                led = layout.leds_of(info.tile, info.edges)[0]
                                time.sleep(pause)
                                before = sim.pixels()[led]
                                start = time.perf_counter()
                                sim.press(keys.keys_for(territory)[0])
                                deadline = start + 2.0
                                while sim.pixels()[led] == before and time.perf_counter() < deadline:
                                    time.sleep(0.0002)
                                times.append((time.perf_counter() - start) * 1000)
                        finally:
                            done.set()

                    worker = threading.Thread(target=press_each_territory, daemon=True)
                    worker.start()
                    while not done.is_set():
                        table.step()
                    worker.join()
        finally:
            session.close()
    return figures(times)



def measure_async(presses: int = 200, pause: float = 0.03) -> dict[str, Any]:
    """:func:`measure` on one asyncio loop: ``AsyncBoardSession``, ``SimBoard.start_async``, ``TableLoop``."""
    return asyncio.run(_measure_async({NO_BOT: presses}, pause, ""))[NO_BOT]


#: The figures of :func:`measure_beside`: no bot thinking; a bot thinking in a process of its own
#: (the table's way on a host), in slices on the loop (its way in a browser), each move whole on the
#: loop (the way before).
NO_BOT, APART, SLICED, WHOLE = ("no bot thinking", "bot thinking in a process", "bot thinking in slices",
                                "bot thinking whole")
#: The longest a press may wait for its LED (a whole search holds the loop for seconds).
PRESS_DEADLINE_S = 15.0


def measure_beside(presses: int = 100, bot: str = "mcts-deep", pause: float = 0.03,
                   whole: bool = True) -> dict[str, dict[str, Any]]:
    """:func:`measure_async` while a bots-only Farlander table plays ``bot`` against itself on the
    same loop (its searches in a process, or in slices), beside the figure with no bot thinking, in
    one run (the modes take turns a game each, so a machine's load weighs on all alike). ``whole``:
    also the bot thinking each move at once on the loop, as the table did before."""
    modes = [NO_BOT, APART, SLICED] + ([WHOLE] if whole else [])
    return asyncio.run(_measure_async({mode: presses for mode in modes}, pause, bot))


async def _think_beside(mode: str, bot: str, seed: int, thinking: asyncio.Event) -> None:
    """A bots-only game of ``bot`` on the running loop, game after game, until cancelled.

    ``thinking`` is set once the bot has moved in the game under way (its worker, in a process, is
    up: presses are measured beside a search, not beside a worker importing the games) and cleared
    for each new game."""
    from tablelight.table import events as ev
    from tablelight.table.loop import TableLoop

    def moved(event: ev.Event) -> None:
        if isinstance(event, ev.ActionApplied) and not event.forced:
            thinking.set()

    while True:
        thinking.clear()
        game = Farlander(2, seed=seed)
        seed += 1
        if mode in (APART, SLICED):
            table = Table(game, [bot, bot])
            table.listen(moved)
            await TableLoop(table, bots_apart=mode == APART).run()
            continue
        while not game.is_over():  # the old way: each decision whole, holding the loop
            seat = game.current_seat()
            assert seat is not None
            game.apply(Farlander.make_bot(bot, bot_seed(game, seat)).choose(game))
            thinking.set()
            await asyncio.sleep(0)


async def _measure_async(wanted: dict[str, int], pause: float, bot: str) -> dict[str, dict[str, Any]]:
    from tablelight.board.aio import AsyncBoardSession
    from tablelight.sim.board import SimBoard
    from tablelight.table.loop import BoardPort, TableLoop

    layout = load_layout()
    times: dict[str, list[float]] = {mode: [] for mode in wanted}
    changed = asyncio.Event()
    sim = await SimBoard.start_async(layout.id)
    sim.on_pixels(lambda pixels: changed.set())
    session = await AsyncBoardSession.open(sim.port)
    lost = {mode: 0 for mode in wanted}  # times the board was taken for gone while each mode was measured
    measuring = [NO_BOT]

    def count_losses(event: object) -> None:
        if isinstance(event, ConnectionChanged) and not event.connected:
            lost[measuring[0]] += 1

    session.listen(count_losses)
    try:
        with tempfile.TemporaryDirectory() as folder, GameStore(os.path.join(folder, "bench.sqlite")) as store:
            seed = 0
            while any(len(times[mode]) < count for mode, count in wanted.items()):
                mode = [m for m, count in wanted.items() if len(times[m]) < count][seed % sum(
                    1 for m, count in wanted.items() if len(times[m]) < count)]
                measured = times[mode]
                measuring[0] = mode
                game = Farlander(2, seed=seed)
                seed += 1
                table = Table(game, ["human", "human"], board_attached=True, store=store)
                driver = TableLoop(table)
                port = BoardPort(driver, session)
                runner = asyncio.ensure_future(driver.run())
                beside_thinks = asyncio.Event()
                beside = None
                if mode != NO_BOT:
                    beside = asyncio.ensure_future(_think_beside(mode, bot, 1000 + seed, beside_thinks))
                keys = InputMachine(game, layout)
                for territory, info in enumerate(keys.reads.map.territories):
                    if len(measured) >= wanted[mode]:
                        break
                    led = layout.leds_of(info.tile, info.edges)[0]
                    await asyncio.sleep(pause)
                    if beside is not None:
                        await asyncio.wait_for(beside_thinks.wait(), PRESS_DEADLINE_S)  # (a new game's worker starting)
                    before = sim.pixels()[led]
                    start = time.perf_counter()
                    sim.press(keys.keys_for(territory)[0])
                    deadline = start + PRESS_DEADLINE_S
                    while sim.pixels()[led] == before and time.perf_counter() < deadline:
                        changed.clear()
                        try:
                            await asyncio.wait_for(changed.wait(), deadline - time.perf_counter())
                        except asyncio.TimeoutError:
                            break
                    measured.append((time.perf_counter() - start) * 1000)
                for task in (runner, beside):
                    if task is not None:
                        task.cancel()
                port.detach()
    finally:
        await session.close()
        sim.stop()
    return {mode: {**figures(found), "board_lost": lost[mode]} for mode, found in times.items()}


def figures(times: list[float]) -> dict[str, Any]:
    """The presses measured, and their p50, p99 and longest time in ms."""
    times = sorted(times)
    return {
        "presses": len(times),
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(times[max(0, int(len(times) * 0.99) - 1)], 2),
        "max_ms": round(times[-1], 2),
    }
