"""Link figures measured on a board given by port (a real one, or `tablelight sim`'s pty).

- round trip: LOOP (32 bytes) to its LOOP_REPLY;
- scene to acknowledgement: a whole scene (or the delta of one LED) sent, then a STATUS request;
  the board handles frames in order, so the STATUS that reports the new version closes the
  measurement: the board has decoded and applied it;
- press to key event (boards with test input only): TEST_KEY to the KEY frame at the host.
The clock is the host's; nothing here needs the board's cooperation beyond the protocol.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from tablelight.board.session import BoardSession
from tablelight.wire import wire


def _figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p99_ms": round(ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] * 1000, 2),
            "max_ms": round(ordered[-1] * 1000, 2)}


def measure_board(port: str, rounds: int = 100, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    with BoardSession.open(port, timeout=10.0) as session:
        leds = session.hello["leds"]
        loop, scene, delta, press = [], [], [], []
        for n in range(rounds):
            start = time.perf_counter()
            session.loopback(bytes(32))
            loop.append(time.perf_counter() - start)

            look = [((n * 37) % 256, 0, 40, 0)] * leds  # a new colour for every LED: a whole scene
            start = time.perf_counter()
            session.show(look)
            _until_applied(session)
            scene.append(time.perf_counter() - start)

            look[n % leds] = (0, 80, 0, 0)  # one LED: a delta
            start = time.perf_counter()
            session.show(look)
            _until_applied(session)
            delta.append(time.perf_counter() - start)

            if session.hello["caps"] & wire.CAP_TEST_INPUT:
                start = time.perf_counter()
                session.test_key(0, n % 2 == 0)
                if not session.poll(5.0):
                    raise TimeoutError(f"no key event from {port} within 5 s of a test press")
                press.append(time.perf_counter() - start)
            if progress is not None:
                progress(n + 1)
        return {"port": port, "board": session.hello.get("board"), "layout": session.hello.get("layout"),
                "firmware": session.hello.get("firmware"), "leds": leds, "rounds": rounds,
                "round_trip": _figures(loop), "scene_to_ack": _figures(scene), "delta_to_ack": _figures(delta),
                "press_to_event": _figures(press) if press else None}


def _until_applied(session: BoardSession) -> None:
    """STATUS until the board reports a scene (ordered frames: the first reply after the scene
    already includes it; a board that asked for the scene again gets it, then answers)."""
    for _ in range(50):
        if session.status(timeout=5.0)["has_scene"]:
            return
    raise TimeoutError(f"the board on {session.port} never reported the scene")


def print_board_figures(port: str, rounds: int, as_json: bool, progress: Callable[[int], None] | None) -> int:
    import json

    from tablelight.board.errors import BoardError

    if rounds < 1:
        raise BoardError(f"--rounds must be at least 1, not {rounds}")
    figures = measure_board(port, rounds, progress)
    if as_json:
        print(json.dumps(figures))
        return 0
    print(f"{figures['board']} board ({figures['layout']}, firmware {figures['firmware']}, {figures['leds']} LEDs) "
          f"on {port}, {rounds} rounds:")
    names = {"round_trip": "round trip (32-byte LOOP)", "scene_to_ack": "whole scene to acknowledgement",
             "delta_to_ack": "one-LED delta to acknowledgement", "press_to_event": "test press to key event"}
    for key, name in names.items():
        values = figures[key]
        if values is None:
            print(f"  {name}: not measured (the board has no test input: flash it with --test-input)")
        else:
            print(f"  {name}: p50 {values['p50_ms']} ms, p99 {values['p99_ms']} ms, max {values['max_ms']} ms")
    return 0
