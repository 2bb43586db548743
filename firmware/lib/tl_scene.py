"""The board's picture: a versioned scene (palette + one palette index per LED), local effects,
dice, status patterns, brightness and the current limiter, rendered into an RGB frame buffer.

Pure logic (no hardware): it runs on CPython, MicroPython and CircuitPython. ``render`` allocates
nothing, so the animation loop makes no garbage in the steady state.
"""

import tablelight_wire as wire
from tl_limit import CurrentLimiter
from tl_ticks import ticks_diff

MODE_SCENE = 0  # showing the host's scene
MODE_WAITING = 1  # booted, no host has spoken yet
MODE_LOST = 2  # the host's lease ran out: hide stale state
MODE_REFUSED = 3  # the host refused this board (protocol/layout mismatch)

BLINK_PERIOD_MS = 800
PULSE_PERIOD_MS = 1600
PULSE_FLOOR = 32  # of 256: a pulsing LED never goes fully dark
DICE_STEP_MS = 80


class Scene:
    """Palette + indices + version, changed only by validated whole messages.

    Memory: 256 bytes of palette + 1 byte per LED (the renderer adds 3 per LED for its frame)."""

    def __init__(self, leds: int) -> None:
        self.leds = leds
        self.width = 2 if wire.wide(leds) else 1  # bytes per LED number on the wire
        self.palette = bytearray(wire.MAX_PALETTE * 4)
        self.indices = bytearray(leds)
        self.version = 0
        self.has_scene = False

    def apply_scene(self, p) -> None:
        """Replace the scene with a SCENE payload; WireError (and no change) if it is bad."""
        version = wire.check_scene(p, self.leds)
        n = p[3]
        self.palette[0:4 * n] = p[4:4 + 4 * n]
        at = 4 + 4 * n + self.width
        self.indices[0:self.leds] = p[at:at + self.leds]
        self.version = version
        self.has_scene = True

    def apply_delta(self, p) -> bool:
        """Apply a DELTA payload. False (and no change) if its base is not our version;
        WireError (and no change) if it is malformed."""
        base = wire.check_delta(p, self.leds)
        if not self.has_scene or base != self.version:
            return False
        i = 3
        n = len(p)
        w = self.width
        palette = self.palette
        indices = self.indices
        while i < n:
            first = ((p[i] << 8) | p[i + 1]) if w == 2 else p[i]
            i += w
            count = p[i]
            if count == 0:
                at = first * 4
                palette[at] = p[i + 1]
                palette[at + 1] = p[i + 2]
                palette[at + 2] = p[i + 3]
                palette[at + 3] = p[i + 4]
                i += 5
            else:
                index = p[i + 1]
                for led in range(first, first + count):
                    indices[led] = index
                i += 2
        self.version = (base + 1) & 0xFFFF
        return True


