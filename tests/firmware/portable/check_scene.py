"""Scene, renderer and current-limiter checks (portable: CPython and MicroPython)."""

import gc

import tablelight_wire as wire
from tl_limit import CurrentLimiter
from tl_scene import MODE_LOST, MODE_SCENE, Renderer, Scene

RED = (255, 0, 0, 0)
BLUE = (0, 0, 255, 0)
OFF = (0, 0, 0, 0)


def payload(data):
    return wire.unframe(data[:-1])


def scene_of(leds: int, palette: list, indices, version: int = 1) -> Scene:
    scene = Scene(leds)
    scene.apply_scene(payload(wire.encode_scene(version, palette, indices)))
    return scene


def snapshot(scene: Scene) -> tuple:
    return bytes(scene.palette), bytes(scene.indices), scene.version, scene.has_scene


def test_scene_then_delta() -> None:
    scene = scene_of(10, [OFF, RED, BLUE], bytes(10), 7)
    assert scene.version == 7 and scene.has_scene
    assert scene.apply_delta(payload(wire.encode_delta(7, [(3, (0, 255, 0, 2))], [(2, 3, 1), (9, 1, 3)])))
    assert scene.version == 8
    assert bytes(scene.indices) == bytes((0, 0, 1, 1, 1, 0, 0, 0, 0, 3))
    assert bytes(scene.palette[12:16]) == bytes((0, 255, 0, 2))


def test_delta_on_wrong_base_changes_nothing() -> None:
    scene = scene_of(10, [OFF, RED], bytes(10), 7)
    before = snapshot(scene)
    assert not scene.apply_delta(payload(wire.encode_delta(6, [], [(0, 5, 1)])))
    assert snapshot(scene) == before
    empty = Scene(10)
    assert not empty.apply_delta(payload(wire.encode_delta(0, [], [(0, 5, 1)])))
    assert not empty.has_scene


def test_bad_scene_and_delta_change_nothing() -> None:
    scene = scene_of(10, [OFF, RED], bytes(10), 7)
    before = snapshot(scene)
    for bad in (wire.encode_scene(8, [OFF], bytes(9)), wire.encode_delta(7, [], [(8, 5, 1)])):
        try:
            p = payload(bad)
            if p[0] == wire.MSG_SCENE:
                scene.apply_scene(p)
            else:
                scene.apply_delta(p)
        except wire.WireError:
            pass
        else:
            raise AssertionError("accepted a bad message")
        assert snapshot(scene) == before


def test_delta_version_wraps() -> None:
    scene = scene_of(4, [OFF, RED], bytes(4), 65535)
    assert scene.apply_delta(payload(wire.encode_delta(65535, [], [(0, 1, 1)])))
    assert scene.version == 0


def test_render_applies_brightness() -> None:
    scene = scene_of(2, [RED, BLUE], bytes((0, 1)))
    renderer = Renderer(scene, CurrentLimiter(5000, 2), brightness=128)
    renderer.mode = MODE_SCENE
    renderer.render(0)
    assert bytes(renderer.frame) == bytes((127, 0, 0, 0, 0, 127))


def test_effects_blink_and_pulse_over_time() -> None:
    scene = scene_of(2, [(200, 0, 0, wire.EFFECT_BLINK), (0, 200, 0, wire.EFFECT_PULSE)], bytes((0, 1)))
    renderer = Renderer(scene, CurrentLimiter(5000, 2), brightness=255)
    renderer.mode = MODE_SCENE
    assert renderer.animated()
    renderer.render(0)
    on, pulse_low = renderer.frame[0], renderer.frame[4]
    renderer.render(500)
    off = renderer.frame[0]
    renderer.render(800)
    pulse_high = renderer.frame[4]
    assert on > 150 and off == 0
    assert pulse_low < 50 < 150 < pulse_high


def test_static_scene_is_not_animated() -> None:
    scene = scene_of(3, [RED], bytes(3))
    renderer = Renderer(scene, CurrentLimiter(5000, 3))
    renderer.mode = MODE_SCENE
    assert not renderer.animated()


def test_host_lost_hides_the_scene() -> None:
    scene = scene_of(4, [RED], bytes(4))
    renderer = Renderer(scene, CurrentLimiter(5000, 4), brightness=255)
    renderer.mode = MODE_LOST
    renderer.render(800)
    for i in range(4):
        r, g, b = renderer.frame[3 * i], renderer.frame[3 * i + 1], renderer.frame[3 * i + 2]
        assert r < 64 and g > 0 and b == 0  # dim amber, not the red scene


def test_limiter_keeps_full_white_inside_500ma_budget() -> None:
    leds = 55
    scene = scene_of(leds, [(255, 255, 255, 0)], bytes(leds))
    limiter = CurrentLimiter(450, leds, 20, 1, 30)
    renderer = Renderer(scene, limiter, brightness=255)
    renderer.mode = MODE_SCENE
    renderer.render(0)
    total = 0
    for v in renderer.frame:
        total += v
    drawn = 30 + leds + total * 20 // 255
    assert drawn <= 450, drawn
    assert limiter.scale < 256 and limiter.estimated_ma <= 450
    assert drawn > 400  # dimmed to the budget, not blacked out


