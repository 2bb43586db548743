"""The board's settings.toml: the firmware's template, with one layout's LED and key counts,
key-matrix pins and current budget, and BLE on or off.

Keys tablelight does not know (CIRCUITPY_WIFI_SSID, ...) of an existing settings.toml are kept.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from tablelight.flash import FlashError
from tablelight.paths import FIRMWARE, LAYOUTS

_ASSIGNMENT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=")


def layout_names() -> list[str]:
    return sorted(path.stem for path in LAYOUTS.glob("*.json"))


def load_layout(name: str) -> dict[str, Any]:
    path = LAYOUTS / f"{name}.json"
    if not path.exists():
        raise FlashError(f"no board layout {name!r}: the layouts are {', '.join(layout_names())}")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def matrix_pins(board: dict[str, Any], rows: int, columns: int) -> tuple[list[str], list[str]]:
    """The first ``rows`` row pins and ``columns`` column pins of the board (its free pins last)."""
    matrix = board["key_matrix"]
    extra = matrix.get("extra_pins", {})
    row_pins = list(matrix["rows"]) + list(extra.get("rows", []))
    column_pins = list(matrix["columns"]) + list(extra.get("columns", []))
    if rows > len(row_pins) or columns > len(column_pins):
        raise FlashError(f"the layout needs a {rows} x {columns} key matrix; the {board['name']} has pins for at most "
                         f"{len(row_pins)} x {len(column_pins)}")
    return row_pins[:rows], column_pins[:columns]


def layout_values(layout: dict[str, Any], board: dict[str, Any]) -> dict[str, Any]:
    matrix = layout.get("key_matrix") or {}
    rows = int(matrix.get("rows", len(board["key_matrix"]["rows"])))
    columns = int(matrix.get("columns", len(board["key_matrix"]["columns"])))
    if rows * columns < int(layout["keys"]):
        raise FlashError(f"layout {layout['id']}: a {rows} x {columns} matrix cannot hold {layout['keys']} keys")
    row_pins, column_pins = matrix_pins(board, rows, columns)
    return {
        "TL_BOARD": board["id"],
        "TL_LAYOUT": layout["id"],
        "TL_LEDS": int(layout["leds"]),
        "TL_KEYS": int(layout["keys"]),
        "TL_PIXEL_PIN": board["pixels"]["pin"],
        "TL_PIXEL_ORDER": board["pixels"].get("order", "GRB"),
        "TL_ROW_PINS": ",".join(row_pins),
        "TL_COLUMN_PINS": ",".join(column_pins),
        "TL_BUDGET_MA": int(layout.get("budget_ma", board["power"]["default_budget_ma"])),
    }


def parse(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FlashError(f"{where} is not valid TOML ({error}): fix or delete it, or give --layout") from None


def render(values: dict[str, Any], keep: str = "") -> str:
    """The firmware's settings.toml with ``values`` substituted, then the lines of ``keep`` (an old
    settings.toml) that set keys the template does not have."""
    template = (FIRMWARE / "settings.toml").read_text()
    lines = []
    known = set()
    for line in template.splitlines():
        match = _ASSIGNMENT.match(line)
        if line.startswith("# key matrix:") and "TL_ROW_PINS" in values and "TL_COLUMN_PINS" in values:
            rows, columns = (len(str(values[k]).split(",")) for k in ("TL_ROW_PINS", "TL_COLUMN_PINS"))
            line = (f"# key matrix: key number = row * len(columns) + column ({rows} x {columns} = "
                    f"{rows * columns} positions, {values.get('TL_KEYS', '?')} used)")
        if line.startswith("# current budget in mA") and "TL_BUDGET_MA" in values:
            line = budget_comment(int(values["TL_BUDGET_MA"]))
        if match:
            known.add(match.group(1))
            if match.group(1) in values:
                line = f"{match.group(1)} = {_toml_value(values[match.group(1)])}"
        lines.append(line)
    # the board's own keys stay as its lines say them (with their comments), below ours
    before = tomllib.loads(keep) if keep else {}
    verbatim = {name for name in values if name not in known and name in before and before[name] == values[name]}
    for name in values:
        if name not in known and name not in verbatim:
            lines.append(f"{name} = {_toml_value(values[name])}")
    foreign = foreign_lines(keep, known | (values.keys() - verbatim))
    if foreign:
        lines += [KEPT_HEADER] + foreign
    return "\n".join(lines) + "\n"


KEPT_HEADER = "# kept from the board's previous settings.toml"


def foreign_lines(text: str, ours: set[str]) -> list[str]:
    """The lines of a board's settings.toml that set keys not in ``ours``, each with the comment
    lines just above it (the person's own notes on it; never our own header)."""
    kept: list[str] = []
    comments: list[str] = []
    for line in text.splitlines():
        match = _ASSIGNMENT.match(line)
        if match and match.group(1) not in ours:
            kept += comments + [line]
        if line.lstrip().startswith("#") and line.strip() != KEPT_HEADER:
            comments.append(line)
        else:
            comments = []
    return kept


USB2_PORT_MA = 500


def budget_comment(budget_ma: int) -> str:
    """The comment above TL_BUDGET_MA, saying what that budget asks of the supply."""
    if budget_ma <= USB2_PORT_MA - 50:
        return (f"# current budget in mA for the LEDs + board: {budget_ma} leaves margin on a "
                f"{USB2_PORT_MA} mA USB 2 port")
    return (f"# current budget in mA for the LEDs + board: {budget_ma} needs a supply of at least {budget_ma} mA "
            f"(more than a {USB2_PORT_MA} mA USB 2 port gives: see the layout's power notes)")


def layout_mismatches(text: str) -> list[str]:
    """What a settings.toml says that disagrees with the layout it names (TL_LAYOUT): its LED and
    key counts, and a key matrix too small for the keys (the firmware's defaults where unset)."""
    values = parse(text, "settings.toml")
    name = values.get("TL_LAYOUT")
    if not isinstance(name, str) or name not in layout_names():
        return [f"TL_LAYOUT is {name!r}, not one of the layouts ({', '.join(layout_names())})"]
    layout = load_layout(name)
    problems = []
    for key, wanted, default, what in (("TL_LEDS", layout["leds"], 55, "LEDs"), ("TL_KEYS", layout["keys"], 0, "keys")):
        value = values.get(key, default)
        if value != wanted:
            problems.append(f"{key} is {value!r}, layout {name} has {wanted} {what}")
    rows = [p for p in str(values.get("TL_ROW_PINS", "")).split(",") if p.strip()]
    columns = [p for p in str(values.get("TL_COLUMN_PINS", "")).split(",") if p.strip()]
    if len(rows) * len(columns) < int(layout["keys"]):
        problems.append(f"a {len(rows)} x {len(columns)} key matrix (TL_ROW_PINS, TL_COLUMN_PINS) cannot hold the "
                        f"{layout['keys']} keys of layout {name}")
    return problems


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))  # a TOML basic string (the values here are ASCII)


def settings_text(board: dict[str, Any], old: str | None, layout: str | None, ble: bool | None,
                  test_input: bool | None = None) -> str | None:
    """The settings.toml to write, or None to leave the board's own one alone. A settings.toml that
    names no layout (CircuitPython's own, with Wi-Fi lines) is not tablelight's yet: it gets the
    farlander layout, its lines kept, as a new board does."""
    before = parse(old, "the board's settings.toml") if old is not None else {}
    ours = "TL_LAYOUT" in before
    if ours and layout is None and ble is None and test_input is None:
        return None
    values: dict[str, Any] = {k: v for k, v in before.items() if isinstance(v, (int, str))}
    values.update(layout_values(load_layout(layout or str(values.get("TL_LAYOUT", "farlander"))), board)
                  if layout or not ours else {})
    if ble is not None:
        values["TL_BLE"] = 1 if ble else 0
    if test_input is not None:
        values["TL_TEST_INPUT"] = 1 if test_input else 0
    return render(values, old or "")


def ble_enabled(text: str) -> bool:
    return bool(parse(text, "settings.toml").get("TL_BLE", 0))


def test_input_enabled(text: str) -> bool:
    return bool(parse(text, "settings.toml").get("TL_TEST_INPUT", 0))