class Renderer:
    """Turns a Scene (+ mode, dice, brightness) into the RGB bytes of one frame, inside the budget."""

    def __init__(self, scene: Scene, limiter: CurrentLimiter, brightness: int = 96) -> None:
        self.scene = scene
        self.limiter = limiter
        self.brightness = brightness  # 0..255, set by the host
        self.mode = MODE_WAITING
        self.frame = bytearray(3 * scene.leds)  # RGB after effects, brightness and limiter
        self.dice_leds = bytearray(2 * wire.MAX_DICE_LEDS)  # LED numbers as sent: 1 or 2 bytes each
        self.dice_nleds = 0
        self.dice_values = bytearray(wire.MAX_DICE)
        self.dice_n = 0
        self.dice_color = bytearray(3)
        self.dice_start = 0
        self.dice_roll_ms = 0
        self.dice_hold_ms = 0
        self.dice_active = False

    def start_dice(self, p, now: int) -> None:
        """Start a DICE payload's roll; WireError (and no change) if it is bad."""
        color, roll_ms, hold_ms, values, leds = wire.decode_dice(p, self.scene.leds)
        self.dice_color[0] = color[0]
        self.dice_color[1] = color[1]
        self.dice_color[2] = color[2]
        self.dice_n = len(values)
        self.dice_values[0:len(values)] = values
        self.dice_nleds = len(leds) // self.scene.width
        self.dice_leds[0:len(leds)] = leds
        self.dice_roll_ms = roll_ms
        self.dice_hold_ms = hold_ms
        self.dice_start = now
        self.dice_active = True

    def scene_changed(self) -> None:
        """A dice roll with no hold time lasts until the scene changes; others run their course
        (a re-sent scene after a resync must not cut a roll short)."""
        if self.dice_active and not self.dice_hold_ms:
            self.dice_active = False

    def animated(self) -> bool:
        """True if the picture changes with time (so the loop must render at its frame rate)."""
        if self.mode != MODE_SCENE or self.dice_active:
            return True
        palette = self.scene.palette
        indices = self.scene.indices
        for i in range(self.scene.leds):
            if palette[indices[i] * 4 + 3] != wire.EFFECT_SOLID:
                return True
        return False

    def _effect_level(self, effect: int, now: int) -> int:
        if effect == wire.EFFECT_BLINK:
            return 256 if (now % BLINK_PERIOD_MS) < BLINK_PERIOD_MS // 2 else 0
        if effect == wire.EFFECT_PULSE:
            phase = now % PULSE_PERIOD_MS
            half = PULSE_PERIOD_MS // 2
            tri = phase if phase < half else PULSE_PERIOD_MS - phase  # 0..half
            return PULSE_FLOOR + (256 - PULSE_FLOOR) * tri // half
        return 256

    def render(self, now: int) -> None:
        """Fill self.frame for time ``now`` (ticks ms). Allocation-free."""
        frame = self.frame
        leds = self.scene.leds
        mode = self.mode
        if mode == MODE_SCENE:
            palette = self.scene.palette
            indices = self.scene.indices
            bright = self.brightness
            for i in range(leds):
                at = indices[i] * 4
                level = self._effect_level(palette[at + 3], now) * bright
                o = i * 3
                frame[o] = palette[at] * level >> 16
                frame[o + 1] = palette[at + 1] * level >> 16
                frame[o + 2] = palette[at + 2] * level >> 16
            if self.dice_active:
                self._render_dice(now)
        else:
            # status patterns: a dim pulse of one color on every LED, never the stale scene
            if mode == MODE_WAITING:
                r, g, b = 0, 0, 40
                level = self._effect_level(wire.EFFECT_PULSE, now)
            elif mode == MODE_LOST:
                r, g, b = 48, 24, 0
                level = self._effect_level(wire.EFFECT_PULSE, now)
            else:
                r, g, b = 48, 0, 0
                level = self._effect_level(wire.EFFECT_BLINK, now)
            r = r * level >> 8
            g = g * level >> 8
            b = b * level >> 8
            for i in range(leds):
                o = i * 3
                frame[o] = r
                frame[o + 1] = g
                frame[o + 2] = b
        total = 0
        for i in range(3 * leds):
            total += frame[i]
        scale = self.limiter.fit(total)
        if scale < 256:
            for i in range(3 * leds):
                frame[i] = frame[i] * scale >> 8

    def _render_dice(self, now: int) -> None:
        elapsed = ticks_diff(now, self.dice_start)
        if self.dice_hold_ms and elapsed > self.dice_roll_ms + self.dice_hold_ms:
            self.dice_active = False
            return
        rolling = elapsed < self.dice_roll_ms
        step = elapsed // DICE_STEP_MS
        group = self.dice_nleds // self.dice_n
        frame = self.frame
        dice_leds = self.dice_leds
        wide = self.scene.width == 2
        bright = self.brightness
        r = self.dice_color[0] * bright >> 8
        g = self.dice_color[1] * bright >> 8
        b = self.dice_color[2] * bright >> 8
        for die in range(self.dice_n):
            if rolling:
                x = (step * 7919 + die * 104729 + 12345) % 65521
                value = (x * 31 % 65521) % 6 + 1
            else:
                value = self.dice_values[die]
            lit = value if value < group else group
            for k in range(group):
                at = die * group + k
                if wide:
                    o = ((dice_leds[2 * at] << 8) | dice_leds[2 * at + 1]) * 3
                else:
                    o = dice_leds[at] * 3
                if k < lit:
                    frame[o] = r
                    frame[o + 1] = g
                    frame[o + 2] = b
                else:
                    frame[o] = 0
                    frame[o + 1] = 0
                    frame[o + 2] = 0
