"""``tablelight flash``: copy the firmware onto a CircuitPython board's CIRCUITPY drive.

CircuitPython runs Python sources, so flashing is copying files: boot.py, code.py, lib/ (the
wire module, lights, keys, link, scene, limiter) and Adafruit's neopixel library. An existing
settings.toml is kept (it holds this board's pins and current budget) unless --settings is given.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import shutil
from pathlib import Path
from typing import Any

from tablelight.core.errors import TablelightError
from tablelight.paths import FIRMWARE


class FlashError(TablelightError):
    """The firmware could not be copied (no drive, not a CircuitPython drive, no firmware)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("flash", help="copy the tablelight firmware onto a CircuitPython board (CIRCUITPY)")
    parser.add_argument("--drive", metavar="PATH", help="the CIRCUITPY drive (default: look in /media, /run/media, /Volumes)")
    parser.add_argument("--settings", action="store_true", help="replace the board's settings.toml with the default one")
    parser.add_argument("--force", action="store_true", help="copy even if the drive has no boot_out.txt")
    parser.add_argument("--dry-run", action="store_true", help="only list what would be copied")
    parser.set_defaults(func=run)


def find_drive() -> Path:
    user = os.environ.get("USER", "*")
    patterns = [f"/media/{user}/CIRCUITPY*", "/media/*/CIRCUITPY*", f"/run/media/{user}/CIRCUITPY*",
                "/run/media/*/CIRCUITPY*", "/Volumes/CIRCUITPY*"]
    for pattern in patterns:
        found = sorted(glob.glob(pattern))
        if found:
            return Path(found[0])
    raise FlashError("no CIRCUITPY drive found: plug the board in (it must run CircuitPython) or give --drive PATH")


def plan(drive: Path, replace_settings: bool) -> list[tuple[Path, Path]]:
    """(source, destination) pairs to copy."""
    if not (FIRMWARE / "code.py").exists():
        raise FlashError(f"firmware sources not found at {FIRMWARE} (flash from a source checkout)")
    pairs = [(FIRMWARE / "boot.py", drive / "boot.py"), (FIRMWARE / "code.py", drive / "code.py")]
    if replace_settings or not (drive / "settings.toml").exists():
        pairs.append((FIRMWARE / "settings.toml", drive / "settings.toml"))
    for source in sorted((FIRMWARE / "lib").glob("*.py")):
        pairs.append((source, drive / "lib" / source.name))
    if not (drive / "lib" / "neopixel.mpy").exists():
        spec = importlib.util.find_spec("neopixel")
        if spec is None or spec.origin is None:
            raise FlashError("Adafruit's neopixel library is missing: `pip install --no-deps "
                             "adafruit-circuitpython-neopixel`, or copy neopixel.mpy from the Adafruit bundle to lib/")
        pairs.append((Path(spec.origin), drive / "lib" / "neopixel.py"))
    return pairs


def run(args: argparse.Namespace) -> int:
    drive = Path(args.drive) if args.drive else find_drive()
    if not drive.is_dir():
        raise FlashError(f"{drive} is not a directory")
    if not (drive / "boot_out.txt").exists() and not args.force:
        raise FlashError(f"{drive} has no boot_out.txt: it does not look like a CircuitPython drive (--force to copy anyway)")
    pairs = plan(drive, args.settings)
    for source, target in pairs:
        print(f"{'would copy' if args.dry_run else 'copy'} {source.name} -> {target}")
        if not args.dry_run:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)  # follows symlinks: the board gets the content
    if not args.dry_run:
        print("done: press the board's reset button once (boot.py takes effect only after a hard reset), "
              "then run `tablelight devices`")
    return 0
