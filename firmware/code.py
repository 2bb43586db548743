"""tablelight board: a game-agnostic display and input terminal (see docs/protocol.md).

Reads frames from the usb_cdc data channel (and, with TL_BLE = 1, from Bluetooth LE), shows the
host's scene on the NeoPixels, animates effects locally at a steady frame rate, and sends key
events until the host acknowledges them. One host at a time: tl_hosts.
"""

import time

import keypad
import supervisor
import usb_cdc
import tablelight_wire as wire
from tl_hosts import Hosts, Transport
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


usb_port = data  # not None from here on


def usb_write(frame) -> None:
    if usb_port.connected:  # nobody listening: drop, the host asks for a hello when it opens
        usb_port.write(frame)


now = supervisor.ticks_ms()
ble = None
pairing = None
if setting("TL_BLE", 0):
    import microcontroller
    from tl_ble import BleTransport
    from tl_pairing import HostKeys, Pairing

    ble = BleTransport(setting("TL_BLE_NAME", "tablelight"))
    pairing = Pairing(HostKeys(microcontroller.nvm), ble.write)
    parts["info"]["caps"] |= wire.CAP_BLE | wire.CAP_PAIRING

link = BoardLink(lambda frame: None, parts["scene"], renderer, parts["info"], random_boot_id(), now)
usb = Transport("USB", usb_write, reader=link.reader, wired=True)
transports = [usb]
if ble is not None:
    ble_transport = Transport("Bluetooth", ble.write, pairing, alive=ble.connected)
    transports.append(ble_transport)
hosts = Hosts(link, transports)
link.send_hello(0)  # to whoever listens: a host that stayed connected learns of the reboot
event = keypad.Event()
last_frame = now = supervisor.ticks_ms()
if pairing is not None:
    pairing.start(now)  # a press of the pairing key from now on opens the window

while True:
    now = supervisor.ticks_ms()
    waiting = data.in_waiting
    if waiting:
        hosts.feed(usb, data.read(waiting), now)
    if ble is not None and pairing is not None:
        chunk = ble.read()
        if ble.central_changed:
            ble.central_changed = False
            hosts.lost(ble_transport)
            if ble.central is not None:
                pairing.connected(now)  # the clock for its authentication starts
        if chunk:
            hosts.feed(ble_transport, chunk, now)
        pairing.tick(now)
        if pairing.overdue(now):  # a silent or unpaired central must not hold the one connection
            print("tablelight: dropped a Bluetooth central that did not authenticate")
            pairing.disconnected()
            ble.drop()
    while matrix.events.get_into(event):
        if pairing is not None and pairing.boot_key(event.key_number, event.pressed, now):
            link.dirty = True
            continue
        link.key_event(event.key_number, event.pressed, event.timestamp, now)
    link.tick(now)
    pairing_shown = pairing if pairing is not None and pairing.showing() else None
    if link.dirty or (ticks_diff(now, last_frame) >= frame_ms and (renderer.animated() or pairing_shown)):
        link.dirty = False
        renderer.render(now)
        if pairing_shown is not None:
            pairing_shown.overlay(renderer.frame, now)
        lights.show(renderer.frame)
        last_frame = now
    time.sleep(0.001)
