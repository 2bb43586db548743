"""Fixtures of the hardware suite: the board given with --board, through a session or a raw link.

Every test here is marked ``hardware``: without --board they are skipped (tests/conftest.py);
tests/hardware/test_through_sim.py runs them against `tablelight sim` in every test run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tablelight.board.discover import probe
from tablelight.board.session import BoardSession, KeyEvent
from tablelight.links.serial_link import SerialLink
from tablelight.paths import LAYOUTS
from tablelight.wire import wire

#: The longest any wait of the suite waits for the board (a reply, an event, a confirmed scene).
#: Tests wait for a state, never for a time: a passing test waits only as long as the board takes,
#: so this is long enough for a slow board on a busy machine, and a failure names what did not come.
PATIENCE = 60.0


@pytest.fixture
def port(request: pytest.FixtureRequest) -> str:
    value: str = request.config.getoption("--board")
    return value


@pytest.fixture
def hello(port: str) -> dict[str, Any]:
    return probe(port, timeout=PATIENCE)


@pytest.fixture
def layout(hello: dict[str, Any]) -> dict[str, Any]:
    path = LAYOUTS / f"{hello['layout']}.json"
    if not path.exists():
        pytest.skip(f"the board reports layout {hello['layout']!r}, which has no hardware/layouts file")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.fixture
def session(port: str, hello: dict[str, Any]) -> Iterator[BoardSession]:  # hello first: it opens the port too
    with BoardSession.open(port, timeout=PATIENCE) as opened:
        yield opened


@pytest.fixture
def test_input(hello: dict[str, Any]) -> None:
    """Skip unless the board takes injected presses (flash it with --test-input, or use --flash)."""
    if not hello["caps"] & wire.CAP_TEST_INPUT:
        pytest.skip("the board does not accept test input: flash it with `tablelight flash --test-input` "
                    "(or run pytest with --flash)")


def press(session: BoardSession, key: int) -> None:
    session.test_key(key, True)
    session.test_key(key, False)


def events(session: BoardSession, count: int, timeout: float = PATIENCE) -> list[KeyEvent]:
    """Exactly ``count`` key events (fewer if they do not come within ``timeout``)."""
    got: list[KeyEvent] = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        got += session.poll(deadline - time.monotonic())
    return got


def shown_version(session: BoardSession, timeout: float = PATIENCE) -> int:
    """The version of the scene the board shows once it has confirmed the last one sent.

    Right after a scene goes, the board may still answer an older message: a NEED_SCENE it sent
    before the scene arrived (just welcomed, or a heartbeat of the session's first moments) makes
    the host send the scene again under the next version. Waiting for the board to confirm the
    host's latest version, rather than reading the first STATUS, holds at any speed."""
    deadline = time.monotonic() + timeout
    while not session.in_sync():
        assert time.monotonic() < deadline, f"the board did not confirm the scene within {timeout:g} s"
        time.sleep(0.02)
    return int(session.status(timeout=PATIENCE)["version"])


def wait_for(condition: Callable[[], object], what: str, timeout: float = PATIENCE) -> None:
    """Wait until ``condition()`` is true; fail naming ``what`` did not come within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not come within {timeout:g} s"
        time.sleep(0.02)


class RawBoard:
    """The data port without a session: frames in, payloads out, for the protocol's corner cases."""

    def __init__(self, port: str) -> None:
        self.link = SerialLink(port)
        self.reader = wire.FrameReader()
        self.pending: list[bytes] = []

    def send(self, data: bytes) -> None:
        self.link.write(data)

    def payloads(self, timeout: float) -> list[bytes]:
        deadline = time.monotonic() + timeout
        out, self.pending = self.pending, []
        while time.monotonic() < deadline:
            out += self.reader.feed(self.link.read(0.02))
        return out

    def expect(self, kind: int, timeout: float = PATIENCE) -> bytes:
        """The next payload of ``kind`` (others before it are dropped)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while self.pending:
                p = self.pending.pop(0)
                if p[0] == kind:
                    return p
            self.pending += self.reader.feed(self.link.read(0.02))
        raise AssertionError(f"no message 0x{kind:02x} from the board within {timeout:g} s")

    def hello(self) -> dict[str, Any]:
        self.send(wire.encode_hello_req(77))
        return wire.decode_hello(self.expect(wire.MSG_HELLO))

    def welcome(self, lease_ms: int = 3000) -> None:
        self.hello()
        self.send(wire.encode_welcome(lease_ms))

    def status(self) -> dict[str, Any]:
        self.send(wire.encode_status_req())
        return wire.decode_status(self.expect(wire.MSG_STATUS))

    def error(self, timeout: float = PATIENCE) -> tuple[int, int, str]:
        result: tuple[int, int, str] = wire.decode_error(self.expect(wire.MSG_ERROR, timeout))
        return result

    def close(self) -> None:
        self.link.close()


@pytest.fixture
def raw(port: str, hello: dict[str, Any]) -> Iterator[RawBoard]:  # hello first: it opens the port too
    """A raw link to a welcomed board (LOOP and STATUS_REQ need the welcome, like every message but hello)."""
    board = RawBoard(port)
    try:
        board.welcome()
        yield board
    finally:
        board.close()