def test_limiter_leaves_a_small_scene_alone() -> None:
    scene = scene_of(55, [OFF, (255, 0, 0, 0)], bytes((1,)) + bytes(54))
    limiter = CurrentLimiter(450, 55)
    renderer = Renderer(scene, limiter, brightness=255)
    renderer.mode = MODE_SCENE
    renderer.render(0)
    assert limiter.scale == 256 and renderer.frame[0] == 254


def test_dice_lands_on_values() -> None:
    scene = scene_of(14, [OFF], bytes(14))
    renderer = Renderer(scene, CurrentLimiter(5000, 14), brightness=255)
    renderer.mode = MODE_SCENE
    renderer.start_dice(payload(wire.encode_dice((255, 255, 255), 500, 1000, [2, 5], list(range(12)))), 100)
    renderer.render(100 + 600)
    lit = [1 if renderer.frame[3 * i] else 0 for i in range(14)]
    assert lit == [1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0]
    renderer.render(100 + 1600)
    assert not renderer.dice_active and bytes(renderer.frame) == bytes(42)


def test_render_allocates_nothing_in_steady_state() -> None:
    if not hasattr(gc, "mem_alloc"):
        return  # CPython allocates ints; the check is meaningful on MicroPython/CircuitPython only
    leds = 55
    scene = scene_of(leds, [(255, 255, 255, 1), (0, 80, 200, 2), (255, 0, 0, 0)], bytes(i % 3 for i in range(leds)))
    renderer = Renderer(scene, CurrentLimiter(450, leds), brightness=200)
    renderer.mode = MODE_SCENE
    renderer.render(0)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for t in range(0, 2000, 20):
        renderer.render(t)
    after = gc.mem_alloc()
    gc.enable()
    assert after == before, after - before


def test_wide_scene_delta_300_and_600() -> None:
    for leds in (300, 600):
        indices = bytearray(leds)
        indices[leds - 1] = 1
        scene = scene_of(leds, [OFF, RED], indices, 9)
        assert scene.indices[leds - 1] == 1 and scene.indices[255] == 0
        delta = wire.encode_delta(9, [(2, (0, 0, 255, 1))], [(250, 20, 2), (leds - 1, 1, 0)], leds)
        assert scene.apply_delta(payload(delta))
        assert scene.version == 10
        assert bytes(scene.indices[248:272]) == bytes((0, 0) + (2,) * 20 + (0, 0))
        assert scene.indices[leds - 1] == 0 and bytes(scene.palette[8:12]) == bytes((0, 0, 255, 1))
        before = snapshot(scene)
        for bad in (wire.encode_delta(10, [], [(leds - 1, 2, 1)], leds), wire.encode_scene(11, [OFF], bytes(leds - 1))):
            try:
                p = payload(bad)
                scene.apply_delta(p) if p[0] == wire.MSG_DELTA else scene.apply_scene(p)
            except wire.WireError:
                pass
            else:
                raise AssertionError("accepted a bad message")
            assert snapshot(scene) == before


def test_wide_render_lights_leds_above_255() -> None:
    leds = 600
    indices = bytearray(leds)
    for i in (0, 256, 599):
        indices[i] = 1
    scene = scene_of(leds, [OFF, RED], indices)
    renderer = Renderer(scene, CurrentLimiter(5000, leds), brightness=255)
    renderer.mode = MODE_SCENE
    renderer.render(0)
    lit = [i for i in range(leds) if renderer.frame[3 * i]]
    assert lit == [0, 256, 599] and len(renderer.frame) == 3 * leds


def test_wide_dice_lands_on_leds_above_255() -> None:
    leds = 300
    scene = scene_of(leds, [OFF], bytes(leds))
    renderer = Renderer(scene, CurrentLimiter(5000, leds), brightness=255)
    renderer.mode = MODE_SCENE
    dice_leds = list(range(250, 256)) + list(range(290, 296))
    renderer.start_dice(payload(wire.encode_dice((255, 255, 255), 100, 1000, [3, 6], dice_leds, leds)), 0)
    renderer.render(300)
    lit = [i for i in range(leds) if renderer.frame[3 * i]]
    assert lit == [250, 251, 252] + list(range(290, 296)), lit


def test_render_600_leds_allocates_nothing_in_steady_state() -> None:
    if not hasattr(gc, "mem_alloc"):
        return  # meaningful on MicroPython/CircuitPython only
    leds = 600
    scene = scene_of(leds, [(255, 255, 255, 1), (0, 80, 200, 2), (255, 0, 0, 0)], bytes(i % 3 for i in range(leds)))
    renderer = Renderer(scene, CurrentLimiter(450, leds), brightness=200)
    renderer.mode = MODE_SCENE
    renderer.start_dice(payload(wire.encode_dice((255, 255, 255), 500, 0, [3, 4], list(range(300, 312)), leds)), 0)
    renderer.render(0)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for t in range(0, 1000, 20):  # rolling dice on wide LED numbers, effects, the limiter
        renderer.render(t)
    after = gc.mem_alloc()
    gc.enable()
    assert after == before, after - before
