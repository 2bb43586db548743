"""CircuitPython's os.getenv/os.urandom for the scripted run (the WebAssembly MicroPython has neither)."""

import simscript

_seed = 12345


def getenv(name, default=None):
    return simscript.SETTINGS.get(name, default)


def urandom(n):
    global _seed
    out = bytearray(n)
    for i in range(n):
        _seed = (_seed * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = (_seed >> 16) & 0xFF
    return bytes(out)
