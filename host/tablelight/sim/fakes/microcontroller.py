# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake microcontroller: only what neopixel's annotations and the firmware need."""


class Pin:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return "board." + self.name


class ByteArray:
    """``microcontroller.nvm``: non-volatile bytes that survive a reset (here a file, TL_SIM_NVM).
    Fixed size like the real one (8192 bytes on an nRF52840 with CircuitPython's defaults)."""

    SIZE = 8192

    def __init__(self, path: str) -> None:
        self._path = path
        try:
            with open(path, "rb") as f:
                self._data = bytearray(f.read()[:self.SIZE].ljust(self.SIZE, b"\xff"))
        except OSError:
            self._data = bytearray(b"\xff" * self.SIZE)  # erased flash reads 0xFF

    def __len__(self) -> int:
        return self.SIZE

    def __getitem__(self, index):
        return self._data[index]

    def __setitem__(self, index, value) -> None:
        if isinstance(index, slice) and len(range(*index.indices(self.SIZE))) != len(value):
            raise ValueError("Slice and value different lengths.")
        self._data[index] = value
        if self._path:
            with open(self._path, "wb") as f:
                f.write(self._data)


import os as _os  # noqa: E402  (kept apart: the fake's only storage setting)

nvm = ByteArray(_os.environ.get("TL_SIM_NVM", ""))
