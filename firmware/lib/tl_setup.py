"""Reads settings.toml (through os.getenv, as CircuitPython does) and builds the board's parts."""

import os

import board
import keypad
import tablelight_wire as wire
from tl_lights import Lights
from tl_limit import CurrentLimiter
from tl_scene import Renderer, Scene

FIRMWARE_VERSION = (1, 2, 0)  # 1.1: wide LED numbers (CAP_WIDE), 1024-byte payloads; 1.2: BLE challenge auth


def setting(name: str, default):
    """A setting as the default's type (CircuitPython returns ints, CPython's os.getenv strings)."""
    value = os.getenv(name)
    if value is None:
        return default
    if isinstance(default, int):
        return int(value)
    return str(value)


def pins(names: str) -> list:
    out = []
    for name in names.split(","):
        name = name.strip()
        if name:
            out.append(getattr(board, name))
    return out


def random_boot_id() -> int:
    raw = os.urandom(4)
    return (raw[0] << 24) | (raw[1] << 16) | (raw[2] << 8) | raw[3]


def build() -> dict:
    leds = setting("TL_LEDS", 55)
    if not 0 < leds <= wire.MAX_LEDS:
        raise RuntimeError("tablelight: TL_LEDS is " + str(leds) + " in settings.toml; this firmware drives 1.."
                           + str(wire.MAX_LEDS) + " LEDs")
    scene = Scene(leds)
    limiter = CurrentLimiter(setting("TL_BUDGET_MA", 450), leds, setting("TL_MA_PER_CHANNEL", 20),
                             setting("TL_IDLE_MA", 1), setting("TL_BASE_MA", 30))
    if limiter.fixed_ma >= limiter.budget_ma:
        print("tablelight: TL_BUDGET_MA", limiter.budget_ma, "does not cover the idle draw of", leds,
              "LEDs (", limiter.fixed_ma, "mA): every frame will be dark; raise TL_BUDGET_MA and use a bigger supply")
    renderer = Renderer(scene, limiter, setting("TL_BRIGHTNESS", 96))
    lights = Lights(getattr(board, setting("TL_PIXEL_PIN", "D5")), leds, setting("TL_PIXEL_ORDER", "GRB"))
    matrix = keypad.KeyMatrix(pins(setting("TL_ROW_PINS", "")), pins(setting("TL_COLUMN_PINS", "")),
                              columns_to_anodes=True, interval=0.02, max_events=64)
    info = {
        "firmware": FIRMWARE_VERSION,
        "board": setting("TL_BOARD", "unknown"),
        "layout": setting("TL_LAYOUT", "none"),
        "keys": setting("TL_KEYS", 0),
        "caps": wire.CAP_EFFECTS | wire.CAP_DICE | wire.CAP_LIMITER | wire.CAP_WIDE,
        "test_input": setting("TL_TEST_INPUT", 0) == 1,
    }
    if info["test_input"]:
        info["caps"] |= wire.CAP_TEST_INPUT
    return {"scene": scene, "renderer": renderer, "lights": lights, "matrix": matrix, "info": info,
            "frame_ms": 1000 // setting("TL_FPS", 50)}
