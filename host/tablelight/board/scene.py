"""From pixels to frames, without I/O: what the board session sends to show a picture.

A picture is one ``(r, g, b, effect)`` per LED. The board holds a *scene* (a palette of up to 64
entries, one palette index per LED, a 16-bit version; docs/protocol.md, "Scenes, deltas and
versions"). :func:`update` turns the next picture into the smaller of a DELTA against what the
board shows and a full SCENE; :func:`full_scene` is the whole picture again (after a reconnect, a
reboot or a NEED_SCENE). Each returns the frame and the :class:`Shown` the board will hold once
it has taken the frame; the session keeps that and only sends what these functions return.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from tablelight.board.errors import BoardError
from tablelight.wire import wire

Pixel = tuple[int, int, int, int]


class Shown(NamedTuple):
    """What the board shows once it took every frame we sent: a scene ``version`` and its palette,
    and the picture it makes."""

    version: int
    pixels: tuple[Pixel, ...]
    palette: tuple[Pixel, ...]


def _is_byte(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255


def check_pixels(pixels: Sequence[Any], leds: int) -> list[Pixel]:
    """``pixels`` as a list of tuples, if a board of ``leds`` LEDs can show them; else BoardError
    naming the first bad pixel."""
    if len(pixels) != leds:
        raise BoardError(f"show() got {len(pixels)} pixels, the board has {leds} LEDs")
    out: list[Pixel] = []
    for i, pixel in enumerate(pixels):
        if not isinstance(pixel, (tuple, list)) or len(pixel) != 4 or not all(_is_byte(v) for v in pixel):
            raise BoardError(f"pixel {i} is {pixel!r}: want (r, g, b, effect) with r, g, b in 0..255")
        if not pixel[3] < wire.EFFECT_COUNT:
            raise BoardError(f"pixel {i} has effect {pixel[3]}: 0 solid, 1 blink, 2 pulse")
        out.append((pixel[0], pixel[1], pixel[2], pixel[3]))
    if len(set(out)) > wire.MAX_PALETTE:
        raise BoardError(f"a scene may use at most {wire.MAX_PALETTE} distinct (colour, effect) pairs, "
                         f"this one uses {len(set(out))}")
    return out


def next_version(version: int) -> int:
    return (version + 1) & 0xFFFF


def full_scene(pixels: Sequence[Pixel], version: int) -> tuple[bytes, Shown]:
    """A SCENE of ``pixels`` (checked by :func:`check_pixels`) under the version after ``version``."""
    palette: list[Pixel] = []
    index: dict[Pixel, int] = {}
    indices = bytearray()
    for pixel in pixels:
        if pixel not in index:
            index[pixel] = len(palette)
            palette.append(pixel)
        indices.append(index[pixel])
    new_version = next_version(version)
    frame = wire.encode_scene(new_version, palette, indices)  # wide format by itself past 255 LEDs
    return frame, Shown(new_version, tuple(pixels), tuple(palette))


def delta(shown: Shown, pixels: Sequence[Pixel]) -> tuple[bytes, Shown] | None:
    """A DELTA from ``shown`` to ``pixels``, reusing palette slots no LED uses any more; b"" (and
    ``shown``) when nothing changes; None when a delta cannot say it (another LED count, no free
    slot, more runs than a frame holds)."""
    old = shown.pixels
    if len(old) != len(pixels):
        return None
    palette = list(shown.palette)
    slot_of = {pixel: slot for slot, pixel in reversed(list(enumerate(palette)))}
    sets: list[tuple[int, Pixel]] = []
    runs: list[tuple[int, int, int]] = []
    used = {slot_of[p] for p in old}
    for i, pixel in enumerate(pixels):
        if pixel == old[i]:
            continue
        slot = slot_of.get(pixel)
        if slot is None:
            free = next((s for s in range(wire.MAX_PALETTE) if s >= len(palette) or s not in used), None)
            if free is None:
                return None
            slot = free
            if slot < len(palette):
                slot_of.pop(palette[slot], None)
                palette[slot] = pixel
            else:
                palette.append(pixel)
            slot_of[pixel] = slot
            sets.append((slot, pixel))
        used.add(slot)
        if runs and runs[-1][0] + runs[-1][1] == i and runs[-1][2] == slot:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1, slot)
        else:
            runs.append((i, 1, slot))
    if not runs:
        return b"", shown
    try:
        frame = wire.encode_delta(shown.version, sets, runs, len(pixels))
    except wire.WireError:  # more runs than one frame holds (a big board where most LEDs change)
        return None
    return frame, Shown(next_version(shown.version), tuple(pixels), tuple(palette))


def update(shown: Shown | None, pixels: Sequence[Pixel], version: int) -> tuple[bytes, Shown] | None:
    """The frame that brings the board from ``shown`` (None: unknown) to ``pixels``: a DELTA when it
    is smaller than the full SCENE, else the SCENE under the version after ``version`` (the host's
    current one). None when the board shows ``pixels`` already."""
    if shown is not None:
        small = delta(shown, pixels)
        if small is not None and small[0] == b"":
            return None
        scene_size = wire.scene_payload_size(len(pixels), len(set(pixels)))
        if small is not None and len(small[0]) < scene_size + 3:  # + CRC, delimiter (COBS adds >= 1)
            return small
    return full_scene(pixels, version)
