"""Shared state of the scripted MicroPython run of code.py: what arrives when, what went out."""

SETTINGS = {}
HOST_BYTES = []  # (loop number, bytes the host sends)
KEYS = []  # (loop number, key, pressed)
STOP_AT = 100  # loop number at which the run ends
loop = 0
board_out = bytearray()
pixel_writes = []


class Done(Exception):
    pass
