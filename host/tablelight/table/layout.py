"""Board layouts: what each LED and key of a lit board is for, as data.

A layout is ``hardware/layouts/<id>.json``, or ``<id>.json`` in the layouts folder a game's
entry names (:attr:`tablelight.core.registry.GameEntry.layouts`; the firmware never reads it: the board only
knows LED and key numbers). :func:`load_layout_data` reads one and checks the generic
fields every layout has (``id``, ``leds``, ``keys``, ``key_matrix``, ``drawing``; see
``docs/layouts.md``); the game's face (:mod:`tablelight.table.face`) reads and checks its
own sections, and the views draw any layout from its ``drawing``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tablelight.core.errors import TablelightError
from tablelight.core.fields import is_number, is_whole
from tablelight.core.inputs import InputError, read_json_file
from tablelight.paths import HARDWARE
from tablelight.wire import wire

#: Environment variable naming the folder that holds ``layouts/`` (defaults to the checkout's hardware/).
HARDWARE_ENV = "TABLELIGHT_HARDWARE"
SHAPES = ("polygon", "circle", "rect")
#: A KEY frame carries the key number in one byte.
MAX_KEYS = 256
MAX_LAYOUT_BYTES = 4 * 1024 * 1024


class LayoutError(TablelightError):
    """A layout file is missing or does not describe a consistent board."""


def hardware_dir() -> Path:
    """The folder holding ``layouts/``: ``$TABLELIGHT_HARDWARE`` or the checkout's ``hardware/``."""
    configured = os.environ.get(HARDWARE_ENV)
    if configured:
        return Path(configured)
    if (HARDWARE / "layouts").is_dir():  # the package's data (a link in a checkout, files in a wheel)
        return HARDWARE
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "hardware"
        if (candidate / "layouts").is_dir():
            return candidate
    raise LayoutError(
        f"cannot find the hardware/layouts folder; set {HARDWARE_ENV} to the folder that holds layouts/"
    )


def layout_folders() -> list[Path]:
    """Where layouts are looked for: ``hardware/layouts`` first, then each game's own folder."""
    from tablelight.core.registry import game_entries

    folders = []
    try:
        folders.append(hardware_dir() / "layouts")
    except LayoutError:
        pass
    for entry in game_entries().values():
        if entry.layouts is not None and entry.layouts not in folders:
            folders.append(entry.layouts)
    return folders


def layout_path(name: str) -> Path:
    """Where the layout ``name`` (or a path to a layout file) lives."""
    if name.endswith(".json") or os.sep in name:
        return Path(name)
    folders = layout_folders()
    for folder in folders:
        if (folder / f"{name}.json").is_file():
            return folder / f"{name}.json"
    return (folders[0] if folders else hardware_dir() / "layouts") / f"{name}.json"


def layout_names() -> list[str]:
    """The ids of every layout found (see :func:`layout_folders`)."""
    return sorted({path.stem for folder in layout_folders() for path in folder.glob("*.json")})


def read_layout_file(name: str) -> Any:
    """The parsed JSON of a layout by id or path, unchecked. Raises :class:`LayoutError`."""
    path = layout_path(name)
    if not path.exists():
        known = ", ".join(layout_names()) or "none"
        raise LayoutError(f"no layout file {path} (layouts: {known})")
    try:
        return read_json_file(path, max_bytes=MAX_LAYOUT_BYTES)
    except InputError as error:
        raise LayoutError(f"layout {error}") from None


def load_layout_data(name: str) -> dict[str, Any]:
    """Read a layout by id (``"farlander"``) or file path and check its generic fields.

    Returns the parsed document (game sections untouched). Raises :class:`LayoutError`
    saying what is wrong.
    """
    return check_layout_data(read_layout_file(name), str(layout_path(name)))


def whole(value: Any, what: str, limit: int) -> int:
    """``value`` as a whole number 0..limit-1, else a :class:`LayoutError` naming ``what``."""
    if not is_whole(value) or not 0 <= value < limit:
        raise LayoutError(f"{what} must be a whole number 0-{limit - 1}, got {value!r}")
    return value


def _number(value: Any, what: str) -> float:
    if not is_number(value):
        raise LayoutError(f"{what} must be a number, got {value!r}")
    return float(value)


def _point(value: Any, what: str) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise LayoutError(f"{what} must be [x, y], got {value!r}")
    return _number(value[0], what), _number(value[1], what)


