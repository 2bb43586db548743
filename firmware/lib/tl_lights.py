"""NeoPixels through Adafruit's neopixel library: the frame is already dimmed and limited,
so the library runs at brightness 1.0 and only transmits."""

import neopixel


class Lights:
    def __init__(self, pin, count: int, pixel_order: str = "GRB") -> None:
        self.count = count
        self.pixels = neopixel.NeoPixel(pin, count, brightness=1.0, auto_write=False, pixel_order=pixel_order)

    def show(self, frame) -> None:
        """frame: 3 bytes (r, g, b) per LED."""
        pixels = self.pixels
        for i in range(self.count):
            o = i * 3
            pixels[i] = (frame[o] << 16) | (frame[o + 1] << 8) | frame[o + 2]
        pixels.show()

    def off(self) -> None:
        self.pixels.fill(0)
        self.pixels.show()
