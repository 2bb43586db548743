"""Finding a board's USB drives (CIRCUITPY, or its UF2 bootloader's) on Linux, macOS and Windows.

Linux desktops mount removable drives under /media/$USER or /run/media/$USER; macOS under
/Volumes; Windows gives them a drive letter. ``$TABLELIGHT_MOUNTS`` (folders separated by
os.pathsep) replaces those places, for unusual mount points (and for tests).
"""

from __future__ import annotations

import os
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tablelight.flash import FlashError


def mount_roots() -> list[Path]:
    override = os.environ.get("TABLELIGHT_MOUNTS")
    if override:
        return [Path(p) for p in override.split(os.pathsep) if p]
    if sys.platform == "win32":
        return [Path(f"{letter}:\\") for letter in string.ascii_uppercase[3:]]  # D: and on
    if sys.platform == "darwin":
        return [Path("/Volumes")]
    user = os.environ.get("USER", "")
    roots = [Path("/media") / user, Path("/run/media") / user] if user else []
    return list(dict.fromkeys(roots + [Path("/media"), Path("/run/media"), Path("/mnt")]))


def _volumes() -> list[Path]:
    """Every mounted volume folder (a Windows drive letter is itself a volume)."""
    found: list[Path] = []
    for root in mount_roots():
        try:
            if sys.platform == "win32" and not os.environ.get("TABLELIGHT_MOUNTS"):
                if root.exists():
                    found.append(root)
                continue
            found += sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:  # absent, or not ours to read
            continue
    return found


def volume_label(path: Path) -> str:
    if sys.platform == "win32" and len(path.parts) == 1:
        import ctypes

        buffer = ctypes.create_unicode_buffer(64)
        ctypes.windll.kernel32.GetVolumeInformationW(str(path), buffer, 64, None, None, None, None, 0)  # type: ignore[attr-defined]
        return buffer.value
    return path.name


def circuitpy_drives() -> list[Path]:
    return [v for v in _volumes() if volume_label(v).upper().startswith("CIRCUITPY") and (v / "boot_out.txt").exists()]


def uf2_drives() -> list[Path]:
    return [v for v in _volumes() if (v / "INFO_UF2.TXT").exists()]


def find_circuitpy() -> Path:
    drives = circuitpy_drives()
    if not drives:
        where = ", ".join(str(r) for r in mount_roots()[:4])
        raise FlashError(f"no CIRCUITPY drive found (looked in {where}): plug the board in (it must run CircuitPython; "
                         "--circuitpython FILE.uf2 installs it) or give --drive PATH")
    if len(drives) > 1:
        raise FlashError(f"several CIRCUITPY drives: {', '.join(map(str, drives))}; pick one with --drive PATH")
    return drives[0]


def wait_for(find: Callable[[], list[Path]], what: str, timeout: float, hint: str = "") -> Path:
    """Poll ``find`` (twice a second) until it returns a drive; FlashError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        drives = find()
        if drives:
            return drives[0]
        if time.monotonic() >= deadline:
            raise FlashError(f"no {what} appeared within {timeout:g} s{': ' + hint if hint else ''}")
        time.sleep(0.25)
