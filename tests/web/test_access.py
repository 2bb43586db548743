"""Seat passes: a join link or code opens its seat once; dropping a device issues a new code."""

import pytest

from tablelight.web.access import CODE_ALPHABET, CODE_LENGTH, MAX_WRONG_CODES, Access, JoinRefused


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


def test_guessing_codes_is_stopped():
    access = Access([0])
    code = access.pass_of(0).code
    wrong = "2" * CODE_LENGTH if code != "2" * CODE_LENGTH else "3" * CODE_LENGTH
    for _ in range(MAX_WRONG_CODES):
        with pytest.raises(JoinRefused, match="no seat has this code"):
            access.join(code=wrong)
    with pytest.raises(JoinRefused, match="too many wrong codes"):
        access.join(code=code)  # even the right one, until the host issues a new code
    fresh = access.drop(0)
    assert access.join(code=fresh.code)[0] == 0


def test_dropping_a_device_revokes_it_and_issues_a_new_code():
    issued = []
    access = Access([0], on_issue=issued.append)
    _, device = access.join(token=access.pass_of(0).join_token)
    fresh = access.drop(0)
    assert not access.is_seat(0, device) and not access.joined(0)
    assert issued == [fresh] and fresh.code and fresh.join_token
    _, again = access.join(code=fresh.code)
    assert access.is_seat(0, again) and again != device
