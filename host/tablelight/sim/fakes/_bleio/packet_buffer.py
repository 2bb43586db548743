# mypy: ignore-errors
# (part of the simulated board's _bleio stand-in)
"""``_bleio.PacketBuffer`` for a local characteristic (the board serves it), as the nordic port's
(ports/nordic/common-hal/_bleio/PacketBuffer.c): the peer's writes arrive as packets, kept whole
and in order; ``write`` sends one notification to the peer that subscribed. Packets are at most
``outgoing_packet_length`` bytes: the link's ATT MTU - 3, capped by ``max_packet_size``.

The real buffer is a ring of ``buffer_size`` bytes that drops what overflows; CircuitPython's
file transfer protocol paces its client so that it never overflows, and this one keeps every
packet (a slow simulated board must not lose what a real one would have taken in time).
"""

import threading
from collections import deque

from _bleio.stack import stack


class PacketBuffer:
    def __init__(self, characteristic, *, buffer_size: int, max_packet_size=None) -> None:
        from _bleio import Characteristic

        if not isinstance(characteristic, Characteristic):
            raise TypeError("characteristic must be of type Characteristic")
        if buffer_size < 1:
            raise ValueError("buffer_size must be >= 1")
        self.characteristic = characteristic
        self.max_packet_size = characteristic.max_length if max_packet_size is None else int(max_packet_size)
        self._packets = deque()
        self._arrived = threading.Condition()
        self._deinited = False
        characteristic._buffers.append(self)

    # the radio's side (event-loop thread): a peer's write
    def _put(self, data: bytes) -> None:
        with self._arrived:
            self._packets.append(bytes(data))
            self._arrived.notify_all()

    def _check(self) -> None:
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")

    def _wait(self, timeout: float) -> bool:
        """Stand-in only (the board's background task is woken by the SoftDevice's event): wait
        up to ``timeout`` s for a packet; True when one is there."""
        with self._arrived:
            return self._arrived.wait_for(lambda: bool(self._packets), timeout)

    def readinto(self, buf) -> int:
        """One packet into ``buf``; 0 when none waits. ValueError when it does not fit (it stays)."""
        self._check()
        with self._arrived:
            if not self._packets:
                return 0
            packet = self._packets[0]
            if len(packet) > len(buf):
                raise ValueError("Buffer too short by %d bytes" % (len(packet) - len(buf)))
            self._packets.popleft()
        buf[:len(packet)] = packet
        return len(packet)

    def _subscribed(self):
        from _bleio import adapter

        connections = adapter._connections()
        return connections[0] if connections else None

    def write(self, data, *, header=None) -> int:
        """Send ``header + data`` as one notification; returns the bytes sent, 0 with no peer."""
        self._check()
        packet = bytes(header or b"") + bytes(data)
        connection = self._subscribed()
        if connection is None or self.characteristic._bumble is None:
            return 0
        if len(packet) > self.outgoing_packet_length:
            raise ValueError("Total length of packet is more than outgoing_packet_length")
        radio = stack()
        radio.call(radio.device.notify_subscriber(connection._bumble, self.characteristic._bumble, packet))
        return len(packet)

    @property
    def incoming_packet_length(self) -> int:
        return self.max_packet_size

    @property
    def outgoing_packet_length(self) -> int:
        """-1 with no peer connected, as on the board."""
        connection = self._subscribed()
        if connection is None:
            return -1
        return min(self.max_packet_size, connection.max_packet_length)

    def deinit(self) -> None:
        if not self._deinited:
            self._deinited = True
            self.characteristic._buffers.remove(self)
