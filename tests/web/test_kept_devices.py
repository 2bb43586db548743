"""What is kept of the joined devices across ``resume``: a digest per seat and the table's name."""

from __future__ import annotations

from tablelight.web.access import Access, KeptDevices, token_digest


def test_a_kept_device_is_still_placed_and_its_token_is_never_kept():
    first = Access([0, 1])
    told: list[KeptDevices] = []
    first.on_devices = told.append
    seat, device = first.join(code=first.pass_of(0).code)
    assert seat == 0 and told[-1].digests == {0: token_digest(device)}
    kept = KeptDevices.from_json(told[-1].to_json())
    assert kept is not None and device not in str(kept.to_json())
    again = Access([0, 1], kept=kept)
    assert again.table_id == first.table_id
    assert again.is_seat(0, device) and again.has_place(device) and again.joined(0)
    assert not again.is_seat(1, device) and not again.is_seat(0, device + "x") and not again.is_seat(0, None)
    assert again.pass_of(0).code is None and again.pass_of(1).code  # seat 1 never joined: it still has a code
    again.drop(0)
    assert not again.is_seat(0, device) and not again.joined(0)


def test_kept_devices_that_are_not_as_written_are_ignored():
    assert KeptDevices.from_json(None) is None
    assert KeptDevices.from_json({"table": 3, "seats": {}}) is None
    odd = KeptDevices.from_json({"table": "ab", "seats": {"0": "short", "x": "a" * 64, "1": "b" * 64}})
    assert odd is not None and odd.digests == {1: "b" * 64}
