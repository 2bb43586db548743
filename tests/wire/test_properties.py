"""Property tests of the wire format and of the host's scene/delta encoding, against the
firmware's own board logic running in-process (no pty: fast enough for hypothesis)."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tl_limit import CurrentLimiter  # type: ignore[import-not-found]
from tl_link import BoardLink  # type: ignore[import-not-found]
from tl_scene import Renderer, Scene  # type: ignore[import-not-found]

from tablelight.board.session import BoardSession
from tablelight.wire import wire


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=300), min_size=1, max_size=6), st.integers(1, 40))
def test_frames_survive_any_chunking(payloads: list[bytes], chunk: int) -> None:
    stream = b"".join(wire.frame(p) for p in payloads)
    reader = wire.FrameReader()
    out: list[bytes] = []
    for i in range(0, len(stream), chunk):
        out += reader.feed(stream[i:i + chunk])
    assert out == payloads and reader.bad == 0


class InProcessBoard:
    """A link whose other end is the firmware's BoardLink in this process."""

    def __init__(self, leds: int = 55) -> None:
        self.name = "in-process"
        self.out: queue.Queue[bytes] = queue.Queue()
        self.scene = Scene(leds)
        self.renderer = Renderer(self.scene, CurrentLimiter(10_000, leds))
        self.lock = threading.Lock()
        info = {"firmware": (1, 0, 0), "board": "inproc", "layout": "test", "keys": 8, "caps": 7}
        self.link = BoardLink(self.out.put, self.scene, self.renderer, info, 42, self.now())

    @staticmethod
    def now() -> int:
        return int(time.monotonic() * 1000) & ((1 << 29) - 1)

    def read(self, timeout: float) -> bytes:
        try:
            data = self.out.get(timeout=timeout)
        except queue.Empty:
            return b""
        while not self.out.empty():
            data += self.out.get_nowait()
        return data

    def write(self, data: bytes) -> None:
        with self.lock:
            self.link.feed(data, self.now())

    def reset_input(self) -> None:
        pass

    def close(self) -> None:
        pass

    def shown(self) -> list[tuple[int, ...]]:
        p = self.scene.palette
        return [tuple(p[4 * i:4 * i + 4]) for i in self.scene.indices]


COLOURS = [(0, 0, 0, 0), (255, 0, 0, 0), (0, 255, 0, 1), (0, 0, 255, 2), (9, 9, 9, 0), (200, 100, 0, 0)]
pixel_lists = st.lists(st.lists(st.sampled_from(COLOURS + [(i, 1, 2, 0) for i in range(70)]), min_size=55,
                                max_size=55), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(pixel_lists)
def test_any_sequence_of_shows_ends_on_the_board_exactly(scenes: list[list[Any]]) -> None:
    board = InProcessBoard()
    session = BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    try:
        for pixels in scenes:
            if len(set(pixels)) > wire.MAX_PALETTE:
                continue
            session.show(pixels)
            assert board.shown() == [tuple(p) for p in pixels]
            assert board.scene.version == session._version
    finally:
        session.close()


def test_small_change_uses_delta_and_reuses_palette_slots() -> None:
    board = InProcessBoard()
    session = BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    pixels = [COLOURS[i % 4] for i in range(55)]
    session.show(pixels)
    for step in range(100):  # many new colours over time: freed slots get reused, no full scene
        pixels = list(pixels)
        pixels[step % 55] = (step, 7, 7, 0)
        before = session.bytes_sent
        session.show(pixels)
        assert session.bytes_sent - before <= 20
        assert board.shown() == pixels
    session.close()
