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

    def __init__(self, leds: int = 55, caps: int = 7) -> None:
        self.name = "in-process"
        self.out: queue.Queue[bytes] = queue.Queue()
        self.scene = Scene(leds)
        self.renderer = Renderer(self.scene, CurrentLimiter(10_000, leds))
        self.lock = threading.Lock()
        self.written: list[bytes] = []
        info = {"firmware": (1, 0, 0), "board": "inproc", "layout": "test", "keys": 8, "caps": caps}
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
            self.written.append(data)
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
            assert board.scene.version == session.scene_version
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


WIDE = 7 | wire.CAP_WIDE


def wide_pixel_lists(leds: int) -> st.SearchStrategy[list[list[Any]]]:
    """Scenes on a big board: mostly a base picture with changes scattered over all LEDs."""
    colours = COLOURS + [(i, 1, 2, 0) for i in range(70)]
    changes = st.lists(st.tuples(st.integers(0, leds - 1), st.integers(1, 40), st.sampled_from(colours)),
                       max_size=8)
    return st.lists(changes, min_size=1, max_size=6)


def _run_wide(leds: int, steps: list[list[tuple[int, int, Any]]]) -> None:
    board = InProcessBoard(leds, WIDE)
    session = BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    try:
        pixels = [COLOURS[i % 3] for i in range(leds)]
        session.show(pixels)
        assert board.shown() == pixels
        for step in steps:
            pixels = list(pixels)
            for start, count, colour in step:
                for i in range(start, min(leds, start + count)):
                    pixels[i] = colour
            if len(set(pixels)) > wire.MAX_PALETTE:
                continue
            session.show(pixels)
            assert board.shown() == pixels
            assert board.scene.version == session.scene_version
        assert max(len(frame) for frame in board.written) <= wire.MAX_PAYLOAD + 8
        assert board.link.errors_sent == 0
    finally:
        session.close()


@settings(max_examples=25, deadline=None)
@given(wide_pixel_lists(300))
def test_any_sequence_of_shows_on_a_300_led_board(steps: list[list[tuple[int, int, Any]]]) -> None:
    _run_wide(300, steps)


@settings(max_examples=25, deadline=None)
@given(wide_pixel_lists(600))
def test_any_sequence_of_shows_on_a_600_led_board(steps: list[list[tuple[int, int, Any]]]) -> None:
    _run_wide(600, steps)


def test_600_led_board_full_palette_scene_and_small_deltas() -> None:
    board = InProcessBoard(600, WIDE)
    session = BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    try:
        assert session.hello["leds"] == 600
        pixels = [(i % 64, 0, 0, 0) for i in range(600)]  # 64 colours: the largest scene
        session.show(pixels)
        assert board.shown() == pixels and session.last_update_bytes > 860
        pixels = list(pixels)
        pixels[300], pixels[301], pixels[599] = (5, 0, 0, 0), (5, 0, 0, 0), (7, 0, 0, 0)
        session.show(pixels)  # a move above LED 255: a delta of two wide runs
        assert session.last_update_bytes <= 20 and board.shown() == pixels
        before = len(board.written)
        session.dice([254, 255, 256, 598, 599, 300], [2, 3], roll_ms=10, hold_ms=10)
        assert len(board.written) == before + 1 and board.link.errors_sent == 0
        assert board.renderer.dice_active and board.renderer.dice_nleds == 6
    finally:
        session.close()


def test_host_refuses_a_big_board_without_the_wide_capability() -> None:
    from tablelight.board.errors import BoardError

    board = InProcessBoard(300, 7)  # firmware from before the extension, set to 300 LEDs
    try:
        BoardSession.open("in-process", link_factory=lambda port: board, timeout=2)
    except BoardError as error:
        assert "300 LEDs" in str(error) and "run tablelight flash" in str(error)
    else:
        raise AssertionError("a 300-LED board without CAP_WIDE was accepted")
    payloads = [wire.unframe(f[:-1]) for f in board.written]
    refusals = [wire.decode_refuse(p) for p in payloads if p[0] == wire.MSG_REFUSE]
    assert refusals and "run tablelight flash" in refusals[0] and board.link.refusal == refusals[0]


def test_refusal_reasons_for_led_counts_and_frame_sizes() -> None:
    from tablelight.board.handshake import Cause, judge_hello

    def cause(hello: dict[str, Any]) -> Cause | None:
        refused = judge_hello(hello)
        return None if refused is None else refused.cause

    hello = {"protocol": 1, "firmware": "1.0.0", "leds": 255, "caps": 7, "max_frame": 600, "layout": "x"}
    assert judge_hello(hello) is None  # every protocol-1 board keeps working
    assert "run tablelight flash" in judge_hello(hello | {"leds": 256}).reason  # type: ignore[union-attr]
    assert cause(hello | {"leds": 256}) is Cause.NOT_WIDE
    assert cause(hello | {"leds": 600, "caps": WIDE, "max_frame": 1024}) is None
    assert "1..760" in judge_hello(hello | {"leds": 761, "caps": WIDE, "max_frame": 1024}).reason  # type: ignore[union-attr]
    assert "needs 862" in judge_hello(hello | {"leds": 600, "caps": WIDE, "max_frame": 600}).reason  # type: ignore[union-attr]
    assert cause(hello | {"leds": 600, "caps": WIDE, "max_frame": 600}) is Cause.FRAME_SIZE
    assert cause(hello | {"leds": 0}) is Cause.LED_COUNT