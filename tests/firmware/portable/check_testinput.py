"""Test input (TEST_KEY): taken like a keypad press only with TL_TEST_INPUT on, refused otherwise (portable)."""

import tablelight_wire as wire
from check_link import INFO, Wire, state, types
from tl_limit import CurrentLimiter
from tl_link import BoardLink
from tl_scene import Renderer, Scene


def board(test_input: bool):
    out = Wire()
    info = dict(INFO)
    info["test_input"] = test_input
    scene = Scene(10)
    link = BoardLink(out.write, scene, Renderer(scene, CurrentLimiter(5000, 10)), info, 1, 0)
    link.feed(wire.encode_welcome(1000), 0)
    out.take()
    return link, out


def test_test_key_is_refused_when_test_input_is_off() -> None:
    link, out = board(False)
    before = state(link)
    link.feed(wire.encode_test_key(3, True), 10)
    got = out.take()
    assert types(got) == [wire.MSG_ERROR]
    code, about, text = wire.decode_error(got[0])
    assert (code, about) == (wire.ERR_REFUSED, wire.MSG_TEST_KEY) and "TL_TEST_INPUT" in text
    assert state(link) == before


def test_test_key_is_a_key_event_when_test_input_is_on() -> None:
    link, out = board(True)
    link.feed(wire.encode_test_key(3, True) + wire.encode_test_key(3, False), 10)
    keys = [wire.decode_key(p) for p in out.take() if p[0] == wire.MSG_KEY]
    assert [(k[1], k[2]) for k in keys] == [(3, True), (3, False)]
    assert [k[0] for k in keys] == [1, 2] and link.keys.count == 2


def test_test_key_beyond_the_keys_or_malformed_is_an_error() -> None:
    link, out = board(True)
    before = state(link)
    link.feed(wire.encode_test_key(INFO["keys"], True), 10)
    link.feed(wire.frame(bytes((wire.MSG_TEST_KEY, 1, 9))), 10)
    link.feed(wire.frame(bytes((wire.MSG_TEST_KEY, 1))), 10)
    errors = [wire.decode_error(p)[:2] for p in out.take()]
    assert errors == [(wire.ERR_MALFORMED, wire.MSG_TEST_KEY)] * 3
    assert state(link) == before


def test_test_key_while_the_host_is_lost_is_dropped() -> None:
    link, out = board(True)
    link.tick(5000)  # lease of 1000 ms over
    link.feed(wire.encode_test_key(3, True), 5000)
    assert [p for p in out.take() if p[0] == wire.MSG_KEY] == [] and link.keys.count == 0