def check_layout_data(data: Any, source: str = "layout") -> dict[str, Any]:
    """Check the generic fields of a parsed layout (see ``docs/layouts.md``); return it."""
    if not isinstance(data, dict):
        raise LayoutError(f"{source}: a layout is a JSON object")
    for name in ("id", "leds", "keys"):
        if name not in data:
            raise LayoutError(f"{source}: missing field {name!r}")
    if not isinstance(data["id"], str) or not data["id"]:
        raise LayoutError(f"{source}: id must be a non-empty string")
    # Bounded by what the wire carries, so a layout claiming millions of LEDs is refused before
    # anything is made per LED.
    for name, limit in (("leds", wire.MAX_LEDS), ("keys", MAX_KEYS)):
        value = data[name]
        if not is_whole(value) or not 0 < value <= limit:
            raise LayoutError(f"{source}: {name} must be a whole number 1-{limit}, got {value!r}")
    leds, keys = data["leds"], data["keys"]
    matrix = data.get("key_matrix")
    if matrix is not None:
        if not isinstance(matrix, dict):
            raise LayoutError(f"{source}: key_matrix must be an object with rows and columns")
        rows = whole(matrix.get("rows"), f"{source}: key_matrix rows", 257)
        columns = whole(matrix.get("columns"), f"{source}: key_matrix columns", 257)
        if rows * columns < keys:
            raise LayoutError(f"{source}: key_matrix {rows}x{columns} has fewer positions than the {keys} keys")
    if "drawing" not in data:
        raise LayoutError(f"{source}: missing field 'drawing' (how a screen draws the board: docs/layouts.md)")
    _check_drawing(data["drawing"], leds, keys, f"{source}: drawing")
    return data


def _check_drawing(drawing: Any, leds: int, keys: int, where: str) -> None:
    if not isinstance(drawing, dict):
        raise LayoutError(f"{where} must be an object")
    width = _number(drawing.get("width"), f"{where} width")
    height = _number(drawing.get("height"), f"{where} height")
    if width <= 0 or height <= 0:
        raise LayoutError(f"{where}: width and height must be positive")
    items = drawing.get("leds")
    if not isinstance(items, list):
        raise LayoutError(f"{where}: leds must be a list (one entry per LED)")
    drawn: dict[int, int] = {}
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise LayoutError(f"{where}: leds[{position}] must be an object")
        led = whole(item.get("led"), f"{where}: leds[{position}] led", leds)
        if led in drawn:
            raise LayoutError(f"{where}: LED {led} is drawn twice (leds[{drawn[led]}] and leds[{position}])")
        drawn[led] = position
        if "key" in item:
            whole(item["key"], f"{where}: LED {led} key", keys)
        shape = item.get("shape")
        if shape == "polygon":
            points = item.get("points")
            if not isinstance(points, list) or len(points) < 3:
                raise LayoutError(f"{where}: LED {led} polygon needs at least 3 points")
            for point in points:
                _point(point, f"{where}: LED {led} point")
        elif shape == "circle":
            _point(item.get("at"), f"{where}: LED {led} at")
            if _number(item.get("r"), f"{where}: LED {led} r") <= 0:
                raise LayoutError(f"{where}: LED {led} r must be positive")
        elif shape == "rect":
            _point(item.get("at"), f"{where}: LED {led} at")
            w, h = _point(item.get("size"), f"{where}: LED {led} size")
            if w <= 0 or h <= 0:
                raise LayoutError(f"{where}: LED {led} size must be positive")
        else:
            raise LayoutError(f"{where}: LED {led} shape must be one of {', '.join(SHAPES)}, got {shape!r}")
        if "label" in item and not isinstance(item["label"], str):
            raise LayoutError(f"{where}: LED {led} label must be text")
    missing = [led for led in range(leds) if led not in drawn]
    if missing:
        shown = ", ".join(str(led) for led in missing[:10]) + (" ..." if len(missing) > 10 else "")
        raise LayoutError(f"{where}: every LED must be drawn once; not drawn: {shown}")
    buttons = drawing.get("buttons", [])
    if not isinstance(buttons, list):
        raise LayoutError(f"{where}: buttons must be a list")
    for position, button in enumerate(buttons):
        if not isinstance(button, dict):
            raise LayoutError(f"{where}: buttons[{position}] must be an object")
        whole(button.get("key"), f"{where}: buttons[{position}] key", keys)
        _point(button.get("at"), f"{where}: buttons[{position}] at")
        if not isinstance(button.get("label"), str) or not button["label"]:
            raise LayoutError(f"{where}: buttons[{position}] needs a label")
    grid = drawing.get("grid")
    if grid is not None:
        if not isinstance(grid, dict):
            raise LayoutError(f"{where}: grid must be an object")
        columns = whole(grid.get("columns"), f"{where}: grid columns", 1000)
        rows = whole(grid.get("rows"), f"{where}: grid rows", 1000)
        cells = grid.get("cells")
        if not isinstance(cells, dict):
            raise LayoutError(f"{where}: grid cells must map LED numbers to [column, row]")
        for text, place in cells.items():
            if not text.isdigit() or not 0 <= int(text) < leds:
                raise LayoutError(f"{where}: grid cell {text!r} is not an LED number 0-{leds - 1}")
            if not isinstance(place, list) or len(place) != 2:
                raise LayoutError(f"{where}: grid cell {text} must be [column, row]")
            whole(place[0], f"{where}: grid cell {text} column", columns)
            whole(place[1], f"{where}: grid cell {text} row", rows)
