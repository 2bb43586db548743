"""LED values -> screen colours.

An LED driven at a fraction of full power looks much brighter to the eye than the same
fraction of a screen pixel, so the views lift each channel with a gamma of 1/2.2
(``display = 255 * (v / 255) ** (1 / 2.2)``); the web page's script uses the same formula.
An LED that is off stays black.
"""

from __future__ import annotations

from collections.abc import Sequence

DISPLAY_GAMMA = 1 / 2.2


def display_channel(value: int) -> int:
    value = max(0, min(255, int(value)))
    return round(255 * (value / 255) ** DISPLAY_GAMMA)


def display_color(pixel: Sequence[int]) -> tuple[int, int, int]:
    """The screen colour of an LED showing ``(r, g, b[, effect])``."""
    return (display_channel(pixel[0]), display_channel(pixel[1]), display_channel(pixel[2]))
