"""Entry point of the simulated board's subprocess: run the real firmware/code.py.

``python -m tablelight.sim.runner FIRMWARE_DIR`` with TL_SIM_DATA_FD (pty master) and
TL_SIM_CTRL_FD (control socket) in the environment. settings.toml is loaded into the
environment the way CircuitPython's os.getenv reads it; variables already set win (the SimBoard
uses that to pick a layout's LED and key counts).
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from tablelight.core.inputs import InputError, read_toml_file

FAKES = Path(__file__).resolve().parent / "fakes"


def main(argv: list[str]) -> int:
    firmware = Path(argv[0]).resolve()
    settings = firmware / "settings.toml"
    if settings.exists():
        try:
            values = read_toml_file(settings, max_bytes=64 * 1024)
        except InputError as error:
            print(f"tablelight sim: {error}", file=sys.stderr)
            return 2
        for name, value in values.items():
            os.environ.setdefault(name, str(value))
    # as on the board: the firmware's own files and lib/ first, then the fake hardware modules,
    # then site-packages (for Adafruit's real neopixel and adafruit_pixelbuf)
    sys.path[:0] = [str(firmware), str(firmware / "lib"), str(FAKES)]
    os.chdir(firmware)
    runpy.run_path(str(firmware / "code.py"), run_name="__main__")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        raise SystemExit(0)
