"""Byte links to a board. A link only opens, reads, writes and closes: framing, handshake and
recovery live in :mod:`tablelight.board.session`, so every transport behaves the same."""
