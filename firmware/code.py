"""tablelight board: a game-agnostic display and input terminal (see docs/protocol.md).

Reads frames from the usb_cdc data channel, shows the host's scene on the NeoPixels, animates
effects locally at a steady frame rate, and sends key events until the host acknowledges them.
"""

import time

import keypad
import supervisor
import usb_cdc
import tablelight_wire as wire
from tl_link import BoardLink
from tl_setup import build, random_boot_id, setting
from tl_ticks import ticks_diff

parts = build()
renderer = parts["renderer"]
lights = parts["lights"]
matrix = parts["matrix"]
frame_ms = parts["frame_ms"]
data = usb_cdc.data
if data is None:
    raise RuntimeError("tablelight: the usb_cdc data channel is off: copy boot.py to the board and press reset")
data.timeout = 0
data.write_timeout = 0.05  # a host that stopped reading must not stall the animation


ble = None
if setting("TL_BLE", 0):
    from tl_ble import BleTransport

    ble = BleTransport(setting("TL_BLE_NAME", "tablelight"))
    parts["info"]["caps"] |= wire.CAP_BLE
ble_reader = wire.FrameReader()  # each transport has its own reader: partial frames never mix


def writer(port: usb_cdc.Serial):
    def write(frame) -> None:
        if port.connected:  # nobody listening: drop, the host asks for a hello when it opens
            port.write(frame)
        if ble is not None:
            ble.write(frame)

    return write


now = supervisor.ticks_ms()
link = BoardLink(writer(data), parts["scene"], renderer, parts["info"], random_boot_id(), now)
event = keypad.Event()
last_frame = now

while True:
    now = supervisor.ticks_ms()
    waiting = data.in_waiting
    if waiting:
        link.feed(data.read(waiting), now)
    if ble is not None:
        chunk = ble.read()
        if chunk:
            link.feed(chunk, now, ble_reader)
    while matrix.events.get_into(event):
        link.key_event(event.key_number, event.pressed, event.timestamp, now)
    link.tick(now)
    if link.dirty or (ticks_diff(now, last_frame) >= frame_ms and renderer.animated()):
        link.dirty = False
        renderer.render(now)
        lights.show(renderer.frame)
        last_frame = now
    time.sleep(0.001)
