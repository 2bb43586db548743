"""The board's end of the protocol: frames in, scene/dice/brightness/lease changes, frames out.

Pure logic: bytes arrive through ``feed``, leave through the ``write`` callable, time comes in as
ticks (ms). The same class runs on the board, in the simulated board and under MicroPython tests.
A bad frame or message changes nothing: it is counted (bad CRC/COBS) or answered with an ERROR.
"""

import tablelight_wire as wire
from tl_keys import KeyQueue
from tl_testinput import handle_test_key
from tl_scene import MODE_LOST, MODE_REFUSED, MODE_SCENE, MODE_WAITING, Renderer, Scene
from tl_ticks import ticks_diff

RESEND_MS = 120  # re-send unacknowledged key events this often
NEED_SCENE_GAP_MS = 100  # at most one scene request per gap
MAX_RESEND_BURST = 8
DEFAULT_LEASE_MS = 3000


class BoardLink:
    def __init__(self, write, scene: Scene, renderer: Renderer, info: dict, boot_id: int, now: int) -> None:
        """info: firmware (tuple), board, layout, keys, caps."""
        self.write = write
        self.scene = scene
        self.renderer = renderer
        self.info = info
        self.boot_id = boot_id
        self.reader = wire.FrameReader(wire.MAX_PAYLOAD + 8)
        self.keys = KeyQueue()
        self.welcomed = False
        self.lease_ms = DEFAULT_LEASE_MS
        self.lease_start = now
        self.lease_ok = False
        self.last_resend = now
        self.last_need = now - NEED_SCENE_GAP_MS
        self.dirty = True  # the picture changed: render now, not at the next animation frame
        self.started = now
        self.refusal = ""
        self.errors_sent = 0
        self.send_hello(0)

    # --- output -----------------------------------------------------------------------------
    def send_hello(self, nonce: int) -> None:
        info = self.info
        self.write(wire.encode_hello(info["firmware"], self.boot_id, self.scene.leds, info["keys"], info["caps"],
                                     wire.MAX_PAYLOAD, self.keys.oldest_seq(), nonce, info["board"],
                                     info["layout"]))

    def _need_scene(self, reason: int, now: int) -> None:
        if ticks_diff(now, self.last_need) >= NEED_SCENE_GAP_MS:
            self.last_need = now
            self.write(wire.encode_need_scene(self.scene.version, reason))

    def _error(self, code: int, about: int, text: str) -> None:
        self.errors_sent += 1
        self.write(wire.encode_error(code, about, text[:200]))

    def _set_mode(self, mode: int) -> None:
        if self.renderer.mode != mode:
            self.renderer.mode = mode
            self.dirty = True

    def _attached_mode(self) -> None:
        self._set_mode(MODE_SCENE if self.scene.has_scene else MODE_WAITING)

    # --- input ------------------------------------------------------------------------------
    def feed(self, data, now: int, reader=None) -> None:
        """Bytes from a transport (``reader``: that transport's FrameReader, default USB's)."""
        for payload in (reader or self.reader).feed(data):
            if len(payload) > wire.MAX_PAYLOAD:  # fits the reader's slack, not the protocol
                self._error(wire.ERR_TOO_LARGE, payload[0], "payload over " + str(wire.MAX_PAYLOAD) + " bytes")
                continue
            try:
                self.handle(payload, now)
            except wire.WireError as error:
                self._error(wire.ERR_MALFORMED, payload[0], str(error))

    def _renew(self, now: int) -> None:
        self.lease_start = now
        if not self.lease_ok:
            self.lease_ok = True
            self._attached_mode()
            self.last_resend = now - RESEND_MS  # re-send pending keys at once

    def handle(self, p, now: int, via=None) -> None:
        """One good payload from the host. Raises WireError for a malformed message (no change).

        ``via``: the tl_hosts.Transport it came through (STATUS counts that transport's frames;
        TEST_KEY needs a wired one); None: this link's own reader, the USB cable."""
        kind = p[0]
        if kind == wire.MSG_HELLO_REQ:
            wire.decode_hello_req(p)
            if self.welcomed:  # every valid frame from a welcomed host renews the lease
                self._renew(now)
            self.send_hello(wire._u16(p, 2))
            return
        if kind == wire.MSG_WELCOME:
            self.lease_ms = wire.decode_welcome(p) or DEFAULT_LEASE_MS
            self.welcomed = True
            self.refusal = ""
            self.lease_ok = False
            self._renew(now)
            self._attached_mode()
            if not self.scene.has_scene:
                self._need_scene(wire.NEED_NO_SCENE, now)
            return
        if kind == wire.MSG_REFUSE:
            self.refusal = wire.decode_refuse(p)
            self.welcomed = False
            self.lease_ok = False
            self._set_mode(MODE_REFUSED)
            print("tablelight: host refused this board:", self.refusal)
            return
        if not self.welcomed:
            self._error(wire.ERR_NOT_NOW, kind, "not welcomed: send a hello request first")
            return
        if kind == wire.MSG_SCENE:
            try:
                self.scene.apply_scene(p)
            except wire.WireError as error:
                self._error(wire.ERR_WRONG_LED_COUNT if "LEDs" in str(error) else wire.ERR_MALFORMED, kind,
                            str(error))
                return
            self.renderer.scene_changed()
            self._renew(now)
            self._attached_mode()
            self.dirty = True
        elif kind == wire.MSG_DELTA:
            if self.scene.apply_delta(p):
                self.renderer.scene_changed()
                self.dirty = True
            else:
                self._need_scene(wire.NEED_BASE_MISMATCH if self.scene.has_scene else wire.NEED_NO_SCENE, now)
            self._renew(now)
        elif kind == wire.MSG_HEARTBEAT:
            version, lease = wire.decode_heartbeat(p)
            if lease:
                self.lease_ms = lease
            self._renew(now)
            if not self.scene.has_scene:
                self._need_scene(wire.NEED_NO_SCENE, now)
            elif version != self.scene.version:
                self._need_scene(wire.NEED_VERSION_MISMATCH, now)
        elif kind == wire.MSG_ACK:
            self.keys.ack(wire.decode_ack(p))
            self._renew(now)
        elif kind == wire.MSG_BRIGHTNESS:
            self.renderer.brightness = wire.decode_brightness(p)
            self.dirty = True
            self._renew(now)
        elif kind == wire.MSG_DICE:
            self.renderer.start_dice(p, now)
            self.dirty = True
            self._renew(now)
        elif kind == wire.MSG_STATUS_REQ:
            self._renew(now)
            self.write(self.status_frame(now, self.reader if via is None else via.reader))
        elif kind == wire.MSG_LOOP:
            self._renew(now)
            self.write(wire.encode_loop_reply(p[1:]))
        elif kind == wire.MSG_TEST_KEY:
            handle_test_key(self, p, now, via is None or via.wired)
        else:
            self._error(wire.ERR_UNKNOWN_TYPE, kind, "unknown message type")

    def status_frame(self, now: int, reader=None) -> bytes:
        """STATUS, with the frame counters of ``reader`` (the asking transport's; default USB's)."""
        r = self.renderer
        reader = reader or self.reader
        est = r.limiter.estimated_ma
        return wire.encode_status((
            1 if self.scene.has_scene else 0, self.scene.version, r.brightness,
            r.limiter.scale if r.limiter.scale < 256 else 255, est if est < 65536 else 65535,
            r.limiter.budget_ma, reader.bad & 0xFFFFFFFF, reader.good & 0xFFFFFFFF,
            self.keys.count, 1 if self.lease_ok else 0, ticks_diff(now, self.started) & 0xFFFFFFFF,
            self.keys.dropped & 0xFFFF))

    # --- keys and time ----------------------------------------------------------------------
    def key_event(self, key: int, pressed: bool, board_ms: int, now: int) -> None:
        """A key transition from the keypad. Dropped while no host holds the lease: presses made
        while the board shows 'host lost' must not turn into moves later."""
        if not self.lease_ok or key >= self.info["keys"]:  # matrix positions beyond the layout's keys
            return
        if not self.keys.count:
            self.last_resend = now
        at = self.keys.push(key, pressed, board_ms)
        self.write(self.keys.frame_at((at - self.keys.head) % len(self.keys.seqs)))

    def tick(self, now: int) -> None:
        if self.lease_ok and ticks_diff(now, self.lease_start) > self.lease_ms:
            self.lease_ok = False
            self._set_mode(MODE_LOST)
        if self.lease_ok and self.keys.count and ticks_diff(now, self.last_resend) >= RESEND_MS:
            self.last_resend = now
            n = self.keys.count if self.keys.count < MAX_RESEND_BURST else MAX_RESEND_BURST
            for position in range(n):
                self.write(self.keys.frame_at(position))
