import time


def ticks_ms():
    return time.ticks_ms() & ((1 << 29) - 1)
