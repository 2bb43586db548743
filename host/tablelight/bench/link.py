"""Link latency benchmark: a key press on the simulated board to the LED bytes written.

The whole path is real: fake keypad -> the firmware's code.py loop -> KEY frame over a pty ->
BoardSession (pyserial) -> the host answers with a move (a territory changes owner, the turn
passes) -> DELTA frame over the pty -> the firmware renders -> Adafruit's neopixel library ->
the fake neopixel_write, whose timestamp (CLOCK_MONOTONIC, shared by both processes) ends the
measurement.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

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


def run_link_bench(presses: int = 200, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    with SimBoard.start() as sim:
        session = BoardSession.open(sim.port)
        try:
            leds = session.hello["leds"]
            owners = [i % len(SEATS) for i in range(leds)]
            turn = 0

            def picture() -> list[tuple[int, int, int, int]]:
                pixels = [SEATS[owners[i]] if i < TURN_LEDS else OFF for i in range(leds)]
                pixels[TURN_LEDS + turn] = SEATS[turn]
                return pixels

            session.show(picture())
            scene_bytes = session.last_update_bytes
            sim.wait_pixels(lambda p: len(p) == leds and p[TURN_LEDS] != (0, 0, 0))
            latencies: list[float] = []
            update_sizes: list[int] = []
            for n in range(presses):
                key = (n * 7) % TURN_LEDS
                slot_start = key - key % 7
                territory = [key, slot_start + (key % 7 + 1) % 6] if key % 7 < 6 else [key]
                new_owner = (owners[key] + 1) % len(SEATS)
                count_before = sim.pixel_update()[0]
                started = time.monotonic_ns()
                sim.press(key)
                events: list[KeyEvent] = []
                deadline = time.monotonic() + 5
                while not any(e.pressed for e in events):
                    events += session.poll(0.5)
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"key {key} did not arrive within 5 s")
                # the host's answer: the territory changes owner and the turn passes
                for led in territory:
                    owners[led] = new_owner
                turn = (turn + 1) % len(SEATS)
                session.show(picture())
                update_sizes.append(session.last_update_bytes)
                want = tuple(c > 0 for c in SEATS[new_owner][:3])
                turn_want = tuple(c > 0 for c in SEATS[turn][:3])
                shows_move = (lambda grb, key=key, want=want, turn_want=turn_want, turn=turn:  # noqa: E731
                              len(grb) >= 3 * leds and _lit_channels(grb, key) == want
                              and _lit_channels(grb, TURN_LEDS + turn) == turn_want)
                _count, written_ns, _grb = sim.wait_update(count_before, shows_move, timeout=5)
                latencies.append((written_ns - started) / 1e6)
                session.poll(0.0)  # the release
                if progress:
                    progress(n + 1)
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
        finally:
            session.close()
