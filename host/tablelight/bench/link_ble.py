"""Bluetooth LE link benchmark: a full scene of the biggest board and a typical move, through the
real firmware's adafruit_ble peripheral on bumble's virtual radio, at the default 23-byte ATT MTU
and at a negotiated larger one.

Path: BoardSession -> BleLink (bleak, a backend over bumble) -> ATT writes on the virtual link ->
the _bleio stand-in's CharacteristicBuffer -> Adafruit's UARTService -> the firmware's code.py ->
Adafruit's neopixel -> the fake neopixel_write, whose timestamp (CLOCK_MONOTONIC, shared by both
processes) ends the measurement. The virtual link has no air time: the times measure the two
Bluetooth stacks, the chunking and the firmware. The ATT write count is what costs air time on a
real radio (roughly one connection interval, 7.5-30 ms, per few writes).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablelight.board.session import BoardSession
from tablelight.links.ble import BleLink
from tablelight.links.ble_keys import HostKeys
from tablelight.links.ble_pairing import pair
from tablelight.sim.board import SimBoard
from tablelight.sim.radio import VirtualRadio
from tablelight.sim.radio_bleak import make_client_backend

BIGGEST = "landover"
MTUS = (23, 247)  # the default, and the largest a BLE 4.2+ data length extension carries in one packet
COLOURS = [(255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (255, 255, 0, 0), (0, 255, 255, 0), (255, 0, 255, 0)]


def _grb_matches(grb: bytes, pixels: list[tuple[int, int, int, int]], leds: list[int]) -> bool:
    for led in leds:
        g, r, b = grb[3 * led:3 * led + 3]
        want = pixels[led]
        if (r > 0, g > 0, b > 0) != (want[0] > 0, want[1] > 0, want[2] > 0):
            return False
    return True


def _pair_board(sim: SimBoard, radio: VirtualRadio, keys: HostKeys) -> Any:
    host = radio.adapter("bench host")
    sim.key(0, True)  # hold the pairing key while the board powers up
    time.sleep(0.5)
    sim.key(0, False)
    deadline = time.monotonic() + 20
    while True:
        try:
            pair(f"ble://{sim.ble_address}", keys=keys, backend=host.client_backend,
                 on_code=lambda names: sim.press(1), timeout=10)
            return host
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _measure(session: BoardSession, sim: SimBoard, pixels: list[tuple[int, int, int, int]],
             check: list[int]) -> tuple[float, int]:
    before = sim.pixel_update()[0]
    started = time.monotonic_ns()
    session.show(pixels)
    _count, written_ns, _grb = sim.wait_update(before, lambda grb: len(grb) >= 3 * len(pixels)
                                               and _grb_matches(grb, pixels, check), timeout=20)
    return (written_ns - started) / 1e6, session.last_update_bytes


def run_ble_bench(scenes: int = 10, moves: int = 30, layout: str = BIGGEST,
                  progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    results: dict[str, Any] = {"layout": layout, "mtus": []}
    done = 0
    for mtu in MTUS:
        radio = VirtualRadio()
        try:
            with tempfile.TemporaryDirectory() as folder, \
                    SimBoard.start(layout, settings={"TL_BLE": "1"}, radio=radio) as sim:
                keys = HostKeys(Path(folder) / "keys.json")
                host = _pair_board(sim, radio, keys)
                backend = make_client_backend(host, mtu)
                links: list[BleLink] = []

                def factory(name: str, backend: Any = backend) -> BleLink:
                    links.append(BleLink(name, backend=backend, keys=keys, timeout=15))
                    return links[-1]

                session = BoardSession.open(f"ble://{sim.ble_address}", link_factory=factory, timeout=30)
                try:
                    leds = session.hello["leds"]
                    every = list(range(0, leds, max(1, leds // 40)))
                    scene_ms, scene_bytes = [], 0
                    for n in range(scenes):  # every LED changes: the session sends a full SCENE
                        pixels = [COLOURS[(i + n) % len(COLOURS)] for i in range(leds)]
                        ms, scene_bytes = _measure(session, sim, pixels, every)
                        scene_ms.append(ms)
                        done += 1
                        if progress:
                            progress(done)
                    move_ms, move_bytes = [], []
                    for n in range(moves):  # a territory (two LEDs) changes owner and the turn passes
                        led = (n * 7) % (leds - 8)
                        pixels[led] = pixels[led + 1] = COLOURS[n % len(COLOURS)]
                        pixels[leds - 1 - n % 4] = COLOURS[(n + 1) % len(COLOURS)]
                        ms, size = _measure(session, sim, pixels, [led, led + 1, leds - 1 - n % 4])
                        move_ms.append(ms)
                        move_bytes.append(size)
                        done += 1
                        if progress:
                            progress(done)
                    negotiated = links[-1].mtu
                    chunk = links[-1].chunk_size
                    results["mtus"].append({
                        "mtu": negotiated, "asked_mtu": mtu, "leds": leds,
                        "scene_bytes": scene_bytes, "scene_writes": -(-scene_bytes // chunk),
                        "scene_p50_ms": round(statistics.median(scene_ms), 2), "scene_max_ms": round(max(scene_ms), 2),
                        "move_bytes": int(statistics.median(move_bytes)),
                        "move_writes": -(-int(statistics.median(move_bytes)) // chunk),
                        "move_p50_ms": round(statistics.median(move_ms), 2), "move_max_ms": round(max(move_ms), 2),
                    })
                finally:
                    session.close()
        finally:
            radio.close()
    return results
