"""This computer's keys for the boards it has paired with over Bluetooth LE (`tablelight pair`).

A board keeps the keys of its paired hosts; the host keeps one key per board address, in
``$TABLELIGHT_BLE_KEYS`` or ``$XDG_CONFIG_HOME/tablelight/ble-keys.json`` (~/.config), readable
by its owner only: whoever holds a board's key can drive that board.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from tablelight.core.errors import TablelightError
from tablelight.core.inputs import InputError, read_json_file
from tablelight.wire import wire


class KeyStoreError(TablelightError):
    """The key file exists but cannot be read or written."""


def default_path() -> Path:
    if os.environ.get("TABLELIGHT_BLE_KEYS"):
        return Path(os.environ["TABLELIGHT_BLE_KEYS"])
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "tablelight" / "ble-keys.json"


def _normal(address: str) -> str:
    return address.removeprefix("ble://").upper()


class HostKeys:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _load(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        try:  # the input boundary: size, strict UTF-8, nesting depth (a deep file is no RecursionError)
            data = read_json_file(self.path, max_bytes=1024 * 1024)
        except InputError as error:
            raise KeyStoreError(f"cannot read the Bluetooth keys ({error}); "
                                "fix or remove the file and pair again") from None
        if not isinstance(data, dict):
            raise KeyStoreError(f"{self.path}: not a JSON object; fix or remove the file and pair again")
        return data

    def _save(self, data: dict[str, Any]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # a new file of a random name (O_EXCL, 0600): a file or link planted beside it is never opened
            handle, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(handle, "w") as f:
                    json.dump(data, f, indent=1, sort_keys=True)
                os.replace(temporary, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as error:
            raise KeyStoreError(f"{self.path}: cannot save the Bluetooth keys: {error}") from error

    def get(self, address: str) -> bytes | None:
        entry = self._load().get(_normal(address))
        try:
            key = bytes.fromhex(entry["key"]) if isinstance(entry, dict) else None
        except (KeyError, ValueError, TypeError):
            key = None
        return key if key is not None and len(key) == wire.HOST_KEY_SIZE else None

    def put(self, address: str, key: bytes, name: str = "") -> None:
        data = self._load()
        data[_normal(address)] = {"key": key.hex(), "name": name, "paired_at": time.strftime("%Y-%m-%dT%H:%M:%S")}
        self._save(data)

    def remove(self, address: str) -> bool:
        data = self._load()
        if data.pop(_normal(address), None) is None:
            return False
        self._save(data)
        return True

    def addresses(self) -> list[str]:
        return sorted(self._load())


def new_key() -> bytes:
    return secrets.token_bytes(wire.HOST_KEY_SIZE)
