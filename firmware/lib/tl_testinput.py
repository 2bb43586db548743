"""Test input: key presses sent by a test bench (TEST_KEY), taken as if they came from the keypad.

Only when settings.toml has TL_TEST_INPUT = 1 (``tablelight flash --test-input``) and only over a
wired transport (USB); otherwise every TEST_KEY is refused with an ERROR, so nobody can press keys
on a board at a table, and nobody in radio range even when a hand-edited settings.toml turns on
both Bluetooth and test input. An injected
press goes through the same path as a real one (dropped while no host holds the lease), so
`pytest --board` tests what players get.
"""

import tablelight_wire as wire


def handle_test_key(link, p, now: int, wired: bool) -> None:
    """``link``: the BoardLink; ``p``: a TEST_KEY payload from a welcomed host; ``wired``: it came
    over USB (not the radio)."""
    if not wired:
        link.write(wire.encode_error(wire.ERR_REFUSED, wire.MSG_TEST_KEY,
                                     "test input is never taken over Bluetooth: connect the test bench by USB"))
        return
    if not link.info.get("test_input"):
        link.write(wire.encode_error(wire.ERR_REFUSED, wire.MSG_TEST_KEY,
                                     "test input is off: TL_TEST_INPUT = 1 in settings.toml turns it on"))
        return
    key, pressed = wire.decode_test_key(p)
    if key >= link.info["keys"]:
        link.write(wire.encode_error(wire.ERR_MALFORMED, wire.MSG_TEST_KEY,
                                     "no key " + str(key) + ": this board has " + str(link.info["keys"])))
        return
    link.key_event(key, pressed, now, now)
