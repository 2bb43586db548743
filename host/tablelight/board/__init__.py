"""The host's side of a lit board: a protocol session over any link (serial, pty, BLE)."""
