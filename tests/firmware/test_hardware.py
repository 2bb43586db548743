"""The reference board file agrees with the firmware's settings.toml and with the pins of the stand-in
for CircuitPython's board module."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_board_file_matches_settings_toml() -> None:
    board = json.loads((ROOT / "hardware" / "boards" / "feather_nrf52840.json").read_text())
    settings = tomllib.loads((ROOT / "firmware" / "settings.toml").read_text())
    for name, value in board["settings"].items():
        assert settings[name] == value, name
    assert settings["TL_ROW_PINS"].split(",") == board["key_matrix"]["rows"]
    assert settings["TL_COLUMN_PINS"].split(",") == board["key_matrix"]["columns"]
    rows, columns = len(board["key_matrix"]["rows"]), len(board["key_matrix"]["columns"])
    assert rows * columns >= settings["TL_KEYS"]
    extra = board["key_matrix"]["extra_pins"]
    used = (board["key_matrix"]["rows"] + board["key_matrix"]["columns"] + extra["rows"] + extra["columns"]
            + [board["pixels"]["pin"]])
    assert len(set(used)) == len(used), "a pin is used twice"
    assert set(extra["rows"] + extra["columns"]) <= {p.split()[0] for p in board["free_pins"]}


def test_board_module_stand_in_has_every_pin_the_settings_name() -> None:
    pin_module = (ROOT / "host" / "tablelight" / "sim" / "fakes" / "board.py").read_text()
    settings = tomllib.loads((ROOT / "firmware" / "settings.toml").read_text())
    extra = json.loads((ROOT / "hardware" / "boards" / "feather_nrf52840.json").read_text())["key_matrix"]["extra_pins"]
    pins = settings["TL_ROW_PINS"].split(",") + settings["TL_COLUMN_PINS"].split(",") + [settings["TL_PIXEL_PIN"]]
    for pin in pins + extra["rows"] + extra["columns"]:
        assert f" {pin} " in pin_module.replace('"', " "), pin
