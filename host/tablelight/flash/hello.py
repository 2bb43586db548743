"""After flashing: wait for the board's HELLO on its data port (bounded) and say what it runs."""

from __future__ import annotations

import time
from typing import Any

from tablelight.board.discover import candidates, probe
from tablelight.board.errors import NoHello
from tablelight.flash import FlashError
from tablelight.links.base import LinkClosed


def wait_for_hello(port: str | None, timeout: float) -> tuple[str, dict[str, Any]]:
    """(port, hello) of the first board that answers; ``port`` None: any CircuitPython data port."""
    deadline = time.monotonic() + timeout
    last = "no CircuitPython data port appeared"
    while True:
        ports = [port] if port else [board.port for board in candidates()]
        for name in ports:
            try:
                return name, probe(name, timeout=min(1.0, max(0.1, deadline - time.monotonic())))
            except LinkClosed as error:
                last = f"{name}: {error}"
            except NoHello as error:  # its message names the port
                if port and error.cause == "board_refused":  # up and answering: waiting will not change its mind
                    raise FlashError(f"the files are on the board, and it answers, but it refused this host ({error})") from None
                last = str(error)
        if time.monotonic() >= deadline:
            raise FlashError(f"the files are on the board, but it did not say hello within {timeout:g} s ({last}). "
                             "Press its reset button once (a new boot.py needs a hard reset), then run "
                             "`tablelight devices`; the console (screen/PuTTY on the other serial port) shows errors")
        time.sleep(0.25)


def describe(port: str, hello: dict[str, Any]) -> str:
    return (f"board on {port} says hello: firmware {hello.get('firmware')}, layout {hello.get('layout')}, board "
            f"{hello.get('board')}, {hello.get('leds')} LEDs, {hello.get('keys')} keys")
