"""Bluetooth session authentication (tl_auth, tl_pairing): HMAC-SHA256 by hand, challenge-response
over a fresh nonce, replays refused, silent connections overdue (portable)."""

import tablelight_wire as wire
import tl_auth
from check_hosts import KEY_A, KEY_B, Nvm, authenticate, board
from tl_pairing import AUTH_MS, BOOT_PRESS_MS, HostKeys

# RFC 4231 test cases 1, 2 and 6 (a key longer than the block)
RFC4231 = (
    (b"\x0b" * 20, b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
)


def hexa(data) -> str:
    return "".join("%02x" % b for b in data)


def paired_board(*keys):
    nvm = Nvm()
    for key in keys:
        HostKeys(nvm).add(key)
    return board(nvm)


def test_hmac_sha256_meets_rfc_4231_with_both_digests() -> None:
    for digest in (tl_auth.sha256, tl_auth.sha256_portable):
        for key, message, expected in RFC4231:
            assert hexa(tl_auth.hmac_sha256(key, message, digest)) == expected


def test_the_portable_sha256_matches_the_ports_own() -> None:
    assert hexa(tl_auth.sha256_portable(b"abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    for size in (0, 55, 56, 63, 64, 65, 119, 1000):
        data = bytes((i * 7) & 0xFF for i in range(size))
        assert tl_auth.sha256_portable(data) == tl_auth.sha256(data), size


def test_a_paired_host_authenticates_without_sending_its_key() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = paired_board(KEY_B, KEY_A)
    hosts.feed(ble_t, tl_auth.encode_auth_begin(), 0)
    (challenge,) = ble.take()
    nonce = tl_auth.decode_challenge(challenge)[1]
    answer = tl_auth.answer(KEY_A, nonce)
    assert KEY_A not in answer and len(answer) < 1 + tl_auth.PROOF_SIZE + 4 + len(KEY_A)
    hosts.feed(ble_t, answer, 1)
    assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_ACCEPTED
    assert pairing.authed and pairing.session_key == KEY_A
    hosts.feed(ble_t, wire.encode_hello_req(3), 2)
    assert [p[0] for p in ble.take()] == [wire.MSG_HELLO]


def test_a_replayed_proof_is_refused() -> None:
    """A device that recorded a whole authentication (nonce and proof) replays the proof: on a new
    connection the board has a new nonce, and an answered nonce never answers again."""
    link, hosts, pairing, usb_t, ble_t, usb, ble = paired_board(KEY_A)
    (state, _code, _text), nonce = authenticate(hosts, ble_t, ble, KEY_A, 0)
    assert state == wire.PAIR_ACCEPTED
    recorded = tl_auth.answer(KEY_A, nonce)
    hosts.lost(ble_t)  # the real host leaves; the recorder connects
    pairing.connected(10)
    hosts.feed(ble_t, recorded, 11)  # without asking: no challenge is open
    state, _code, text = wire.decode_pair_state(ble.take()[0])
    assert state == wire.PAIR_REFUSED and "no challenge" in text and not pairing.authed
    hosts.feed(ble_t, tl_auth.encode_auth_begin(), 12)
    fresh = tl_auth.decode_challenge(ble.take()[0])[1]
    assert fresh != nonce
    hosts.feed(ble_t, recorded, 13)  # the old answer to the new nonce
    state, _code, text = wire.decode_pair_state(ble.take()[0])
    assert state == wire.PAIR_REFUSED and "not paired" in text and not pairing.authed
    hosts.feed(ble_t, tl_auth.answer(KEY_A, fresh), 14)  # the nonce is spent
    assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_REFUSED and not pairing.authed
    for frame in (wire.encode_hello_req(1), wire.encode_welcome(1000), tl_auth.encode_forget()):
        hosts.feed(ble_t, frame, 15)
    got = ble.take()
    assert [p[0] for p in got] == [wire.MSG_BOARD_REFUSE, wire.MSG_BOARD_REFUSE, wire.MSG_PAIR_STATE]
    assert not link.welcomed and HostKeys(pairing.keys.nvm).keys == [KEY_A]


def test_the_key_itself_is_refused_and_an_other_version_is_named() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = paired_board(KEY_A)
    hosts.feed(ble_t, wire.encode_host_key(wire.MSG_AUTH, KEY_A), 0)  # an old host's AUTH
    state, _code, text = wire.decode_pair_state(ble.take()[0])
    assert state == wire.PAIR_REFUSED and "no longer takes a host key" in text and not pairing.authed
    hosts.feed(ble_t, tl_auth.encode_auth_begin(tl_auth.AUTH_VERSION + 1), 1)
    state, _code, text = wire.decode_pair_state(ble.take()[0])
    assert state == wire.PAIR_REFUSED and "authentication " + str(tl_auth.AUTH_VERSION + 1) in text
    assert pairing.nonce is None


def test_challenges_are_fresh() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = paired_board(KEY_A)
    nonces = []
    for now in range(5):
        hosts.feed(ble_t, tl_auth.encode_auth_begin(), now)
        nonces.append(tl_auth.decode_challenge(ble.take()[0])[1])
    assert len(set(nonces)) == 5


def test_a_silent_connection_is_overdue_and_a_session_or_a_pairing_is_not() -> None:
    link, hosts, pairing, usb_t, ble_t, usb, ble = paired_board(KEY_A)
    assert not pairing.overdue(10 * AUTH_MS)  # nobody connected
    pairing.connected(100)
    assert not pairing.overdue(100 + AUTH_MS) and pairing.overdue(101 + AUTH_MS)
    pairing.connected(200)
    authenticate(hosts, ble_t, ble, KEY_A, 300)
    assert not pairing.overdue(200 + 10 * AUTH_MS)
    pairing.connected(400)  # a host that came to pair waits for the press on the board
    pairing.boot_key(0, True, BOOT_PRESS_MS - 1)
    hosts.feed(ble_t, wire.encode_host_key(wire.MSG_PAIR, KEY_B), 500)
    assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_WAITING
    assert not pairing.overdue(400 + 10 * AUTH_MS)


def test_the_board_computes_only_the_proofs_of_keys_with_the_answers_colour_code() -> None:
    """Eight paired keys, one HMAC: the pure-Python SHA-256 of a port without hashlib stays cheap."""
    keys = [bytes((i,)) + bytes(15) for i in range(8)]  # codes 0, 1, 2, ...: all different
    link, hosts, pairing, usb_t, ble_t, usb, ble = paired_board(*keys)
    real = tl_auth.proof
    calls = []

    def counted(key, nonce):
        calls.append(key)
        return real(key, nonce)

    hosts.feed(ble_t, tl_auth.encode_auth_begin(), 0)
    answer = tl_auth.answer(keys[5], tl_auth.decode_challenge(ble.take()[0])[1])  # the host's side
    tl_auth.proof = counted  # the board's side from here
    try:
        hosts.feed(ble_t, answer, 0)
        assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_ACCEPTED
        assert calls == [keys[5]] and pairing.session_key == keys[5]
        hosts.feed(ble_t, tl_auth.encode_auth_begin(), 1)
        nonce = tl_auth.decode_challenge(ble.take()[0])[1]
        del calls[:]
        wrong_code = wire.pair_code(keys[4])  # a right proof under another key's code
        hosts.feed(ble_t, tl_auth.encode_auth_proof(wrong_code, real(keys[5], nonce)), 2)
        assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_REFUSED and not pairing.authed
        assert calls == [keys[4]]
    finally:
        tl_auth.proof = real


def test_forget_removes_only_the_key_this_session_proved() -> None:
    """One paired host cannot unpair another: FORGET has no key in it, it names the session's own."""
    link, hosts, pairing, usb_t, ble_t, usb, ble = paired_board(KEY_A, KEY_B)
    assert authenticate(hosts, ble_t, ble, KEY_B, 0)[0][0] == wire.PAIR_ACCEPTED
    hosts.feed(ble_t, wire.frame(bytes((wire.MSG_FORGET,)) + KEY_A), 1)  # the old FORGET, naming another key
    assert [p[0] for p in ble.take()] == [wire.MSG_ERROR] and HostKeys(pairing.keys.nvm).keys == [KEY_A, KEY_B]
    hosts.feed(ble_t, tl_auth.encode_forget(), 2)
    assert wire.decode_pair_state(ble.take()[0])[0] == wire.PAIR_FORGOTTEN
    assert HostKeys(pairing.keys.nvm).keys == [KEY_A] and not pairing.authed
