"""Open the right link for a port name: ``ble://ADDRESS`` is Bluetooth LE, anything else pyserial."""

from __future__ import annotations

from tablelight.links.base import Link


def open_link(port: str) -> Link:
    if port.startswith("ble://"):
        from tablelight.links.ble import BleLink

        return BleLink(port)
    from tablelight.links.serial_link import SerialLink

    return SerialLink(port)
