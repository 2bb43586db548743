"""Scripted data channel: the host's bytes arrive at given loop numbers; the board's are kept."""

import simscript


class Serial:
    def __init__(self):
        self.timeout = None
        self.write_timeout = None
        self.connected = True

    @property
    def in_waiting(self):
        simscript.loop += 1  # code.py asks once per loop iteration
        if simscript.loop >= simscript.STOP_AT:
            raise simscript.Done()
        ready = [b for at, b in simscript.HOST_BYTES if at <= simscript.loop]
        return sum(len(b) for b in ready)

    def read(self, n):
        out = b""
        keep = []
        for at, b in simscript.HOST_BYTES:
            if at <= simscript.loop:
                out += b
            else:
                keep.append((at, b))
        simscript.HOST_BYTES[:] = keep
        return out

    def write(self, buf):
        simscript.board_out.extend(buf)
        return len(buf)


def enable(console=True, data=False):
    pass


console = None
data = Serial()
