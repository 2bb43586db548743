"""What a built app folder holds: the list of files ``tablelight app build`` wrote (``app.json``'s
``files``), which ``tablelight app serve`` serves and nothing else, and which the next build may
replace. A folder holding anything else (a key, a note, a dotfile) is not the build's to write
into: it is refused unless the build is forced, and even then those files are never served.

Beside a file worth compressing the build writes its gzip form (``NAME.gz``, listed too): ``app
serve`` sends it with ``Content-Encoding: gzip`` to a browser that accepts it.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tablelight.core.errors import SetupError

#: The build's own description (version, wheel, Pyodide) and list of the files it wrote.
MANIFEST = "app.json"
#: A file smaller than this is sent as it is (its gzip form would save a few hundred bytes at most).
COMPRESS_FROM = 16 * 1024
#: A gzip form is kept only when it saves at least this share (a zip, a PNG barely shrink).
COMPRESS_SAVING = 0.1
GZIP = ".gz"


def listed(folder: Path) -> list[str] | None:
    """The files the last build wrote into ``folder`` (paths relative to it, ``/``-separated), or
    None when it holds no readable list (no build, or one older than these lists)."""
    try:
        files = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(files, list) or not all(isinstance(name, str) for name in files):
        return None
    return [name for name in files if is_plain(name)]


def is_plain(name: str) -> bool:
    """A relative path of plain parts: no ``..``, no dotfile, no absolute path, no backslash."""
    parts = name.split("/")
    return bool(name) and "\\" not in name and all(part and not part.startswith(".") for part in parts)


def present(folder: Path) -> list[str]:
    """Every file under ``folder`` (relative, ``/``-separated), dotfiles included."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def check_ours(folder: Path, force: bool) -> list[str]:
    """Refuse ``folder`` when it holds files no build wrote (unless ``force``); return the files
    the last build wrote there (which this build may remove or replace)."""
    if folder.exists() and not folder.is_dir():
        raise SetupError(f"{folder} is a file, not a folder")
    if not folder.exists():
        return []
    earlier = listed(folder) or []
    foreign = [name for name in present(folder) if name not in earlier and name != MANIFEST]
    if foreign and not force:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise SetupError(f"{folder} holds files the app build did not write ({shown}): build into an empty or new "
                         "folder, or give --force (they stay where they are, and `tablelight app serve` never serves them)")
    return earlier


def compress(folder: Path, names: list[str]) -> list[str]:
    """Write ``NAME.gz`` beside each of ``names`` worth it; the names of the gzip files written."""
    written = []
    for name in names:
        data = (folder / name).read_bytes()
        if len(data) < COMPRESS_FROM:
            continue
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= len(data) * (1 - COMPRESS_SAVING):
            (folder / (name + GZIP)).write_bytes(packed)
            written.append(name + GZIP)
    return written


def remove_stale(folder: Path, earlier: list[str], now: list[str]) -> None:
    """Remove the files an earlier build wrote that this one did not (an old wheel, an old ``.gz``)."""
    keep = set(now) | {MANIFEST}
    for name in earlier:
        if name not in keep:
            (folder / name).unlink(missing_ok=True)
