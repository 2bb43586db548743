"""Helpers for Bluetooth LE tests: a simulated board running the real firmware with Adafruit's
adafruit_ble over the _bleio stand-in, on bumble's virtual radio, and hosts (bleak over bumble)."""

from __future__ import annotations

import time
from pathlib import Path

from tablelight.links.ble import BleLink
from tablelight.links.ble_keys import HostKeys
from tablelight.links.ble_pairing import pair
from tablelight.sim.board import SimBoard
from tablelight.sim.radio import VirtualAdapter, VirtualRadio

BLE = {"TL_BLE": "1", "TL_BLE_NAME": "tablelight-test"}


def window_shown(pixels: list[tuple[int, int, int]]) -> bool:
    """LEDs 0-3 pulse a blue brighter than the dim blue of "waiting for a host" on the others."""
    return (len(pixels) > 4 and all(p[0] == 0 and p[1] == 0 for p in pixels[:4])
            and min(p[2] for p in pixels[:4]) > 45 and pixels[4][2] <= 40)


def start_board(radio: VirtualRadio, layout: str = "farlander", *, window: bool = False,
                settings: dict[str, str] | None = None) -> SimBoard:
    """A BLE board; with ``window`` key 0 is held while it powers up (the pairing window opens)."""
    sim = SimBoard.start(layout, settings=BLE | (settings or {}), radio=radio)
    if window:
        hold_pairing_key(sim)
    return sim


def hold_pairing_key(sim: SimBoard) -> None:
    sim.key(0, True)
    sim.wait_pixels(window_shown, timeout=20)
    sim.key(0, False)


def port(sim: SimBoard) -> str:
    return f"ble://{sim.ble_address}"


def pair_with_press(sim: SimBoard, host: VirtualAdapter, keys: HostKeys) -> list[str]:
    """Pair ``host`` with the board, pressing a key on the board when it shows the code; returns
    the colour names the host printed. Asserts the LEDs showed the same code."""
    printed: list[str] = []

    def confirm(names: list[str]) -> None:
        printed.extend(names)
        from tablelight.wire import wire

        wanted = [tuple(c >> 2 for c in dict(wire.PAIR_COLOURS)[name]) for name in names]
        sim.wait_pixels(lambda pixels: [tuple(p) for p in pixels[:4]] == wanted, timeout=5)
        sim.press(7)

    pair(port(sim), keys=keys, on_code=confirm, backend=host.client_backend, timeout=15)
    return printed


def link_factory(host: VirtualAdapter, keys: HostKeys, **kwargs: object):
    return lambda name: BleLink(name, backend=host.client_backend, keys=keys, timeout=10, **kwargs)  # type: ignore[arg-type]


def keys_in(tmp_path: Path, name: str = "keys.json") -> HostKeys:
    return HostKeys(tmp_path / name)


def wait_until(check, timeout: float = 5.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return bool(check())
