"""Where the firmware and the board layouts are, in a checkout and in an installed wheel.

``host/tablelight/data/`` holds two links, ``firmware`` and ``hardware``, to the repository's
folders of those names. In a source checkout (and an editable install) they point at the real
folders; a wheel build copies their files into the package, so an installed ``tablelight`` can
still run the simulated board, flash a board and read layouts.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
FIRMWARE = DATA / "firmware"
HARDWARE = DATA / "hardware"
LAYOUTS = HARDWARE / "layouts"
