"""The host hands its last state to every open page before it stops (``tablelight.web.parting``).

A game ends and the host stops at once (a bots-only game does): a watcher's socket, which the
server paces to a few pictures a second, must still be sent the final snapshot (the result) before
its close frame, and so must a seat's. The moves and the stop run in one go on the table's loop,
just after the watcher's socket sent a picture: that socket is then in its pause between two
pictures, longer than the server takes to notice it should stop.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from .conftest import Served, serving

websockets_sync = pytest.importorskip("websockets.sync.client")
websockets = pytest.importorskip("websockets")


def states_until_closed(socket: Any) -> list[dict[str, Any]]:
    """Every snapshot the socket receives until the server closes it (a deadline names what did not come)."""
    states = []
    while True:
        try:
            message = json.loads(socket.recv(timeout=20))
        except websockets.exceptions.ConnectionClosed:
            return states
        except TimeoutError:
            raise AssertionError(f"the server neither closed the socket nor sent more after {len(states)} snapshots") from None
        if "state" in message:
            states.append(message["state"])


def finish_and_stop(served: Served) -> None:
    """One move, a moment for the sockets to send it, then the rest of the game and the stop, in one go."""
    game, pick = served.game, random.Random(3)

    async def run() -> None:
        served.table.apply(pick.choice(game.legal_actions()))
        await asyncio.sleep(0.02)  # the sockets send that move; the watcher's then pauses before its next picture
        while not game.is_over():
            served.table.apply(pick.choice(game.legal_actions()))
        await served.web.stop()

    asyncio.run_coroutine_threadsafe(run(), served.loop).result(timeout=30)


def test_a_watcher_and_a_seat_get_the_result_before_the_host_stops():
    with serving() as served:
        ws = served.base.replace("http", "ws")
        device = served.join(0)
        with websockets_sync.connect(f"{ws}/ws/board", origin=served.base) as watcher, \
                websockets_sync.connect(f"{ws}/ws/seat/0?token={device}", origin=served.base) as seat:
            for socket in (watcher, seat):  # each has sent its first picture
                while "state" not in json.loads(socket.recv(timeout=20)):
                    pass
            finish_and_stop(served)
            assert served.game.is_over()
            for name, socket in (("watcher", watcher), ("seat 0", seat)):
                states = states_until_closed(socket)
                assert states, f"the {name}'s socket was closed with no snapshot after the last moves"
                last = states[-1]
                assert last["over"] and last["result"]["headline"].endswith(("wins", "share the win")), (name, last)


def test_the_host_waits_for_a_socket_that_is_behind_only_until_its_deadline():
    """A page that never takes its last picture (a phone asleep) holds the host up for the deadline, no longer;
    a socket that catches up or closes releases it."""
    from tablelight.web.parting import Parting

    async def run() -> tuple[bool, bool, bool]:
        stuck = Parting()
        stuck.opened("asleep", lambda: False)
        given_up = await stuck.flush(timeout=0.05)
        sent = [False]
        catching_up = Parting()
        catching_up.opened("page", lambda: sent[0])
        catching_up.opened("leaving", lambda: False)

        async def later() -> None:
            await asyncio.sleep(0)
            sent[0] = True
            catching_up.moved()
            catching_up.closed("leaving")

        task = asyncio.ensure_future(later())
        caught_up = await catching_up.flush(timeout=30)
        await task
        return given_up, caught_up, await Parting().flush(timeout=30)

    given_up, caught_up, nothing_open = asyncio.run(run())
    assert (given_up, caught_up, nothing_open) == (False, True, True)
