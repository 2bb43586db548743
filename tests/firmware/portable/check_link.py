"""The board's protocol endpoint (BoardLink): handshake, scenes, keys, lease, fuzzing (portable)."""

import tablelight_wire as wire
from prng import Rand
from tl_limit import CurrentLimiter
from tl_link import RESEND_MS, BoardLink
from tl_scene import MODE_LOST, MODE_SCENE, MODE_WAITING, Renderer, Scene

INFO = {"firmware": (1, 0, 0), "board": "test", "layout": "farlander", "keys": 51, "caps": 7}


class Wire:
    """Collects what the board writes, decoded into payloads."""

    def __init__(self) -> None:
        self.reader = wire.FrameReader()
        self.payloads = []

    def write(self, data) -> None:
        self.payloads.extend(self.reader.feed(data))

    def take(self) -> list:
        out = self.payloads
        self.payloads = []
        return out


def make(leds: int = 10):
    out = Wire()
    scene = Scene(leds)
    renderer = Renderer(scene, CurrentLimiter(5000, leds))
    link = BoardLink(out.write, scene, renderer, INFO, 0x12345678, 0)
    return link, out


def attached(leds: int = 10):
    link, out = make(leds)
    link.feed(wire.encode_welcome(1000), 0)
    link.feed(wire.encode_scene(1, [(0, 0, 0, 0), (255, 0, 0, 0)], bytes(leds)), 0)
    out.take()
    return link, out


def types(payloads: list) -> list:
    return [p[0] for p in payloads]


def state(link: BoardLink) -> tuple:
    r = link.renderer
    return (bytes(link.scene.palette), bytes(link.scene.indices), link.scene.version, link.scene.has_scene,
            r.brightness, r.mode, r.dice_active, link.welcomed, link.lease_ok, link.keys.count, link.keys.next_seq)


def test_hello_on_boot_and_on_request() -> None:
    link, out = make()
    got = out.take()
    assert types(got) == [wire.MSG_HELLO]
    assert wire.decode_hello(got[0])["boot_id"] == 0x12345678
    link.feed(wire.encode_hello_req(777), 5)
    hello = wire.decode_hello(out.take()[0])
    assert hello["nonce"] == 777 and hello["leds"] == 10 and hello["layout"] == "farlander"


def test_nothing_but_handshake_before_welcome() -> None:
    link, out = make()
    out.take()
    link.feed(wire.encode_scene(1, [(1, 2, 3, 0)], bytes(10)), 0)
    got = out.take()
    assert types(got) == [wire.MSG_ERROR] and wire.decode_error(got[0])[0] == wire.ERR_NOT_NOW
    assert not link.scene.has_scene


def test_welcome_asks_for_a_scene_and_scene_shows() -> None:
    link, out = make()
    out.take()
    link.feed(wire.encode_welcome(1000), 0)
    assert types(out.take()) == [wire.MSG_NEED_SCENE]
    assert link.renderer.mode == MODE_WAITING
    link.feed(wire.encode_scene(3, [(0, 0, 0, 0)], bytes(10)), 10)
    assert link.renderer.mode == MODE_SCENE and link.scene.version == 3 and link.dirty


def test_delta_against_other_version_requests_scene() -> None:
    link, out = attached()
    link.feed(wire.encode_delta(5, [], [(0, 1, 1)]), 200)
    got = out.take()
    assert types(got) == [wire.MSG_NEED_SCENE]
    assert wire.decode_need_scene(got[0]) == (1, wire.NEED_BASE_MISMATCH)
    assert link.scene.indices[0] == 0


def test_heartbeat_version_mismatch_requests_scene() -> None:
    link, out = attached()
    link.feed(wire.encode_heartbeat(1, 1000), 300)
    assert out.take() == []
    link.feed(wire.encode_heartbeat(2, 1000), 600)
    assert types(out.take()) == [wire.MSG_NEED_SCENE]


