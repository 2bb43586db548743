"""What a board session's protocol holds, read through either of its drivers.

:class:`~tablelight.board.session.BoardSession` (a thread, for tools) and
:class:`~tablelight.board.aio.AsyncBoardSession` (the asyncio loop of ``tablelight play``) both
drive one :class:`~tablelight.board.protocol.BoardProtocol` (``self._protocol``): these readings
are the protocol's, written once here.
"""

from __future__ import annotations

from typing import Any

from tablelight.board import scene
from tablelight.board.protocol import BoardProtocol


class ProtocolReadings:
    """The protocol's state as properties: the board's hello, the link's counters, the scene sent."""

    _protocol: BoardProtocol

    @property
    def hello(self) -> dict[str, Any]:
        """The board's hello (its LED and key counts, capabilities, layout, boot id)."""
        return self._protocol.hello

    @property
    def connected(self) -> bool:
        return self._protocol.connected

    @property
    def reconnects(self) -> int:
        return self._protocol.reconnects

    @property
    def silences(self) -> int:
        """Times the board went silent and the session reconnected."""
        return self._protocol.silences

    @property
    def errors(self) -> list[tuple[int, int, str]]:
        """The board's last ERROR messages (code, about, text)."""
        return self._protocol.errors

    @property
    def refused(self) -> str | None:
        """The reason, if this host refused the board."""
        return self._protocol.refused

    @property
    def lost_keys(self) -> int:
        """Key events the board dropped (queue overflow) before we got them."""
        return self._protocol.lost_keys

    @property
    def bytes_sent(self) -> int:
        return self._protocol.bytes_sent

    @property
    def last_update_bytes(self) -> int:
        return self._protocol.last_update_bytes

    @property
    def frames_bad(self) -> int:
        return self._protocol.frames_bad

    @property
    def scene_version(self) -> int:
        """The version of the last scene or update sent."""
        return self._protocol.scene_version

    @property
    def next_key_seq(self) -> int:
        """The sequence number the next key event from the board should carry."""
        return self._protocol.next_key_seq

    @property
    def board_boot_id(self) -> int | None:
        """The boot id of the board's last hello (a new one means it rebooted)."""
        return self._protocol.board_boot_id

    @property
    def shown(self) -> scene.Shown | None:
        """What the board shows if it got everything sent."""
        return self._protocol.shown
