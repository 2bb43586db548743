"""Current limiter, the way WLED does it: estimate the draw of a frame, dim it to the budget.

A WS2812 channel at 255 draws about ``ma_per_channel`` mA (20 mA: ~60 mA for full white), every LED
idles at ``idle_ma`` even when dark, and the microcontroller itself takes ``base_ma``.
All integer math: it runs once per frame without allocating.
"""


class CurrentLimiter:
    def __init__(self, budget_ma: int, leds: int, ma_per_channel: int = 20, idle_ma: int = 1,
                 base_ma: int = 30) -> None:
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.fixed_ma = base_ma + idle_ma * leds
        self.estimated_ma = self.fixed_ma
        self.scale = 256

    def estimate(self, channel_sum: int) -> int:
        """Estimated mA of a frame whose channel values add up to channel_sum."""
        return self.fixed_ma + channel_sum * self.ma_per_channel // 255

    def fit(self, channel_sum: int) -> int:
        """The scale (0..256, 256 = unchanged) that keeps the frame inside the budget."""
        full = channel_sum * self.ma_per_channel
        room = self.budget_ma - self.fixed_ma
        if room <= 0:
            scale = 0
        elif full <= room * 255:
            scale = 256
        else:
            scale = room * 255 * 256 // full
            # integer rounding may leave the estimate a hair above budget: step down until inside
            while scale > 0 and self.estimate(channel_sum * scale >> 8) > self.budget_ma:
                scale -= 1
        self.scale = scale
        self.estimated_ma = self.estimate(channel_sum * scale >> 8)
        return scale
