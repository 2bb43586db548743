"""Setting a board up from the app's page: the plan ``tablelight flash`` makes, made in the worker.

The page owns the drive (File System Access, or a board's Bluetooth file transfer service) and
reads what the plan needs (:func:`wants`); the worker answers with every file to write, by the
same code as the command (:mod:`tablelight.flash.plan`): the same firmware, settings.toml (the
board's own lines and comments kept), pinned libraries (the sha256-checked wheels the app carries,
so it works offline) and copies of the user's own code.py/boot.py. After writing, the page reads
every planned file back and :func:`verify` says what ``tablelight flash --verify`` prints.

Everything crosses as JSON text; file contents as base64. Any refusal is ``{"error": sentence}``.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from typing import Any

from tablelight.core.errors import TablelightError
from tablelight.flash import FlashError
from tablelight.flash.boards import check_supported, load_boards, read_boot_out
from tablelight.flash.drive_view import SnapshotDrive
from tablelight.flash.install import compare, write_order
from tablelight.flash.plan import RUN_FILES, Options, backup_names, drive_files, keep_user_code
from tablelight.flash.report import verify_lines
from tablelight.flash.settings import layout_mismatches, layout_names
from tablelight.flash.uf2 import board_from_info, check_for_board

#: The drive's files a plan reads (besides the copies of a user's code, found by their names).
READS = ("boot_out.txt", "settings.toml", *RUN_FILES)
#: What the page says when the folder it was given holds no boot_out.txt.
NOT_CIRCUITPY = ("Pick the board's drive itself (named CIRCUITPY), not a folder on it; if the board shows a drive "
                 "like FTHR840BOOT instead, CircuitPython is not installed yet: pick that drive to install it")


def _answer(work: Callable[[], dict[str, Any]]) -> str:
    try:
        return json.dumps(work())
    except TablelightError as error:
        return json.dumps({"error": str(error)})
    except (ValueError, KeyError, TypeError) as error:  # a request the page built wrong
        return json.dumps({"error": f"the page sent a request the worker cannot read ({error!r})"})


def wants(top_json: str) -> str:
    """Given the drive's top-level file names (a JSON list), the files the page must read:
    ``{"read": [path, ...], "layouts": [...]}``."""
    def work() -> dict[str, Any]:
        top = [str(name) for name in json.loads(top_json)]
        return {"read": [*READS, *sorted(backup_names(top))], "layouts": layout_names()}
    return _answer(work)


def _drive(request: dict[str, Any]) -> SnapshotDrive:
    files = {str(path): base64.b64decode(data) for path, data in request.get("files", {}).items()}
    return SnapshotDrive(str(request.get("drive") or "CIRCUITPY"), files, [str(n) for n in request.get("top", [])],
                         [str(n) for n in request.get("folders", [])])


def _options(request: dict[str, Any]) -> Options:
    layout = request.get("layout") or None
    ble = request.get("ble")
    return Options(layout=str(layout) if layout else None, ble=None if ble is None else bool(ble), offline=True)


def plan(request_json: str) -> str:
    """The files to write onto the drive the page read: ``{"board", "circuitpython", "drive",
    "files": [{"path", "size", "sha256", "data"}] (in the order to write them), "kept": {name:
    copy}, "warnings": [...]}``. Request: ``{"drive", "files": {path: base64}, "top": [names],
    "folders": [paths], "layout": name|null, "ble": bool|null}``."""
    def work() -> dict[str, Any]:
        request = json.loads(request_json)
        drive = _drive(request)
        boot = read_boot_out(drive, NOT_CIRCUITPY)
        board = check_supported(boot)
        files = drive_files(drive, board, _options(request))
        settings = files.get("settings.toml", b"").decode("utf-8", "replace")
        warnings = [f"settings.toml: {problem} (pick a layout to rewrite it)"
                    for problem in (layout_mismatches(settings) if settings else [])]
        kept = keep_user_code(drive, files)
        return {
            "board": board["name"], "board_id": boot.board_id, "circuitpython": boot.version_text,
            "drive": drive.where(), "kept": kept, "warnings": warnings,
            "files": [{"path": path, "size": len(files[path]), "sha256": hashlib.sha256(files[path]).hexdigest(),
                       "data": base64.b64encode(files[path]).decode()} for path in write_order(files)],
        }
    return _answer(work)


def verify(request_json: str) -> str:
    """What ``tablelight flash --verify`` says of the drive the page read back (the same request as
    :func:`plan`, with every planned file): ``{"lines": [{"text", "error"}], "matches": bool}``."""
    def work() -> dict[str, Any]:
        request = json.loads(request_json)
        drive = _drive(request)
        board = check_supported(read_boot_out(drive, NOT_CIRCUITPY))
        files = drive_files(drive, board, Options(offline=True))
        settings = files.get("settings.toml", b"").decode("utf-8", "replace")
        lines, matches = verify_lines(drive.where(), compare(drive, files),
                                      layout_mismatches(settings) if settings else [])
        return {"lines": [{"text": line.text, "error": line.error} for line in lines], "matches": matches}
    return _answer(work)


def bootloader(request_json: str) -> str:
    """A UF2 bootloader drive's board, from its INFO_UF2.TXT: ``{"board", "board_id", "download"}``.
    Request: ``{"info": INFO_UF2.TXT text, "drive": its name}``."""
    def work() -> dict[str, Any]:
        request = json.loads(request_json)
        board = board_from_info(str(request["info"]), str(request.get("drive") or "the drive"), load_boards())
        return {"board": board["name"], "board_id": board["circuitpython_board_id"],
                "download": f"https://circuitpython.org/board/{board['circuitpython_board_id']}/"}
    return _answer(work)


def check_uf2(request_json: str) -> str:
    """``{"ok": true}`` when the .uf2 the person picked fits the bootloader's board, else the refusal.
    Request: ``{"info": INFO_UF2.TXT text, "drive", "name": file name, "data": base64}``."""
    def work() -> dict[str, Any]:
        request = json.loads(request_json)
        board = board_from_info(str(request["info"]), str(request.get("drive") or "the drive"), load_boards())
        name = str(request["name"])
        if not name.lower().endswith(".uf2"):
            raise FlashError(f"{name} is not a .uf2 file: download CircuitPython's .uf2 for the {board['name']} from "
                             f"https://circuitpython.org/board/{board['circuitpython_board_id']}/")
        check_for_board(base64.b64decode(request["data"]), name, board)
        return {"ok": True, "board": board["name"]}
    return _answer(work)
