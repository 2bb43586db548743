"""Seat passes: a join link or code opens its seat once; dropping a device issues a new code."""

import pytest

from tablelight.web.access import CODE_ALPHABET, CODE_LENGTH, Access, JoinRefused
from tablelight.web.throttle import FREE_WRONG, MAX_CLIENTS, MAX_WAIT_S, TABLE_FREE_WRONG, TABLE_REFILL_S, CodeThrottle, client_key


def test_a_join_token_opens_its_seat_once_and_gives_a_device_token():
    access = Access([0, 2])
    link = access.pass_of(2).join_token
    seat, device = access.join(token=link)
    assert seat == 2 and access.is_seat(2, device) and access.joined(2)
    assert not access.is_seat(0, device) and not access.is_seat(2, link) and not access.is_seat(2, None)
    with pytest.raises(JoinRefused, match="used already"):
        access.join(token=link)
    with pytest.raises(JoinRefused, match="not .*valid"):
        access.join(token="guessed")


def test_codes_are_short_typable_and_spent_by_joining():
    access = Access([0, 1])
    code = access.pass_of(1).code
    assert code is not None and len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    seat, _ = access.join(code=f" {code[:3].lower()}-{code[3:]} ")
    assert seat == 1
    with pytest.raises(JoinRefused):
        access.join(code=code)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def wrong_code(*rights: str | None) -> str:
    return next(c * CODE_LENGTH for c in "23456789" if c * CODE_LENGTH not in rights)


def test_a_guesser_must_wait_longer_and_longer_and_is_refused_unchecked_meanwhile():
    clock = Clock()
    access = Access([0], throttle=CodeThrottle(clock))
    code = access.pass_of(0).code
    wrong = wrong_code(code)
    for _ in range(FREE_WRONG):
        with pytest.raises(JoinRefused, match="no seat has this code"):
            access.join(code=wrong, client="10.0.0.66")
    waits = []
    for _ in range(12):
        with pytest.raises(JoinRefused, match="try again in") as refused:
            access.join(code=code, client="10.0.0.66")  # even the right code is not looked at while it waits
        waits.append(refused.value.retry_after)
        assert not access.joined(0)
        clock.now += refused.value.retry_after
        with pytest.raises(JoinRefused, match="no seat has this code"):
            access.join(code=wrong, client="10.0.0.66")
    assert waits == [min(2**n, int(MAX_WAIT_S)) for n in range(12)]
    assert waits[-1] == MAX_WAIT_S
    assert access.pass_of(0).code == code  # nothing was re-issued, nothing spent


def test_one_guesser_does_not_lock_the_players_out():
    clock = Clock()
    access = Access([0, 1], throttle=CodeThrottle(clock))
    wrong = wrong_code(access.pass_of(0).code, access.pass_of(1).code)
    for _ in range(FREE_WRONG):
        with pytest.raises(JoinRefused, match="no seat has this code"):
            access.join(code=wrong, client="192.168.1.66")
    with pytest.raises(JoinRefused, match="try again"):
        access.join(code=wrong, client="192.168.1.66")
    # the players at the table, on other addresses, join at once, even after typing a wrong code
    with pytest.raises(JoinRefused, match="no seat has this code"):
        access.join(code=wrong, client="192.168.1.20")
    assert access.join(code=access.pass_of(0).code, client="192.168.1.20")[0] == 0
    assert access.join(code=access.pass_of(1).code, client="192.168.1.21")[0] == 1


def test_a_right_code_clears_a_players_typos():
    clock = Clock()
    access = Access([0, 1], throttle=CodeThrottle(clock))
    wrong = wrong_code(access.pass_of(0).code, access.pass_of(1).code)
    for _ in range(FREE_WRONG - 1):
        with pytest.raises(JoinRefused, match="no seat has this code"):
            access.join(code=wrong, client="10.0.0.5")
    access.join(code=access.pass_of(0).code, client="10.0.0.5")
    for _ in range(FREE_WRONG):  # the count started again
        with pytest.raises(JoinRefused, match="no seat has this code"):
            access.join(code=wrong, client="10.0.0.5")


def test_many_addresses_meet_the_tables_budget_but_a_first_try_is_always_checked():
    clock = Clock()
    access = Access([0, 1], throttle=CodeThrottle(clock))
    code0, code1 = access.pass_of(0).code, access.pass_of(1).code
    wrong = wrong_code(code0, code1)
    for n in range(TABLE_FREE_WRONG):  # one wrong code each from many addresses: each is checked
        with pytest.raises(JoinRefused, match="no seat has this code"):
            access.join(code=wrong, client=f"10.1.0.{n}")
    with pytest.raises(JoinRefused, match="at this table: try again in 10 s") as refused:
        access.join(code=code0, client="10.1.0.0")  # an address with a wrong code waits, right code or not
    assert refused.value.retry_after == TABLE_REFILL_S and not access.joined(0)
    assert access.join(code=code0, client="10.2.0.1")[0] == 0  # a first try is checked
    clock.now += TABLE_REFILL_S  # one more wrong code is allowed to the table
    assert access.join(code=code1, client="10.1.0.1")[0] == 1


def test_one_machine_cannot_dodge_the_wait_with_more_ipv6_addresses():
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::99") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:10.0.0.7") == client_key("10.0.0.7") == "10.0.0.7"
    assert client_key(None) == client_key("") == ""
    throttle = CodeThrottle(Clock())
    for n in range(FREE_WRONG + 1):
        throttle.wrong(f"2001:db8::{n + 1:x}")
    assert throttle.wait_left("2001:db8::abcd") > 0 and throttle.wait_left("10.0.0.1") == 0


def test_the_records_are_bounded_and_the_quietest_goes_first():
    clock = Clock()
    throttle = CodeThrottle(clock)
    for _ in range(FREE_WRONG + 3):
        throttle.wrong("10.9.9.9")
    for n in range(MAX_CLIENTS - 1):
        throttle.wrong(f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}")
    assert throttle.wait_left("10.9.9.9") > 0  # still remembered: the table is just full
    throttle.wrong("11.0.0.1")
    assert throttle.wait_left("10.9.9.9") == 0 and len(throttle) == MAX_CLIENTS


def test_dropping_a_device_revokes_it_and_issues_a_new_code():
    issued = []
    access = Access([0], on_issue=issued.append)
    _, device = access.join(token=access.pass_of(0).join_token)
    fresh = access.drop(0)
    assert not access.is_seat(0, device) and not access.joined(0)
    assert issued == [fresh] and fresh.code and fresh.join_token
    _, again = access.join(code=fresh.code)
    assert access.is_seat(0, again) and again != device
