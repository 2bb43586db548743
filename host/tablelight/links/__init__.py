"""Byte links to a board. A link only opens, reads, writes and closes: framing, handshake and
recovery live in :mod:`tablelight.board` (protocol.py, its drivers session.py and aio.py), so every
transport behaves the same. Nothing here imports :mod:`tablelight.board`."""
