"""The connection pools: newcomers get in, floods crowd out themselves, placed connections stay."""

from __future__ import annotations

from tablelight.web.limits import ConnectionLimits

SERVER = ("127.0.0.1", 8055)


class Conn:
    """A connection the pools can close (it records that they did)."""

    def __init__(self, limits: ConnectionLimits, address: str, port: int) -> None:
        self.key = (SERVER, (address, port))
        self.closed = False
        limits.opened(self.key, self.close)

    def close(self) -> None:
        self.closed = True


def flood(limits: ConnectionLimits, addresses: list[str], per_address: int) -> list[Conn]:
    return [Conn(limits, address, 1000 + n) for n in range(per_address) for address in addresses]


def test_one_address_crowds_out_only_itself():
    limits = ConnectionLimits(strangers=(4, 10))
    player = Conn(limits, "10.0.0.2", 5000)
    hostile = flood(limits, ["10.0.0.66"], 50)
    assert not player.closed and [c.closed for c in hostile] == [True] * 46 + [False] * 4
    assert limits.crowded_out["strangers"] == 46 and limits.open_connections() == 5


def test_many_addresses_age_out_oldest_first_and_a_newcomer_gets_in():
    limits = ConnectionLimits(strangers=(4, 10))
    hostile = flood(limits, [f"10.0.1.{n}" for n in range(20)], 1)
    newcomer = Conn(limits, "10.0.0.2", 5000)
    assert not newcomer.closed and sum(c.closed for c in hostile) == 11
    assert all(c.closed for c in hostile[:11]) and limits.open_connections() == 10


def test_placed_connections_are_never_closed_for_strangers():
    limits = ConnectionLimits(strangers=(4, 10), placed=(8, 20))
    seat = Conn(limits, "10.0.0.2", 5000)
    limits.place(seat.key)
    flood(limits, [f"10.0.1.{n}" for n in range(50)], 3)
    assert not seat.closed and len(limits.placed) == 1 and len(limits.strangers) == 10
    limits.closed(seat.key)
    assert len(limits.placed) == 0 and limits.open_connections() == 10


def test_public_sockets_are_refused_beyond_a_fair_share_not_churned():
    limits = ConnectionLimits(public_sockets=(2, 4))
    watchers = flood(limits, ["10.0.1.1", "10.0.1.2"], 3)
    admitted = [limits.public_socket(c.key) for c in watchers]
    assert admitted == [True, True, True, True, False, False] and not any(c.closed for c in watchers)
    tv = Conn(limits, "10.0.0.9", 5000)
    assert limits.public_socket(tv.key)  # a new address evens out the shares: the oldest of a full one goes
    assert watchers[0].closed and len(limits.public_sockets) == 4
    another = Conn(limits, "10.0.0.10", 5000)
    assert limits.public_socket(another.key) and watchers[1].closed  # 1, 2, 1 -> 1, 1, 1, 1
    late = Conn(limits, "10.0.0.11", 5000)
    assert not limits.public_socket(late.key) and not late.closed  # letting it in would not be fairer: refused
    assert limits.refused_sockets == 3 and limits.crowded_out["public sockets"] == 2 and len(limits.public_sockets) == 4


def test_a_late_word_of_a_closed_connection_leaves_its_successor_alone():
    limits = ConnectionLimits()
    first = Conn(limits, "10.0.0.2", 5000)
    second = Conn(limits, "10.0.0.2", 5000)  # the same ports again, before the first's connection_lost
    limits.closed(first.key, first.close)
    assert limits.open_connections() == 1
    limits.closed(second.key, second.close)
    assert limits.open_connections() == 0
