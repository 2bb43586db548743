"""Link latency benchmark: a key press on the simulated board to the LED bytes written.

The whole path is real: fake keypad -> the firmware's code.py loop -> KEY frame over a pty ->
BoardSession (pyserial) -> the host answers with a move (a territory changes owner, the turn
passes) -> DELTA frame over the pty -> the firmware renders -> Adafruit's neopixel library ->
the fake neopixel_write, whose timestamp (CLOCK_MONOTONIC, shared by both processes) ends the
measurement. ``asynchronous``: the same through AsyncBoardSession and SimBoard.start_async on one
event loop (what ``tablelight play`` runs), the move shown from the key event's listener.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from typing import Any

from tablelight.board.aio import AsyncBoardSession, SessionEvent
from tablelight.board.session import BoardSession, KeyEvent
from tablelight.sim.board import SimBoard

SEATS = [(255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (255, 255, 0, 0)]
OFF = (0, 0, 0, 0)
TURN_LEDS = 49  # 49..52: whose turn (the Farlander layout)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def _lit_channels(grb: bytes, led: int) -> tuple[bool, bool, bool]:
    g, r, b = grb[3 * led:3 * led + 3]
    return r > 0, g > 0, b > 0


class _Board:
    """The Farlander picture the bench plays on: territories with owners, whose turn."""

    def __init__(self, leds: int) -> None:
        self.leds = leds
        self.owners = [i % len(SEATS) for i in range(leds)]
        self.turn = 0

    def picture(self) -> list[tuple[int, int, int, int]]:
        pixels = [SEATS[self.owners[i]] if i < TURN_LEDS else OFF for i in range(self.leds)]
        pixels[TURN_LEDS + self.turn] = SEATS[self.turn]
        return pixels

    def move(self, key: int) -> Callable[[bytes], bool]:
        """The host's answer to a press of ``key``: the territory changes owner and the turn passes.
        Returns what tells the LED bytes that show it."""
        slot_start = key - key % 7
        territory = [key, slot_start + (key % 7 + 1) % 6] if key % 7 < 6 else [key]
        new_owner = (self.owners[key] + 1) % len(SEATS)
        for led in territory:
            self.owners[led] = new_owner
        self.turn = (self.turn + 1) % len(SEATS)
        want = tuple(c > 0 for c in SEATS[new_owner][:3])
        turn_want = tuple(c > 0 for c in SEATS[self.turn][:3])
        leds, turn = self.leds, self.turn
        return lambda grb: (len(grb) >= 3 * leds and _lit_channels(grb, key) == want
                            and _lit_channels(grb, TURN_LEDS + turn) == turn_want)


def _summary(presses: int, latencies: list[float], update_sizes: list[int], scene_bytes: int,
             leds: int) -> dict[str, Any]:
    return {
        "presses": presses,
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(_percentile(latencies, 0.99), 2),
        "max_ms": round(max(latencies), 2),
        "mean_ms": round(statistics.fmean(latencies), 2),
        "update_bytes": int(statistics.median(update_sizes)),
        "update_bytes_max": max(update_sizes),
        "scene_bytes": scene_bytes,
        "leds": leds,
    }


def run_link_bench(presses: int = 200, progress: Callable[[int], None] | None = None,
                   asynchronous: bool = False) -> dict[str, Any]:
    if asynchronous:
        return asyncio.run(_run_async(presses, progress))
    with SimBoard.start() as sim:
        session = BoardSession.open(sim.port)
        try:
            board = _Board(session.hello["leds"])
            session.show(board.picture())
            scene_bytes = session.last_update_bytes
            sim.wait_pixels(lambda p: len(p) == board.leds and p[TURN_LEDS] != (0, 0, 0))
            latencies: list[float] = []
            update_sizes: list[int] = []
            for n in range(presses):
                key = (n * 7) % TURN_LEDS
                count_before = sim.pixel_update()[0]
                started = time.monotonic_ns()
                sim.press(key)
                events: list[KeyEvent] = []
                deadline = time.monotonic() + 5
                while not any(e.pressed for e in events):
                    events += session.poll(0.5)
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"key {key} did not arrive within 5 s")
                shows_move = board.move(key)
                session.show(board.picture())
                update_sizes.append(session.last_update_bytes)
                _count, written_ns, _grb = sim.wait_update(count_before, shows_move, timeout=5)
                latencies.append((written_ns - started) / 1e6)
                session.poll(0.0)  # the release
                if progress:
                    progress(n + 1)
            return _summary(presses, latencies, update_sizes, scene_bytes, board.leds)
        finally:
            session.close()


async def _run_async(presses: int, progress: Callable[[int], None] | None) -> dict[str, Any]:
    async with await SimBoard.start_async() as sim:
        session = await AsyncBoardSession.open(sim.port)
        try:
            board = _Board(session.hello["leds"])
            latencies: list[float] = []
            update_sizes: list[int] = []
            waiting: dict[str, Any] = {}  # the press under way: its start, the LED bytes that end it
            done = asyncio.Event()

            def on_event(event: SessionEvent) -> None:
                if isinstance(event, KeyEvent) and event.pressed and "key" in waiting:
                    waiting["shows_move"] = board.move(waiting.pop("key"))
                    session.show(board.picture())  # the host answers from the listener, on the loop
                    update_sizes.append(session.last_update_bytes)

            def on_pixels(_pixels: list[tuple[int, int, int]]) -> None:
                _count, written_ns, grb = sim.pixel_update()
                shows_move = waiting.get("shows_move")
                if shows_move is not None and shows_move(grb):
                    latencies.append((written_ns - waiting.pop("started")) / 1e6)
                    waiting.clear()
                    done.set()

            session.listen(on_event)
            sim.on_pixels(on_pixels)
            session.show(board.picture())
            scene_bytes = session.last_update_bytes
            while not session.in_sync():
                await asyncio.sleep(0.01)
            for n in range(presses):
                key = (n * 7) % TURN_LEDS
                done.clear()
                waiting.update(key=key, started=time.monotonic_ns())
                sim.press(key)
                try:
                    await asyncio.wait_for(done.wait(), 5)
                except asyncio.TimeoutError:
                    raise TimeoutError(f"key {key} was not shown within 5 s") from None
                if progress:
                    progress(n + 1)
            return _summary(presses, latencies, update_sizes, scene_bytes, board.leds)
        finally:
            await session.close()
