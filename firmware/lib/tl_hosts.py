"""One host at a time across transports (USB, Bluetooth LE).

Each transport has its own frame reader and, for BLE, its own gate (tl_pairing). The transport
whose host sent the last WELCOME owns the board: only its frames change the scene, and only it
receives key events and replies. While the owner holds the lease, a host on another transport
gets a hello when it asks (so it can tell which board this is) and BOARD_REFUSE with the reason
("in use by a host on USB") for anything else: it changes nothing and learns nothing. When the
owner's lease has run out, or its link is gone (a Bluetooth central that disconnected: the lease
ends with the link), a WELCOME from another transport takes the board over. Only the owner's
frames renew its lease: another transport's hello requests are answered, never counted.

Every payload reaches the link with the transport it came through: STATUS reports that
transport's frame counters, and TEST_KEY is taken only from a wired transport (USB), never over
the radio, whatever settings.toml says.
"""

import tablelight_wire as wire


class Transport:
    def __init__(self, name: str, write, gate=None, reader=None, wired: bool = False, alive=None) -> None:
        self.name = name
        self.send = write
        self.gate = gate  # None (USB: the cable is the proof) or a tl_pairing.Pairing
        self.reader = reader or wire.FrameReader(wire.MAX_PAYLOAD + 8)
        self.wired = wired  # a cable to a computer at the board (USB): only there may test input come from
        # None (USB: a host that goes is known by its lease) or a callable saying whether the link is
        # still up (BLE: a lease ends with its connection, before the main loop notices it went)
        self.alive = alive

    def up(self) -> bool:
        return self.alive is None or bool(self.alive())

    def may_listen(self) -> bool:
        return self.gate is None or self.gate.authed


class Hosts:
    def __init__(self, link, transports: list) -> None:
        self.link = link
        self.transports = transports
        self.owner = None  # type: Transport | None
        self._reply_to = None  # type: Transport | None
        link.write = self._write

    def _write(self, frame) -> None:
        """The board's output: to the transport being answered, else to the owner; before any host
        was welcomed, to every transport allowed to listen (a hello after reboot reaches the host)."""
        target = self._reply_to or self.owner
        if target is not None:
            target.send(frame)
            return
        for transport in self.transports:
            if transport.may_listen():
                transport.send(frame)

    def owner_active(self) -> bool:
        """Whether the owner still holds the board: its lease runs and its link is up (an owner
        whose link went is let go here, so the next host is not refused in its name)."""
        if self.owner is not None and not self.owner.up():
            self.lost(self.owner)
        return self.owner is not None and self.link.lease_ok

    def feed(self, transport: Transport, data, now: int) -> None:
        for payload in transport.reader.feed(data):
            try:
                self.handle(transport, payload, now)
            except wire.WireError as error:
                transport.send(wire.encode_error(wire.ERR_MALFORMED, payload[0], str(error)))

    def handle(self, transport: Transport, p, now: int) -> None:
        if transport.gate is not None and not transport.gate.handle(p, now):
            return
        kind = p[0]
        if len(p) > wire.MAX_PAYLOAD:  # fits the reader's slack, not the protocol (docs/protocol.md)
            transport.send(wire.encode_error(wire.ERR_TOO_LARGE, kind, "payload over " + str(wire.MAX_PAYLOAD) + " bytes"))
            return
        if transport is not self.owner and kind == wire.MSG_HELLO_REQ:
            # a hello for whoever asks, but only the owner's own frames renew the owner's lease (a
            # Bluetooth handshake begins with hello requests: they must not keep a gone USB host's lease)
            nonce = wire.decode_hello_req(p)[1]
            self._reply_to = transport
            try:
                self.link.send_hello(nonce)
            finally:
                self._reply_to = None
            return
        if transport is not self.owner:
            owner = self.owner
            if owner is not None and self.owner_active():
                transport.send(wire.encode_board_refuse("in use by a host on " + owner.name))
                return
            if kind == wire.MSG_WELCOME:
                self.owner = transport
            elif kind != wire.MSG_REFUSE:
                transport.send(wire.encode_error(wire.ERR_NOT_NOW, kind, "not welcomed: send a hello request first"))
                return
        self._reply_to = transport
        try:
            self.link.handle(p, now, transport)
        finally:
            self._reply_to = None

    def lost(self, transport: Transport) -> None:
        """The transport's host went away (BLE central disconnected): it no longer owns the board."""
        if transport.gate is not None:
            transport.gate.disconnected()
        if self.owner is transport:
            self.owner = None
