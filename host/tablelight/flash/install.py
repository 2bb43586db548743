"""Putting files on a CIRCUITPY drive so that a board is never left with a half-written one.

Every file is written under a temporary name, flushed to the drive and renamed over the old one
(os.replace: atomic on FAT as on any file system the host mounts), so a full drive or a yanked
cable leaves each file either old or new, never truncated. Identical files are skipped (the
drive's flash wears, and CircuitPython reloads at every write); each written file is read back
and its hash compared. code.py goes last: CircuitPython restarts it when it changes, by then
its libraries are in place.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from tablelight.flash import FlashError
from tablelight.flash.drive_view import DriveView, as_view

if TYPE_CHECKING:
    from tqdm import tqdm

TEMP_PREFIX = ".tablelight-partial-"
CLUSTER = 4096  # FAT allocates whole clusters: count each file as at least this much
LAST = ("boot.py", "code.py")  # written after everything they import


@dataclass(frozen=True)
class Change:
    path: str  # relative to the drive, with "/"
    data: bytes
    state: str  # "new", "changed" or "same"
    old_size: int = 0


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_order(files: dict[str, bytes]) -> list[str]:
    """The planned paths in the order they are written: libraries first, boot.py then code.py last."""
    return sorted(files, key=lambda p: (p in LAST, LAST.index(p) if p in LAST else 0, p))


def compare(drive: Path | DriveView, files: dict[str, bytes]) -> list[Change]:
    """Each planned file against the drive, in the order they would be written."""
    view = as_view(drive)
    changes = []
    for path in write_order(files):
        old = view.read(path)
        if old is None:
            changes.append(Change(path, files[path], "new"))
            continue
        state = "same" if digest(old) == digest(files[path]) else "changed"
        changes.append(Change(path, files[path], state, len(old)))
    return changes


def space_needed(changes: Iterable[Change]) -> int:
    """Bytes the drive must have free: the new files, less what they replace, plus room for the
    largest old file (it exists next to its replacement until the rename), in whole clusters."""
    writes = [c for c in changes if c.state != "same"]
    if not writes:
        return 0

    def clusters(size: int) -> int:
        return -(-size // CLUSTER) * CLUSTER

    grow = sum(clusters(len(c.data)) - clusters(c.old_size) for c in writes)
    return max(0, grow) + max(clusters(c.old_size) for c in writes)


def check_space(drive: Path, changes: list[Change]) -> None:
    need = space_needed(changes)
    try:
        free = shutil.disk_usage(drive).free
    except OSError as error:
        raise FlashError(f"cannot read the free space of {drive}: {error.strerror or error}") from None
    if need > free:
        raise FlashError(f"{drive} has {free // 1024} KiB free; the firmware needs {-(-need // 1024)} KiB more. "
                         "Nothing was written: delete files you do not need from the drive (old lib/ folders, "
                         "pictures) and flash again")


def open_for_write(path: Path) -> BinaryIO:
    """Opens a temporary file on the drive (a seam: tests give it a size limit)."""
    return open(path, "wb")


def write_whole(target: Path, data: bytes, progress: tqdm | None = None) -> None:
    """Write ``data`` to ``target`` so that ``target`` is always either its old or its new content."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(TEMP_PREFIX + target.name)
    try:
        with open_for_write(temporary) as out:
            for start in range(0, len(data), 16384):
                chunk = data[start:start + 16384]
                out.write(chunk)
                if progress is not None:
                    progress.update(len(chunk))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            temporary.unlink()
        except OSError:
            pass
        raise


def apply(drive: Path, changes: list[Change], show_progress: bool | None = None) -> list[str]:
    """Write every new or changed file; return their paths. FlashError names the file that failed
    and says which files were already new."""
    from tqdm import tqdm  # a terminal's progress bar: only where files are written from a host

    writes = [c for c in changes if c.state != "same"]
    remove_leftovers(drive)
    done: list[str] = []
    total = sum(len(c.data) for c in writes)
    disable = None if show_progress is None else not show_progress  # None: only on a terminal
    with tqdm(total=total, unit="B", unit_scale=True, desc="flashing", disable=disable, leave=True) as progress:
        for change in writes:
            progress.set_postfix_str(change.path, refresh=False)
            try:
                write_whole(drive / change.path, change.data, progress)
            except OSError as error:
                what = error.strerror or str(error)
                left = ("; the files before it are new, it and every later file are as they were" if done
                        else "; nothing on the drive changed")
                raise FlashError(f"writing {change.path} to {drive} failed: {what}{left}. Free some space "
                                 "(or re-plug the board) and flash again") from None
            done.append(change.path)
    bad = [c.path for c in writes if digest(read_back(drive / c.path)) != digest(c.data)]
    if bad:
        raise FlashError(f"read back from {drive}, these files differ from what was written: {', '.join(bad)}. "
                         "The drive may be failing: run CircuitPython's storage.erase_filesystem() and flash again")
    return done


def read_back(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""  # gone: counts as differing


def remove_leftovers(drive: Path) -> None:
    """Temporary files of an earlier flash that was cut off (a yanked cable): never whole, never used."""
    for folder in (drive, drive / "lib"):
        for path in folder.glob(TEMP_PREFIX + "*") if folder.is_dir() else ():
            try:
                path.unlink()
            except OSError:
                pass
