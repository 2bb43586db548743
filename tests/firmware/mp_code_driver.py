"""Runs the real firmware/code.py (with Adafruit's real neopixel + adafruit_pixelbuf) under a real
MicroPython, on scripted fake hardware, then checks what it sent and what the LEDs got."""

import simscript
import tablelight_wire as wire

simscript.SETTINGS.update({
    "TL_BOARD": "mp-test", "TL_LAYOUT": "farlander", "TL_LEDS": 55, "TL_KEYS": 51, "TL_PIXEL_PIN": "D5",
    "TL_ROW_PINS": "A0,A1", "TL_COLUMN_PINS": "D6,D9", "TL_BRIGHTNESS": 96, "TL_BUDGET_MA": 450,
})
red_first = bytes([1] + [0] * 54)
simscript.HOST_BYTES.extend([
    (3, wire.encode_hello_req(7)),
    (5, wire.encode_welcome(3000)),
    (8, wire.encode_scene(1, [(0, 0, 0, 0), (255, 0, 0, 0)], red_first)),
    (30, wire.encode_ack(2)),
    (32, wire.encode_status_req()),
    (34, wire.encode_loop(b"\x00mp\x00")),
])
simscript.KEYS.extend([(20, 3, True), (22, 3, False)])
simscript.STOP_AT = 60

try:
    import code  # noqa: F401  (the firmware's main loop runs on import, as on the board)
except simscript.Done:
    pass

reader = wire.FrameReader()
payloads = reader.feed(simscript.board_out)
assert reader.bad == 0, reader.bad
kinds = [p[0] for p in payloads]
hellos = [wire.decode_hello(p) for p in payloads if p[0] == wire.MSG_HELLO]
assert [h["nonce"] for h in hellos] == [0, 7], hellos
assert hellos[0]["board"] == "mp-test" and hellos[0]["leds"] == 55 and hellos[0]["keys"] == 51
assert wire.MSG_NEED_SCENE in kinds
keys = [wire.decode_key(p) for p in payloads if p[0] == wire.MSG_KEY]
assert [(k[0], k[1], k[2]) for k in keys[:2]] == [(1, 3, True), (2, 3, False)], keys
status = [wire.decode_status(p) for p in payloads if p[0] == wire.MSG_STATUS][-1]
assert status["has_scene"] == 1 and status["version"] == 1 and status["pending_keys"] == 0, status
assert [p for p in payloads if p[0] == wire.MSG_LOOP_REPLY] == [b"\x05\x00mp\x00"]
last = simscript.pixel_writes[-1]
assert len(last) == 55 * 3
assert last[0:3] == bytes((0, 95, 0)), last[0:3]  # GRB: red 255 at brightness 96
assert last[3:] == bytes(54 * 3)
print("code.py under MicroPython: ok,", len(payloads), "frames,", len(simscript.pixel_writes), "LED writes")
