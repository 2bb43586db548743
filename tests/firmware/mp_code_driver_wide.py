"""Runs the real firmware/code.py under MicroPython on a 600-LED board (the wide-LED extension):
a full 64-colour scene (an 862-byte payload), a delta and dice on LEDs above 255, with Adafruit's
real neopixel library (test_portable runs it in a 64 KB heap)."""

import simscript
import tablelight_wire as wire

LEDS = 600
simscript.SETTINGS.update({
    "TL_BOARD": "mp-wide", "TL_LAYOUT": "mainland", "TL_LEDS": LEDS, "TL_KEYS": 40, "TL_PIXEL_PIN": "D5",
    "TL_ROW_PINS": "A0,A1", "TL_COLUMN_PINS": "D6,D9", "TL_BRIGHTNESS": 255, "TL_BUDGET_MA": 5000,
})
palette = [(0, 0, 0, 0), (255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0)] + [(0, 0, 0, 0)] * 60
indices = bytearray(LEDS)
indices[0], indices[256], indices[599] = 1, 2, 3
scene = wire.encode_scene(1, palette, indices)
assert len(wire.unframe(scene[:-1])) == 862 == wire.scene_payload_size(LEDS, 64)
simscript.HOST_BYTES.extend([
    (3, wire.encode_hello_req(9)),
    (5, wire.encode_welcome(3000)),
    (8, scene),
    (20, wire.encode_delta(1, [], [(256, 1, 0), (300, 2, 1)], LEDS)),
    (30, wire.encode_status_req()),
])
simscript.STOP_AT = 40

try:
    import code  # noqa: F401  (the firmware's main loop runs on import, as on the board)
except simscript.Done:
    pass

reader = wire.FrameReader()
payloads = reader.feed(simscript.board_out)
assert reader.bad == 0, reader.bad
hellos = [wire.decode_hello(p) for p in payloads if p[0] == wire.MSG_HELLO]
assert hellos[-1]["nonce"] == 9 and hellos[-1]["leds"] == LEDS and hellos[-1]["caps"] & wire.CAP_WIDE
assert hellos[-1]["max_frame"] == wire.MAX_PAYLOAD
errors = [wire.decode_error(p) for p in payloads if p[0] == wire.MSG_ERROR]
assert not errors, errors
status = [wire.decode_status(p) for p in payloads if p[0] == wire.MSG_STATUS][-1]
assert status["has_scene"] == 1 and status["version"] == 2, status


def lit(frame) -> list:
    return [i for i in range(LEDS) if frame[3 * i] or frame[3 * i + 1] or frame[3 * i + 2]]


after_scene = [w for w in simscript.pixel_writes if len(w) == 3 * LEDS and lit(w) == [0, 256, 599]]
assert after_scene, "the scene never reached the LEDs"
assert after_scene[0][3 * 256:3 * 256 + 3] == bytes((254, 0, 0))  # GRB: green 255 at brightness 255
last = simscript.pixel_writes[-1]
assert lit(last) == [0, 300, 301, 599], lit(last)
print("code.py on 600 LEDs under MicroPython: ok,", len(payloads), "frames,", len(simscript.pixel_writes), "LED writes")