def test_key_sent_resent_until_acked() -> None:
    link, out = attached()
    link.key_event(4, True, 1234, 0)
    got = out.take()
    assert [wire.decode_key(p) for p in got] == [(1, 4, True, 1234)]
    link.tick(RESEND_MS // 2)
    assert out.take() == []
    link.tick(RESEND_MS + 1)
    assert [wire.decode_key(p) for p in out.take()] == [(1, 4, True, 1234)]
    link.key_event(4, False, 1300, RESEND_MS + 2)
    link.feed(wire.encode_ack(1), RESEND_MS + 3)
    out.take()
    link.tick(3 * RESEND_MS)
    assert [wire.decode_key(p)[0] for p in out.take()] == [2]
    link.feed(wire.encode_ack(2), 3 * RESEND_MS)
    link.tick(6 * RESEND_MS)
    assert out.take() == [] and link.keys.count == 0


def test_lease_expiry_shows_host_lost_and_recovers() -> None:
    link, out = attached()
    link.tick(900)
    assert link.renderer.mode == MODE_SCENE
    link.tick(1001)
    assert link.renderer.mode == MODE_LOST and not link.lease_ok
    link.key_event(3, True, 1002, 1002)  # pressed in the dark: not a move
    assert out.take() == [] and link.keys.count == 0
    link.feed(wire.encode_heartbeat(1, 1000), 1500)
    assert link.renderer.mode == MODE_SCENE and link.lease_ok


def test_pending_keys_survive_host_loss_and_are_resent() -> None:
    link, out = attached()
    link.key_event(9, True, 10, 10)
    out.take()
    link.tick(1200)  # lease lost before the ack came
    assert link.renderer.mode == MODE_LOST
    link.feed(wire.encode_hello_req(1), 1300)
    hello = wire.decode_hello(out.take()[0])
    assert hello["key_seq"] == 1  # the new host learns where to start
    link.feed(wire.encode_welcome(1000), 1300)
    link.tick(1301)
    assert [wire.decode_key(p) for p in out.take()] == [(1, 9, True, 10)]


def test_refuse_shows_refused_and_stops_keys() -> None:
    link, out = attached()
    link.feed(wire.encode_refuse("firmware speaks protocol 1, host needs 2: run tablelight flash"), 5)
    assert not link.welcomed and "protocol" in link.refusal
    link.key_event(1, True, 6, 6)
    assert out.take() == []


def test_status_and_loopback() -> None:
    link, out = attached()
    link.feed(wire.encode_loop(b"\x00\x01ping\x00"), 5)
    link.feed(wire.encode_status_req(), 5)
    got = out.take()
    assert got[0] == bytes((wire.MSG_LOOP_REPLY,)) + b"\x00\x01ping\x00"
    status = wire.decode_status(got[1])
    assert status["has_scene"] == 1 and status["version"] == 1 and status["lease_ok"] == 1
    assert status["budget_ma"] == 5000


def test_unknown_type_gets_an_error_and_no_change() -> None:
    link, out = attached()
    before = state(link)
    link.feed(wire.frame(b"\x7f\x01\x02"), 5)
    got = out.take()
    assert types(got) == [wire.MSG_ERROR] and wire.decode_error(got[0])[0] == wire.ERR_UNKNOWN_TYPE
    assert state(link)[:7] == before[:7]


def test_fuzz_random_bytes_change_nothing() -> None:
    link, out = attached()
    rand = Rand(11)
    before = state(link)
    for _ in range(200):
        link.feed(rand.bytes(rand.below(60)), 10)
    assert state(link) == before
    assert link.reader.bad > 0


def test_fuzz_mutated_frames_with_valid_crc() -> None:
    # mutate real host messages and re-frame them with a good CRC: whatever the decoders make
    # of them, nothing crashes, and every frame the board rejects leaves its state unchanged
    seeds = [wire.encode_scene(1, [(0, 0, 0, 0), (255, 0, 0, 1)], bytes(10)), wire.encode_delta(1, [(1, (1, 2, 3, 2))], [(0, 4, 1)]),
             wire.encode_dice((255, 255, 255), 100, 200, [3], list(range(6))), wire.encode_heartbeat(1, 1000),
             wire.encode_ack(1), wire.encode_brightness(9), wire.encode_welcome(1000), wire.encode_loop(b"x")]
    rand = Rand(5)
    rejected = 0
    for n in range(600):
        link, out = attached()
        p = bytearray(wire.unframe(seeds[n % len(seeds)][:-1]))
        for _ in range(1 + rand.below(3)):
            how = rand.below(3)
            if how == 0 and len(p) > 1:
                p[1 + rand.below(len(p) - 1)] = rand.below(256)
            elif how == 1 and len(p) > 1:
                k = 1 + rand.below(len(p) - 1)
                p = p[:k] + p[k + 1:]  # MicroPython's bytearray has no del/insert
            else:
                k = 1 + rand.below(len(p))
                p = p[:k] + bytearray((rand.below(256),)) + p[k:]
        before = state(link)
        link.feed(wire.frame(bytes(p)), 20)
        got = out.take()
        if wire.MSG_ERROR in types(got):
            rejected += 1
            assert state(link) == before, bytes(p)
    assert rejected > 100


def test_keys_beyond_the_layout_are_ignored() -> None:
    link, out = attached()
    link.key_event(51, True, 5, 5)  # an unused position of the 8 x 7 matrix
    assert out.take() == [] and link.keys.count == 0
    link.key_event(50, True, 6, 6)
    assert [wire.decode_key(p)[1] for p in out.take()] == [50]


def test_steady_state_loop_allocates_nothing() -> None:
    import gc

    if not hasattr(gc, "mem_alloc"):
        return  # meaningful on MicroPython/CircuitPython only
    link, out = attached(55)
    link.feed(wire.encode_scene(2, [(0, 0, 0, 0), (255, 0, 0, 2)], bytes(i % 2 for i in range(55))), 0)
    out.take()
    renderer = link.renderer
    renderer.render(0)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for now in range(0, 900, 20):  # what code.py does every frame with no traffic: timers, render
        link.tick(now)
        if renderer.animated():
            renderer.render(now)
    after = gc.mem_alloc()
    gc.enable()
    assert after == before, after - before


WIDE_INFO = {"firmware": (1, 1, 0), "board": "test", "layout": "mainland", "keys": 51, "caps": 7 | wire.CAP_WIDE}


def wide_attached(leds: int):
    out = Wire()
    scene = Scene(leds)
    renderer = Renderer(scene, CurrentLimiter(5000, leds))
    link = BoardLink(out.write, scene, renderer, WIDE_INFO, 0x12345678, 0)
    link.feed(wire.encode_welcome(1000), 0)
    link.feed(wire.encode_scene(1, [(0, 0, 0, 0), (255, 0, 0, 0)], bytes(leds)), 0)
    out.take()
    return link, out


def test_wide_board_round_trip_300_and_600() -> None:
    for leds in (300, 600):
        link, out = wide_attached(leds)
        link.feed(wire.encode_hello_req(5), 1)
        hello = wire.decode_hello(out.take()[0])
        assert hello["leds"] == leds and hello["caps"] & wire.CAP_WIDE and hello["max_frame"] == wire.MAX_PAYLOAD
        palette = [(i, i, i, 0) for i in range(64)]
        indices = bytes(i % 64 for i in range(leds))
        link.feed(wire.encode_scene(2, palette, indices), 2)  # 64 colours: the largest scene
        assert out.take() == [] and link.scene.version == 2 and bytes(link.scene.indices) == indices
        link.feed(wire.encode_delta(2, [], [(leds - 45, 45, 1)], leds), 3)
        assert out.take() == [] and link.scene.version == 3
        assert bytes(link.scene.indices[leds - 45:]) == bytes([1] * 45)
        link.feed(wire.encode_scene(4, palette, indices[:255]), 4)  # a narrow scene: wrong board
        got = out.take()
        assert types(got) == [wire.MSG_ERROR] and link.scene.version == 3


def test_fuzz_mutated_wide_frames_with_valid_crc() -> None:
    leds = 300
    seeds = [wire.encode_scene(1, [(0, 0, 0, 0), (255, 0, 0, 1)], bytes(leds)),
             wire.encode_delta(1, [(1, (1, 2, 3, 2))], [(250, 10, 1), (299, 1, 0)], leds),
             wire.encode_dice((255, 255, 255), 100, 200, [3], [254, 255, 256, 257, 298, 299], leds)]
    rand = Rand(9)
    rejected = 0
    link, out = wide_attached(leds)
    for n in range(240):
        p = bytearray(wire.unframe(seeds[n % len(seeds)][:-1]))
        for _ in range(1 + rand.below(3)):
            how = rand.below(3)
            k = 1 + rand.below(len(p) - 1)
            if how == 0:
                p[k] = rand.below(256)
            elif how == 1:
                p = p[:k] + p[k + 1:]
            else:
                p = p[:k] + bytearray((rand.below(256),)) + p[k:]
        before = state(link)
        link.feed(wire.frame(bytes(p)), 20)
        if wire.MSG_ERROR in types(out.take()):
            rejected += 1
            assert state(link) == before, bytes(p)
        link.feed(wire.encode_scene(1, [(0, 0, 0, 0), (255, 0, 0, 1)], bytes(leds)), 20)  # back to the seed's base
        out.take()
    assert rejected > 60, rejected


def test_steady_state_loop_allocates_nothing_on_600_leds() -> None:
    import gc

    if not hasattr(gc, "mem_alloc"):
        return  # meaningful on MicroPython/CircuitPython only
    link, out = wide_attached(600)
    link.feed(wire.encode_scene(2, [(0, 0, 0, 0), (255, 0, 0, 2)], bytes(i % 2 for i in range(600))), 0)
    out.take()
    renderer = link.renderer
    renderer.render(0)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for now in range(0, 900, 20):
        link.tick(now)
        if renderer.animated():
            renderer.render(now)
    after = gc.mem_alloc()
    gc.enable()
    assert after == before, after - before
