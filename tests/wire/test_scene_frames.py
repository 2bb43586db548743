"""The host's scene module (board/scene.py), without a session: pixels in, frames out, checked
against the firmware's own Scene (firmware/lib/tl_scene.py) taking those frames."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tl_scene import Scene  # type: ignore[import-not-found]

from tablelight.board import scene
from tablelight.board.errors import BoardError
from tablelight.wire import wire

OFF, RED, BLUE, GREEN = (0, 0, 0, 0), (255, 0, 0, 0), (0, 0, 255, 0), (0, 255, 0, 2)


def board_takes(board: Scene, frame: bytes) -> None:
    (payload,) = wire.FrameReader().feed(frame)
    if payload[0] == wire.MSG_SCENE:
        board.apply_scene(payload)
    else:
        assert payload[0] == wire.MSG_DELTA and board.apply_delta(payload)


def shows(board: Scene) -> list[tuple[int, ...]]:
    return [tuple(board.palette[4 * i:4 * i + 4]) for i in board.indices]


def test_check_pixels_gives_tuples_and_names_the_first_bad_pixel() -> None:
    assert scene.check_pixels([[1, 2, 3, 0], (4, 5, 6, 1)], 2) == [(1, 2, 3, 0), (4, 5, 6, 1)]
    with pytest.raises(BoardError, match="got 1 pixels, the board has 2 LEDs"):
        scene.check_pixels([OFF], 2)
    for bad in [(256, 0, 0, 0), (1, 2, 3), (1.0, 2, 3, 0), (True, 0, 0, 0), "red!", None]:
        with pytest.raises(BoardError, match="pixel 1 is"):
            scene.check_pixels([OFF, bad], 2)
    with pytest.raises(BoardError, match="pixel 0 has effect 3"):
        scene.check_pixels([(1, 2, 3, 3)], 1)
    with pytest.raises(BoardError, match="at most 64 distinct"):
        scene.check_pixels([(i, 0, 0, 0) for i in range(65)], 65)


def test_a_full_scene_numbers_colours_in_order_and_takes_the_next_version() -> None:
    frame, shown = scene.full_scene([RED, OFF, RED, BLUE], 7)
    assert shown == scene.Shown(8, (RED, OFF, RED, BLUE), (RED, OFF, BLUE))
    board = Scene(4)
    board_takes(board, frame)
    assert board.version == 8 and shows(board) == [RED, OFF, RED, BLUE]
    assert scene.full_scene([RED], 0xFFFF)[1].version == 0  # versions wrap at 16 bits


def test_a_typical_farlander_move_is_a_16_byte_delta() -> None:
    """docs/protocol.md: a territory of two slices changes owner, the turn passes on."""
    before = [OFF] * 55
    before[14], before[15], before[49], before[22] = RED, RED, GREEN, BLUE
    frame, shown = scene.full_scene(before, 0)
    after = list(before)
    after[22], after[23], after[49], after[50] = RED, RED, OFF, GREEN
    update = scene.update(shown, after, shown.version)
    assert update is not None
    delta, moved = update
    assert len(delta) == 16 and moved.version == shown.version + 1 and moved.pixels == tuple(after)
    board = Scene(55)
    board_takes(board, frame)
    board_takes(board, delta)
    assert shows(board) == after


def test_nothing_changed_sends_nothing() -> None:
    _frame, shown = scene.full_scene([RED, OFF], 3)
    assert scene.update(shown, [RED, OFF], 3) is None
    assert scene.delta(shown, [RED, OFF]) == (b"", shown)


def test_a_freed_palette_slot_is_reused_and_a_full_palette_means_a_full_scene() -> None:
    a, b, c, d, e, f = ((i, 0, 0, 0) for i in range(6))
    _frame, shown = scene.full_scene([a, b, c, d], 0)
    first = scene.delta(shown, [e, b, c, d])
    assert first is not None and first[1].palette == (a, b, c, d, e)  # slot 0 was in use until now
    second = scene.delta(first[1], [f, b, c, d])
    assert second is not None and second[1].palette == (f, b, c, d, e)  # no LED uses a any more
    board = Scene(4)
    for frame in (_frame, first[0], second[0]):
        board_takes(board, frame)
    assert shows(board) == [f, b, c, d]

    colours = [(i, 0, 0, 0) for i in range(64)]
    _frame, full = scene.full_scene(colours, 0)
    new_colour = [(200, 0, 0, 0)] + colours[1:]
    assert scene.delta(full, new_colour) is None  # every slot is in use
    update = scene.update(full, new_colour, full.version)
    assert update is not None and wire.FrameReader().feed(update[0])[0][0] == wire.MSG_SCENE


def test_another_led_count_is_a_full_scene() -> None:
    _frame, shown = scene.full_scene([RED, OFF], 3)
    update = scene.update(shown, [RED, OFF, BLUE], 3)
    assert update is not None and wire.FrameReader().feed(update[0])[0][0] == wire.MSG_SCENE


COLOURS = [OFF, RED, BLUE, GREEN, (9, 9, 9, 1)] + [(i, 1, 2, 0) for i in range(70)]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300).flatmap(lambda leds: st.lists(
    st.lists(st.sampled_from(COLOURS), min_size=leds, max_size=leds), min_size=1, max_size=8)))
def test_any_sequence_of_pictures_ends_on_the_board_exactly(pictures: list[list[Any]]) -> None:
    board = Scene(len(pictures[0]))
    shown: scene.Shown | None = None
    version = 0
    for pixels in pictures:
        if len(set(pixels)) > wire.MAX_PALETTE:
            continue
        update = scene.update(shown, scene.check_pixels(pixels, len(pixels)), version)
        if update is not None:
            board_takes(board, update[0])
            shown = update[1]
            version = shown.version
        assert shows(board) == pixels and board.version == version
