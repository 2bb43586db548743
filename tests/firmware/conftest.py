"""Puts the firmware library and the portable checks on sys.path, as on the board."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for folder in (ROOT / "firmware" / "lib", Path(__file__).parent / "portable"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
