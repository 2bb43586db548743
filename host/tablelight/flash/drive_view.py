"""What planning reads of a CIRCUITPY drive, whether a mounted folder or a page's snapshot of one.

``tablelight flash`` reads a folder the host mounted; the app's page reads the drive through the
File System Access API (or over Bluetooth) and hands the worker the few files a plan reads. Both
go through :class:`DriveView`, so :mod:`tablelight.flash.plan` computes the same plan from either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from tablelight.flash import FlashError


class DriveView(Protocol):
    def read(self, path: str) -> bytes | None:
        """The file's bytes; None when it is absent; FlashError when it cannot be read (or is a folder)."""

    def names(self) -> list[str]:
        """The names of the files at the top of the drive."""

    def where(self, path: str = "") -> str:
        """How a message names ``path`` on this drive (the drive itself for "")."""


class FolderDrive:
    """A mounted drive (or any folder standing in for one)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def read(self, path: str) -> bytes | None:
        target = self.folder / path
        try:
            return target.read_bytes()
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            raise FlashError(f"{target} is a folder where tablelight puts a file: move it away") from None
        except OSError as error:
            raise FlashError(f"cannot read {target}: {error.strerror or error}") from None

    def names(self) -> list[str]:
        try:
            return sorted(p.name for p in self.folder.iterdir() if p.is_file())
        except OSError:
            return []

    def where(self, path: str = "") -> str:
        return str(self.folder / path) if path else str(self.folder)


class SnapshotDrive:
    """The files a page read from a drive: ``files`` {path: bytes} (the ones it was asked for that
    exist), ``folders`` the planned paths it found to be folders, ``top`` every file name at the top."""

    def __init__(self, name: str, files: dict[str, bytes], top: list[str] | None = None,
                 folders: list[str] | None = None) -> None:
        self.name = name
        self.files = files
        self.top = sorted(top if top is not None else [p for p in files if "/" not in p])
        self.folders = set(folders or ())

    def read(self, path: str) -> bytes | None:
        if path in self.folders:
            raise FlashError(f"{self.where(path)} is a folder where tablelight puts a file: move it away")
        return self.files.get(path)

    def names(self) -> list[str]:
        return self.top

    def where(self, path: str = "") -> str:
        return f"{self.name}/{path}" if path else self.name


def as_view(drive: Path | DriveView) -> DriveView:
    return FolderDrive(drive) if isinstance(drive, Path) else drive
