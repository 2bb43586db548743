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


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(color: Sequence[int]) -> float:
    """Relative luminance (WCAG 2) of a screen colour ``(r, g, b)``, 0.0 black to 1.0 white."""
    r, g, b = (_linear(int(c)) for c in color[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(background: Sequence[int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``background`` (the higher WCAG contrast ratio):
    a territory's name on a dim red cell is white, on a bright yellow one black."""
    level = luminance(background)
    on_black = (level + 0.05) / 0.05
    on_white = 1.05 / (level + 0.05)
    return (0, 0, 0) if on_black >= on_white else (255, 255, 255)
